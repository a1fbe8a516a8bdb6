package toolcall

import (
	"encoding/json"
	"io/fs"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
)

// previewDisk holds /p/src/app.ts; any other path is missing, and
// /p/locked.ts cannot be read.
func previewDisk() *Disk {
	return &Disk{ReadFile: func(path string) ([]byte, error) {
		switch path {
		case "/p/src/app.ts":
			return []byte("const greeting = 'hi';\nconsole.log(greeting);\n"), nil
		case "/p/locked.ts":
			return nil, fs.ErrPermission
		}
		return nil, fs.ErrNotExist
	}}
}

func previewSession(c caps.Client) *Session {
	s := NewSession(c, "/p")
	s.UseDisk(previewDisk())
	return s
}

const (
	editInput = `{"file_path":"/p/src/app.ts","old_string":"'hi'","new_string":"'hello'","replace_all":false}`
	// editPatchV2 is the v2 diff of editInput, as the reference sends it.
	editPatchV2 = `[{"changes":[{"fileType":"text","operation":"modify","path":"/p/src/app.ts"}],` +
		`"patch":{"format":"git_patch","text":"diff --git /p/src/app.ts /p/src/app.ts\n--- /p/src/app.ts\n+++ /p/src/app.ts\n` +
		`@@ -1,2 +1,2 @@\n-const greeting = 'hi';\n+const greeting = 'hello';\n console.log(greeting);\n"},"type":"diff"}]`
)

func contentJSON(t *testing.T, c *[]Content) string {
	t.Helper()
	if c == nil {
		return "<none>"
	}
	var v any
	if err := json.Unmarshal(encode(*c), &v); err != nil {
		t.Fatal(err)
	}
	return string(encode(v))
}

func compactJSON(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return string(encode(v))
}

// The v2 preview of a tool call the client holds is an update with the
// exact patch as a v2 diff; a later report of the streamed input does not
// replace it.
func TestV2PreviewUpdatesTheShownToolCall(t *testing.T) {
	s := previewSession(caps.Client{V2: true})
	edit := claude.Block{Type: "tool_use", ID: "toolu_edit", Name: "Edit", Input: json.RawMessage(editInput)}
	first := s.Assistant("", []claude.Block{edit})
	if len(first) != 1 || first[0].Content == nil || len(*first[0].Content) != 0 {
		t.Fatalf("a v2 Edit tool call shows no snippet diff, got %+v", first)
	}
	out := s.Preview("toolu_edit", "Edit", json.RawMessage(editInput), "")
	if len(out) != 1 || out[0].SessionUpdate != kindToolCallUpdate {
		t.Fatalf("want one tool_call_update, got %+v", out)
	}
	if got, want := contentJSON(t, out[0].Content), compactJSON(t, editPatchV2); got != want {
		t.Errorf("preview content\n got %s\nwant %s", got, want)
	}
	if !s.tracker.calls["toolu_edit"].pinned {
		t.Error("the preview is not pinned")
	}
	if again := s.Preview("toolu_edit", "Edit", json.RawMessage(editInput), ""); len(again) != 0 {
		t.Errorf("the same preview again sends %+v", again)
	}
}

// Before the stream shows the tool call, the preview emits it with the
// patch; the streamed tool_use then only refines it.
func TestV2PreviewEmitsAToolCallNotSeenYet(t *testing.T) {
	s := previewSession(caps.Client{V2: true})
	out := s.Preview("toolu_edit", "Edit", json.RawMessage(editInput), "toolu_agent")
	if len(out) != 1 || out[0].SessionUpdate != kindToolCall || out[0].Status != "pending" {
		t.Fatalf("want the pending tool_call, got %+v", out)
	}
	if got, want := contentJSON(t, out[0].Content), compactJSON(t, editPatchV2); got != want {
		t.Errorf("tool call content\n got %s\nwant %s", got, want)
	}
	if out[0].Meta == nil || out[0].Meta.ClaudeCode.ParentToolUseID != "toolu_agent" {
		t.Errorf("the tool call is not attributed to its subagent: %+v", out[0].Meta)
	}
}

// No preview for a v1 client (also one that takes AIR diff patches in the
// approval), another tool, a file that cannot be read (not taken for an
// empty one), nor an Edit whose old_string the file does not hold.
func TestV2PreviewLeftOut(t *testing.T) {
	for _, c := range []struct {
		name, tool, input string
		client            caps.Client
	}{
		{"v1 client", "Edit", editInput, caps.Client{}},
		{"v1 diffPatch client", "Edit", editInput, caps.Client{AIR: caps.AIR{Client: true, Capabilities: []string{caps.DiffPatch}}}},
		{"not Edit or Write", "MultiEdit", editInput, caps.Client{V2: true}},
		{"unreadable file", "Edit", `{"file_path":"/p/locked.ts","old_string":"","new_string":"b"}`, caps.Client{V2: true}},
		{"no match", "Edit", `{"file_path":"/p/src/app.ts","old_string":"nope","new_string":"b"}`, caps.Client{V2: true}},
	} {
		s := previewSession(c.client)
		if out := s.Preview("toolu_1", c.tool, json.RawMessage(c.input), ""); len(out) != 0 {
			t.Errorf("%s: got %+v", c.name, out)
		}
	}
}

// The approval of a v2 client shows the same v2 diff, without a status
// (its subject updates a tool call that may run already); a created file
// is an add with the /dev/null side.
func TestV2PermissionToolCallCarriesThePatch(t *testing.T) {
	s := previewSession(caps.Client{V2: true})
	_, call := s.Permission(PermissionRequest{ToolUseID: "toolu_edit", ToolName: "Edit", Input: json.RawMessage(editInput)})
	if call.Status != "" {
		t.Errorf("status %q, want none", call.Status)
	}
	if got, want := contentJSON(t, call.Content), compactJSON(t, editPatchV2); got != want {
		t.Errorf("content\n got %s\nwant %s", got, want)
	}
	_, write := s.Permission(PermissionRequest{ToolUseID: "toolu_w", ToolName: "Write",
		Input: json.RawMessage(`{"file_path":"/p/hello.txt","content":"hello\nworld\n"}`)})
	want := `[{"changes":[{"fileType":"text","operation":"add","path":"/p/hello.txt"}],"patch":{"format":"git_patch",` +
		`"text":"diff --git /p/hello.txt /p/hello.txt\nnew file mode 100644\n--- /dev/null\n+++ /p/hello.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n"},"type":"diff"}]`
	if got := contentJSON(t, write.Content); got != compactJSON(t, want) {
		t.Errorf("write content\n got %s\nwant %s", got, want)
	}
}

// The final change of a v2 Edit whose file cannot be read again falls
// back to the structuredPatch hunks as a v2 patch.
func TestV2FinalChangeFallsBackToTheStructuredPatch(t *testing.T) {
	resp := json.RawMessage(`{"filePath":"/p/gone.ts","oldString":"a","newString":"b","originalFile":"a\n",` +
		`"structuredPatch":[{"oldStart":1,"oldLines":1,"newStart":1,"newLines":1,"lines":["-a","+b"]}]}`)
	f := previewDisk().v2FinalChange(resp)
	want := `[{"changes":[{"fileType":"text","operation":"modify","path":"/p/gone.ts"}],"patch":{"format":"git_patch",` +
		`"text":"diff --git /p/gone.ts /p/gone.ts\n--- /p/gone.ts\n+++ /p/gone.ts\n@@ -1 +1 @@\n-a\n+b\n"},"type":"diff"}]`
	if got := contentJSON(t, f.Content); got != compactJSON(t, want) {
		t.Errorf("final change\n got %s\nwant %s", got, want)
	}
	if f.Locations == nil || len(*f.Locations) != 1 || (*f.Locations)[0].Line == nil || *(*f.Locations)[0].Line != 1 {
		t.Errorf("locations %+v", f.Locations)
	}
}
