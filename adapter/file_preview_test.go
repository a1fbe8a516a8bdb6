package adapter

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/subagents"
	"github.com/airwire/airwire/adapter/toolcall"
)

// The preview hook of a v2 session shows an Edit's patch before it runs,
// and nothing for the work a cancel stopped; it always lets the CLI go on.
func TestFilePreviewHook(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "app.ts")
	if err := os.WriteFile(file, []byte("const greeting = 'hi';\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	input, _ := json.Marshal(map[string]any{"file_path": file, "old_string": "'hi'", "new_string": "'hello'"})
	cb := &claude.HookCallback{ToolUseID: "toolu_edit",
		Input: claude.HookInput{HookEventName: "PreToolUse", ToolName: "Edit", ToolInput: input}}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name          string
		ctx           context.Context
		turnCancelled bool
		want          int
	}{
		{"live", context.Background(), false, 1},
		{"hook request withdrawn", cancelled, false, 0},
		{"turn cancelled", context.Background(), true, 0},
	} {
		cl := caps.Client{V2: true}
		h := &recordingHost{}
		tools := toolcall.NewSession(cl, dir)
		tools.UseDisk(toolcall.OSDisk())
		s := &Session{turns: []*turn{{cancelled: c.turnCancelled}}}
		s.tr = &translator{tools: tools, bg: newBackground(cl)}
		s.tr.sub = subagents.New(h, "s1", dir, cl)
		var answer []byte
		filePreview{s}.hook(c.ctx, cb, func(res any, err error) { answer, _ = json.Marshal(res) })
		if string(answer) != `{"continue":true}` {
			t.Errorf("%s: the hook answered %v", c.name, answer)
		}
		if len(h.sent) != c.want {
			t.Fatalf("%s: sent %d updates, want %d", c.name, len(h.sent), c.want)
		}
		if c.want > 0 && !strings.Contains(string(h.sent[0].Update), `+const greeting = 'hello';`) {
			t.Errorf("%s: no patch in %s", c.name, h.sent[0].Update)
		}
	}
}
