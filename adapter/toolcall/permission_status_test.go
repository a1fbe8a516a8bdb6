package toolcall

import (
	"encoding/json"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
)

// TestPermissionToolCallStatusByVersion: a v1 request's tool call is
// pending; a v2 request's subject carries no status, since the tool call it
// updates may already run.
func TestPermissionToolCallStatusByVersion(t *testing.T) {
	input := json.RawMessage(`{"command":"rm -rf tmp"}`)
	use := ToolUse{ID: "toolu_rm", Name: "Bash", Input: input}
	req := PermissionRequest{ToolUseID: "toolu_rm", ToolName: "Bash", Input: input}
	v1 := caps.Parse(json.RawMessage(`{}`))
	v2 := v1
	v2.V2 = true
	for _, tt := range []struct {
		c    caps.Client
		want string
	}{{v1, "pending"}, {v2, ""}} {
		call := Renderer{Caps: tt.c, Cwd: "/w", Disk: &Disk{}}.PermissionToolCall(use, req)
		if call.Status != tt.want {
			t.Errorf("v2=%v: status %q, want %q", tt.c.V2, call.Status, tt.want)
		}
	}
}
