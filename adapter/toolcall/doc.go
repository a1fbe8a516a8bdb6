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
// approved_plan.go: for a client that declares the draft `plan`
// capability, the plan an ExitPlanMode result approved follows the call's
// result as a markdown `plan_update` (Renderer.ApprovedPlan, which the
// history replay calls too; PlanModeUpdate, which a clear-context restart
// sends).
//
// AIR (issue 9) slots in by files named after the contract sections,
// each choice reading caps.Client.AIR:
//
//   - air_tool_call_contract.go ("Tool call contract", "Claude tools and
//     ACP fields"): rawInput only once complete and without the file text
//     of an Edit or a Write; commandTitle, subagent, skill and
//     is_mcp_tool_call; no display copy with rawInputRendering; the result
//     rules (rawOutput only when no other field carries the result, viewed
//     files, terminal_output_delta, exit numbers); the trimmed permission
//     tool call; only the status/isAsync markers of a PostToolUse
//     toolResponse;
//   - meta_filter.go: the `_meta`-key field tracker of an AIR client;
//   - diff_patch.go, diff_lines.go, diff_patch_claude.go ("Diff patch"):
//     exact Git patches, the approval preview and the final patch from
//     originalFile against disk, with every fallback to the standard diff;
//   - plan_file.go ("Plan file"), skill_path.go (the skill's SKILL.md).
//
// Files are read only through a Disk (Session.UseDisk; OSDisk for the
// process): without one the package reads nothing and takes the
// fallbacks. It sends nothing. It does not decide whether a frame belongs
// to a cancelled turn, nor route subagent updates to child sessions; the
// turn loop does. AIR gets no `jetbrains.air.mcp` (goldens/DEVIATIONS.md
// entry 12) and no blank plan file path (contract: "Plan file").
package toolcall
