// Package permission turns the Claude CLI's permission and question control
// requests into ACP requests to the editor, and the editor's answers into
// the control_response the CLI gets, as the reference adapter
// (claude-agent-acp 0.101.0, with the Claude Agent SDK in between) does.
//
// It implements the contract sections "Permission presentation" (Request
// lifecycle, Request, Tool call of the request, Options, Durable SDK
// suggestions, Choices per tool, Permission modes, Cancellation and
// failures) and "Question custom answers".
//
// The package is pure: it does no I/O and holds no session state. The
// caller owns the request ids, the sending, the cancellation signal, the
// tool call announcement (the tool_call goes out before the prompt: Request
// lifecycle, step 2) and the session mode. The flow for a can_use_tool
// control request:
//
//	req, _ := permission.ParseRequest(frame.Request)
//	prompt, now := permission.Ask(req, toolCall, session) // toolCall from adapter/toolcall
//	if now != nil { send(now.ControlResponse(requestID)); return }
//	// send prompt.Method with prompt.Params to the editor, then one of:
//	d := prompt.Answer(result) // the editor's JSON-RPC result
//	d := prompt.Fail(msg)      // the editor answered with an error
//	d := prompt.Aborted()      // control_cancel_request, session closed, turn cancelled
//	send(d.ControlResponse(requestID))
//	// then act on d.Mode, d.ClearContextMode (with d.Plan), d.AutoFallback, d.Interrupt
//
// An MCP `elicitation` control request goes the same way through
// ParseMCPElicitation and AskMCP, and a `request_user_dialog` (the
// refusal-fallback consent, DialogRefusalFallback) through ParseUserDialog
// and AskDialog. DisallowedTools gives the tools the CLI
// must disable for an editor without form elicitation.
//
// The package never renders the tool call itself: adapter/toolcall does.
// It adds to that tool call only what the permission presentation owns (the
// Sandbox Network and Computer Use titles, the blocked path location, the
// JSON code block of an input without content, `_meta.claudeCode` with
// mcpServer and the subagent parent).
package permission
