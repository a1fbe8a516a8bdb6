package notices

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/claude"
)

// initServers decodes a CLI init line's mcp_servers.
func initServers(t *testing.T, servers string) []claude.MCPServerStatus {
	t.Helper()
	m, err := claude.DecodeFrame([]byte(`{"type":"system","subtype":"init","session_id":"s","mcp_servers":` + servers + `}`))
	if err != nil {
		t.Fatal(err)
	}
	return m.MCPServers
}

// mcpRun gives init lines to one session's MCPServers and returns the
// updates as JSON.
func mcpRun(t *testing.T, notices, signIn bool, given string, lines ...string) string {
	t.Helper()
	var m MCPServers
	var b strings.Builder
	for _, l := range lines {
		for _, u := range m.Updates(json.RawMessage(given), initServers(t, l), notices, signIn) {
			j, _ := json.Marshal(u)
			b.Write(j)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// The editor's failed server is said once, in the form the editor can
// show; a server from the user's settings, a connected one and one still
// pending are not the editor's to hear about.
func TestMCPServerStatusOncePerServer(t *testing.T) {
	given := `[{"name":"broken","command":"x"},{"name":"fine","command":"y"},{"name":"slow","command":"z"}]`
	first := `[{"name":"broken","status":"failed"},{"name":"fine","status":"connected"},{"name":"slow","status":"pending"},{"name":"mine","status":"failed"}]`
	again := `[{"name":"broken","status":"failed"}]`

	line := mcpRun(t, false, false, given, first, again)
	if n := strings.Count(line, `failed to start`); n != 1 {
		t.Fatalf("transcript lines for the failed server: %d, want 1:\n%s", n, line)
	}
	for _, want := range []string{`"kind":"mcpServerStatus"`, `"server":"broken"`, `"status":"failed"`, `**MCP server \"broken\" failed to start:** Its tools`, `"sessionUpdate":"agent_message_chunk"`} {
		if !strings.Contains(line, want) {
			t.Errorf("transcript line lacks %s:\n%s", want, line)
		}
	}
	if strings.Contains(line, "mine") || strings.Contains(line, `"fine"`) || strings.Contains(line, "slow") {
		t.Errorf("reported a server that is not the editor's or not unavailable:\n%s", line)
	}

	notice := mcpRun(t, true, false, given, first, again)
	if strings.Count(notice, `"sessionUpdate":"notice"`) != 1 || strings.Contains(notice, "agent_message_chunk") || strings.Contains(notice, "mcpServerStatus") {
		t.Errorf("an editor with notices got:\n%s", notice)
	}
}

// A server that waits for a login is an info notice, unless the agent
// signs it in (the editor takes URL elicitations); a failed one is said
// either way.
func TestMCPServerNeedsAuth(t *testing.T) {
	given := `[{"name":"gh","type":"http","url":"u"},{"name":"broken","command":"x"}]`
	init := `[{"name":"gh","status":"needs-auth"},{"name":"broken","status":"failed"}]`
	out := mcpRun(t, true, false, given, init)
	if !strings.Contains(out, `"severity":"info"`) || !strings.Contains(out, `needs authentication`) {
		t.Errorf("needs-auth gave:\n%s", out)
	}
	out = mcpRun(t, true, true, given, init)
	if strings.Contains(out, `needs authentication`) || !strings.Contains(out, `failed to start`) {
		t.Errorf("with a sign-in, the init gave:\n%s", out)
	}
}
