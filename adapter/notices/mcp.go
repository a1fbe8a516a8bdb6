package notices

import (
	"encoding/json"
	"slices"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/mcpservers"
)

// An MCP server the editor gave the session that Claude Code could not
// start (its init line says "failed") or that waits for a login the
// editor cannot run (no URL elicitation, so "needs-auth") is said once per
// session and server: a `notice` to an editor with session notices, else a
// bold-label transcript line whose _meta.claudeCode names the server and
// its status. A server from the user's own settings is not the editor's
// to hear about.

// MCPServers remembers the servers of one session said to be unavailable.
type MCPServers struct{ said map[string]bool }

// Updates are the session updates for the servers of an init line that
// are the editor's (given: the session's params.mcpServers), unavailable
// and not said before; notices: the editor presents session notices;
// signIn: the agent signs a `needs-auth` server in (the editor takes URL
// elicitations), so it is not said.
func (m *MCPServers) Updates(given json.RawMessage, servers []claude.MCPServerStatus, notices, signIn bool) []map[string]any {
	if len(servers) == 0 {
		return nil
	}
	names := mcpservers.Names(given)
	var out []map[string]any
	for _, srv := range servers {
		n, ok := mcpStatusNotice(srv)
		if !ok || (signIn && srv.Status == "needs-auth") || !slices.Contains(names, srv.Name) || m.said[srv.Name] {
			continue
		}
		if m.said == nil {
			m.said = map[string]bool{}
		}
		m.said[srv.Name] = true
		if notices {
			out = append(out, n.Update())
			continue
		}
		meta := map[string]any{"kind": "mcpServerStatus", "server": srv.Name, "status": srv.Status}
		out = append(out, n.Line(map[string]any{"claudeCode": meta}))
	}
	return out
}

// mcpStatusNotice is the notice of an unavailable server; false for a
// server that is available or on its way.
func mcpStatusNotice(srv claude.MCPServerStatus) (Notice, bool) {
	switch srv.Status {
	case "failed":
		return Notice{Severity: "warning", Title: `MCP server "` + srv.Name + `" failed to start`,
			Description: "Its tools are unavailable in this session. Run /mcp for the error."}, true
	case "needs-auth":
		return Notice{Severity: "info", Title: `MCP server "` + srv.Name + `" needs authentication`,
			Description: "Its tools are unavailable until the server is authenticated."}, true
	}
	return Notice{}, false
}
