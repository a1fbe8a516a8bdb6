// Package mcpservers is what the agent does with the MCP servers of a
// session beyond starting them, as the reference adapter does it (the
// contract is silent on both):
//
//   - the `/mcp` slash command (command.go, format.go): Claude Code answers
//     it itself with a one-line summary and refuses a reconnect, an enable
//     or a disable in SDK mode; the agent replaces that text with a list of
//     the servers by status, and runs each action through the control API
//     (`mcp_reconnect`, `mcp_toggle`) before it lists the servers again;
//   - the sign-in of an editor's MCP server that needs OAuth (signin.go):
//     for a client that takes URL elicitations, the servers of the
//     session's params.mcpServers that Claude Code reports `needs-auth` are
//     signed in through `mcp_authenticate` and a URL elicitation, and the
//     elicitation is reported complete once the server connects.
//
// The package speaks to Claude Code through Control, one session's CLI.
package mcpservers
