// Package adapter is `airwire agent`: an ACP agent for Claude Code that an
// editor (a plain ACP client, Zed, JetBrains AIR) cannot tell apart on the
// wire from the reference adapter `@agentclientprotocol/claude-agent-acp`.
//
// Layout (issue 8 "Shape"; contract "Adapter structure"):
//
//   - agent.go: the ACP side, one Agent per editor connection: the method
//     table, initialize (which builds the one caps.Client every choice
//     reads), and the sessions it owns;
//   - session.go: one Session per live ACP session: its Claude CLI process
//     and its state machine (idle, running, queued prompts, cancelling);
//   - turn.go: what a turn turns the CLI's messages into (message and
//     thought chunks; tool calls through adapter/toolcall; usage through
//     adapter/usage);
//   - process.go: the CLI process and its control channel (an
//     internal/jsonrpc Conn with the stream-json codec).
//
// The shapes of results and updates live in their own packages
// (adapter/agentinfo, adapter/sessionconfig, adapter/usage,
// adapter/toolcall, adapter/permission), so each AIR extension adds files
// there rather than branches here.
package adapter
