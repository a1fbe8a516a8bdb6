// Package toolcall turns the Claude CLI's tool uses into ACP tool calls for
// a plain or a Zed client, wire-identical to the reference adapter
// (contract: "Tool call contract", "Adapter structure", "Claude tools and
// ACP fields", "Zed conventions", "Compatibility rule").
//
// The layout follows "Adapter structure":
//
//   - a reporter per Claude tool family (bash.go, read.go, write.go,
//     edit.go, notebook.go, search.go, web.go, agent.go, exitplan.go,
//     question.go, skill.go, plan.go, other.go) reads the Claude data once
//     and produces facts (UseFacts, ResultFacts); it knows no ACP field;
//   - one Renderer (render.go) turns facts into `tool_call` and
//     `tool_call_update` objects, reading the client's choices only from a
//     caps.Client;
//   - a Tracker (tracker.go) drops the top-level fields that an earlier
//     report of the same tool call already sent, and the updates with
//     nothing new; `_meta` stays whole.
//
// Session (session.go, result.go, stream.go, frame.go, permission.go) is
// the per-session state: the turn loop feeds it the CLI's stdout frames in
// arrival order (Frame, or StreamEvent, Assistant, User and PostToolUse
// one by one) and sends each returned Update as `session/update`
// params.update. Permission gives the `tool_call` to send before a
// `session/request_permission` and the request's `toolCall`.
//
// The package does no I/O: no file reads, no sends. It does not decide
// whether a frame belongs to a cancelled turn, nor route subagent updates
// to child sessions; the turn loop does. AIR-only choices (diffPatch,
// rawInputRendering, planFile, jetbrains.air keys) are not here yet: they
// go into the renderer and the reporters behind caps.Client.AIR.
package toolcall
