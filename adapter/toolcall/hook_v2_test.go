package toolcall

import (
	"encoding/json"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
)

// A PostToolUse report gives a plain client the whole tool_response, and an
// ACP v2 client, which stores `_meta` as AIR does, only its markers.
func TestHookResultToolResponse(t *testing.T) {
	use := ToolUse{ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)}
	resp := json.RawMessage(`{"stdout":"a\n","stderr":"","status":"ok"}`)
	for _, c := range []struct {
		v2   bool
		want string
	}{{false, string(resp)}, {true, `{"status":"ok"}`}} {
		u := Renderer{Caps: caps.Client{V2: c.v2}, Cwd: "/p"}.HookResult(use, resp)
		if got := string(u.Meta.ClaudeCode.ToolResponse); got != c.want {
			t.Errorf("v2 %v: toolResponse %s, want %s", c.v2, got, c.want)
		}
	}
}
