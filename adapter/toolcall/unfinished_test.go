package toolcall

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
)

// TestUnfinished: a tool call the client holds open when its session
// closes is reported failed with the cancelled text; a command's display
// terminal ends with an unknown exit (null), AIR's with 1; a client
// without a terminal channel gets no terminal key. The call is forgotten.
func TestUnfinished(t *testing.T) {
	bash := json.RawMessage(`{"type":"assistant","message":{"role":"assistant","content":[` +
		`{"type":"tool_use","id":"toolu_rm","name":"Bash","input":{"command":"rm -rf tmp","description":"Delete"}}]}}`)
	for _, tt := range []struct {
		name, caps, exit string
	}{
		{"plain", `{}`, ""},
		{"zed", `{"_meta":{"terminal_output":true}}`, `"terminal_exit":{"terminal_id":"toolu_rm","exit_code":null,"signal":null}`},
		{"air", `{"_meta":{"terminal_output":true,"jetbrains":{"air":{"version":1,"capabilities":[]}}}}`,
			`"terminal_exit":{"terminal_id":"toolu_rm","exit_code":1,"signal":null}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := NewSession(caps.Parse(json.RawMessage(tt.caps)), "/w")
			if len(s.Frame(bash)) == 0 {
				t.Fatal("the tool call was not reported")
			}
			got := s.Unfinished()
			if len(got) != 1 {
				t.Fatalf("%d updates, want 1: %s", len(got), encodeAll(got))
			}
			text := encodeAll(got)
			for _, want := range []string{`"toolCallId":"toolu_rm"`, `"status":"failed"`, unfinishedText} {
				if !strings.Contains(text, want) {
					t.Errorf("missing %s in %s", want, text)
				}
			}
			if tt.exit == "" && strings.Contains(text, "terminal_exit") || tt.exit != "" && !strings.Contains(text, tt.exit) {
				t.Errorf("terminal exit: want %q in %s", tt.exit, text)
			}
			if again := s.Unfinished(); len(again) != 0 {
				t.Errorf("a closed call is reported again: %s", encodeAll(again))
			}
		})
	}
}

func encodeAll(us []Update) string {
	b, _ := json.Marshal(us)
	return string(b)
}
