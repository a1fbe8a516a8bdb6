package adapter

import (
	"testing"
)

// Contract "Rename": a live session whose CLI has no rename_session is
// refused with -32600 (its CLI would write its own title back); the same
// rename through a CLI that has it succeeds. Pinned on the wire, as a
// declared deviation, by the session-rename-unsupported scenario.
func TestRenameOfALiveSessionWithoutRenameSession(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	for mode, want := range map[string]float64{"no-rename": -32600, "interruptible": 0} {
		e := startAgent(t, mode)
		e.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"_meta":{"jetbrains":{"air":{"version":1,"capabilities":["sessionIndex"]}}}}}}`)
		e.reply(0)
		e.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + canonicalTemp(t) + `","mcpServers":[]}}`)
		res, _ := e.reply(1)["result"].(map[string]any)
		sid, _ := res["sessionId"].(string)
		if sid == "" {
			t.Fatalf("%s: session/new failed", mode)
		}
		e.send(`{"jsonrpc":"2.0","id":2,"method":"_session/rename","params":{"sessionId":"` + sid + `","title":"Greeting"}}`)
		resp := e.reply(2)
		errObj, _ := resp["error"].(map[string]any)
		code, _ := errObj["code"].(float64)
		if code != want {
			t.Errorf("%s: rename answered %v, want code %v", mode, resp, want)
		}
	}
}
