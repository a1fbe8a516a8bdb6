package scenario

import (
	"encoding/json"
	"testing"
)

// TestExpandEscapesIntoStreamedToolInput: a tool input the fake CLI
// streams is JSON text in partial_json; a Windows path put there keeps its
// backslashes escaped (the adapter parses the fragments as they come),
// while any other string gets the path as it is.
func TestExpandEscapesIntoStreamedToolInput(t *testing.T) {
	frame := map[string]any{"cwd": "{{cwd}}", "delta": map[string]any{"type": "input_json_delta", "partial_json": `"file_path":"{{cwd}}/a<b>.txt"`}}
	got := Expand(frame, map[string]string{VarCwd: `C:\u\work`}).(map[string]any)
	if got["cwd"] != `C:\u\work` {
		t.Errorf("cwd = %q", got["cwd"])
	}
	fragment := got["delta"].(map[string]any)["partial_json"].(string)
	var input struct {
		FilePath string `json:"file_path"`
	}
	if err := json.Unmarshal([]byte("{"+fragment+"}"), &input); err != nil || input.FilePath != `C:\u\work/a<b>.txt` {
		t.Errorf("fragment %q: %v, file_path %q", fragment, err, input.FilePath)
	}
	if fragment != `"file_path":"C:\\u\\work/a<b>.txt"` {
		t.Errorf("fragment %q, want the value escaped as JSON writes it, <> as they are", fragment)
	}
}
