package toolcall

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
)

// TestWriteNoticeKeepsContent: the AIR approval of a Write over a file the
// adapter cannot show (a NUL byte) carries the overwrite notice, and its
// rawInput keeps content, since the notice holds no file text (contract:
// "Diff patch > Claude behavior"; DEVIATIONS.md 25). A Write whose
// approval shows a diff keeps the file text out of rawInput.
func TestWriteNoticeKeepsContent(t *testing.T) {
	air := caps.Parse(json.RawMessage(`{"_meta":{"jetbrains":{"air":{"version":1,"capabilities":["diffPatch"]}}}}`))
	files := map[string]string{"/w/bin.txt": "raw\x00bytes\n", "/w/text.txt": "old\n"}
	disk := &Disk{ReadFile: func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}}
	r := Renderer{Caps: air, Cwd: "/w", Disk: disk}
	for _, tt := range []struct {
		file, content string
		keeps         bool
	}{
		{"/w/bin.txt", "Overwrites the existing file", true},
		{"/w/text.txt", `"diffPatch"`, false},
	} {
		input := json.RawMessage(`{"file_path":"` + tt.file + `","content":"new\n"}`)
		use := ToolUse{ID: "toolu_w", Name: "Write", Input: input}
		call := r.PermissionToolCall(use, PermissionRequest{ToolUseID: "toolu_w", ToolName: "Write", Input: input})
		got, _ := json.Marshal(call)
		if !strings.Contains(string(got), tt.content) {
			t.Errorf("%s: no %s in %s", tt.file, tt.content, got)
		}
		if kept := strings.Contains(string(call.RawInput), `"content"`); kept != tt.keeps {
			t.Errorf("%s: rawInput %s, want content kept %v", tt.file, call.RawInput, tt.keeps)
		}
	}
}
