package adapter

import "github.com/airwire/airwire/adapter/permission"

// networkSettler returns what settles the tool call of a Sandbox Network
// request once the editor answered it: the request only asks and runs
// nothing, so no tool_result ever ends its call, which the permission
// request showed (contract "Permission presentation"). It is nil for any
// other request.
func (t *translator) networkSettler(req permission.Request) func(permission.Decision) {
	if req.ToolName != "SandboxNetworkAccess" {
		return nil
	}
	return func(dec permission.Decision) {
		if dec.Error != "" {
			return
		}
		status := "failed"
		if dec.Allow {
			status = "completed"
		}
		t.mu.Lock()
		defer t.mu.Unlock()
		t.s.notify(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": req.ToolUseID, "status": status})
	}
}
