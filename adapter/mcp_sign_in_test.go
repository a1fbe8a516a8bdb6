package adapter

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// signInSession opens a session with one editor MCP server, gh, that Claude
// Code reports needs a sign-in, for a client that declares caps.
func signInSession(t *testing.T, caps string) (e *editor, signedIn, cliLog string) {
	return signInSessionOf(t, "ok", caps)
}

// signInSessionOf is signInSession with a test CLI of mode.
func signInSessionOf(t *testing.T, mode, caps string) (e *editor, signedIn, cliLog string) {
	t.Helper()
	dir := t.TempDir()
	signedIn, cliLog = dir+"/signed-in", dir+"/cli.log"
	t.Setenv("ADAPTER_TEST_MCP_AUTH", signedIn)
	t.Setenv("ADAPTER_TEST_CLI_LOG", cliLog)
	e = startAgent(t, mode)
	e.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":` + caps + `}}`)
	e.reply(0)
	e.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + t.TempDir() + `","mcpServers":[{"name":"gh","command":"gh-mcp","args":[],"env":[]}]}}`)
	e.reply(1)
	return e, signedIn, cliLog
}

// next waits for the agent's next message whose method is method.
func (e *editor) next(method string) map[string]any {
	e.t.Helper()
	return e.await(method, func(m map[string]any) bool { return m["method"] == method }, func(map[string]any) {})
}

// For a client with URL elicitation, an editor's server that needs OAuth is
// signed in after the setup answer: Claude Code's authorization URL goes
// out as a URL elicitation, and once the user accepted and the server
// connected, the elicitation is reported complete. A server of the user's
// own settings (mine) is not the editor's to sign in.
func TestEditorMCPServerSignIn(t *testing.T) {
	e, signedIn, cliLog := signInSession(t, `{"elicitation":{"url":{}}}`)
	ask := e.next("elicitation/create")
	p, _ := ask["params"].(map[string]any)
	id, _ := p["elicitationId"].(string)
	if p["mode"] != "url" || p["url"] != "https://auth.example/gh" || p["message"] != "Authenticate with MCP server gh" || !strings.HasPrefix(id, "mcp-oauth-") {
		t.Fatalf("elicitation/create = %v", ask)
	}
	if err := os.WriteFile(signedIn, []byte("done"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":{"action":"accept"}}`, ask["id"]))
	done := e.next("elicitation/complete")
	if q, _ := done["params"].(map[string]any); q["elicitationId"] != id {
		t.Fatalf("elicitation/complete = %v, want the id %s", done, id)
	}
	log, _ := os.ReadFile(cliLog)
	if n := strings.Count(string(log), "control_request mcp_authenticate"); n != 1 {
		t.Errorf("mcp_authenticate sent %d times (want 1, for gh):\n%s", n, log)
	}
}

// A client without URL elicitation gets no sign-in, and Claude Code is not
// asked for the servers' states.
func TestNoSignInWithoutURLElicitation(t *testing.T) {
	e, _, cliLog := signInSession(t, `{"elicitation":{"form":{}}}`)
	e.send(`{"jsonrpc":"2.0","id":2,"method":"session/list","params":{}}`)
	e.replyAfter(2, func(m map[string]any) {
		if m["method"] == "elicitation/create" {
			t.Errorf("asked %v", m)
		}
	})
	time.Sleep(200 * time.Millisecond)
	if log, _ := os.ReadFile(cliLog); strings.Contains(string(log), "mcp_") {
		t.Errorf("Claude Code was asked for the servers' states:\n%s", log)
	}
}

// `/mcp reconnect gh` replaces Claude Code's refusal with the agent's own
// reconnect and list, shown once (the result repeats the text), and signs
// the reconnected editor server in again once the turn ended.
func TestMCPReconnectShowsTheListAndSignsInAgain(t *testing.T) {
	e, _, cliLog := signInSessionOf(t, "local-command", `{"elicitation":{"url":{}}}`)
	first := e.next("elicitation/create")
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":{"action":"decline"}}`, first["id"]))
	time.Sleep(100 * time.Millisecond) // the declined sign-in ends
	sid := first["params"].(map[string]any)["sessionId"].(string)
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"/mcp reconnect gh"}]}}`, sid))
	var chunks []string
	e.replyAfter(2, func(m map[string]any) {
		if p, _ := m["params"].(map[string]any); m["method"] == "session/update" {
			if u, _ := p["update"].(map[string]any); u["sessionUpdate"] == "agent_message_chunk" {
				chunks = append(chunks, u["content"].(map[string]any)["text"].(string))
			}
		}
	})
	want := "- Reconnected `gh`\n\n**MCP servers:** 2 (2 need authentication)\n\n**Needs authentication**\n- `gh`\n- `mine`\n\n" +
		"Run `/mcp reconnect <server>` to reconnect one server, or `/mcp reconnect` to reconnect every server that is not connected and not disabled."
	if len(chunks) != 1 || chunks[0] != want {
		t.Fatalf("the turn showed %q, want only\n%s", chunks, want)
	}
	again := e.next("elicitation/create")
	if again["params"].(map[string]any)["url"] != "https://auth.example/gh" {
		t.Fatalf("after the reconnect: %v", again)
	}
	log, _ := os.ReadFile(cliLog)
	if n := strings.Count(string(log), "control_request mcp_reconnect"); n != 1 {
		t.Errorf("mcp_reconnect sent %d times:\n%s", n, log)
	}
}
