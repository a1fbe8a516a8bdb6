// Package adapter is `airwire agent`: an ACP agent for Claude Code that an
// editor (a plain ACP client, Zed, JetBrains AIR) cannot tell apart on the
// wire from the reference adapter `@agentclientprotocol/claude-agent-acp`.
//
// An Agent serves one editor connection; a Session is one live ACP session
// and its Claude CLI (adapter/claude). The session holds its parts, each a
// type with its own state that reaches the session through a small
// interface it declares: the editor prompts (asks), the title (titles),
// config changes (configChanges), skill files (skills), the goal
// (goalState), file-change reports (fileChanges), the fork point's message
// rows (messageRows), an accepted plan reset (planResets) and what the
// session index reports of it (indexState). The agent's side of the
// session index is indexSide. The translator (translator.go) turns the CLI's
// lines into ACP updates. Every choice that depends on the client reads
// the one caps.Client built at initialize; the shapes of results and
// updates live in their own packages (toolcall, usage, permission,
// sessionconfig, sessionfailure, sessionindex, history, agentinfo,
// airmeta, notices). A turn and the session's foreground work are the
// agent's own (adapter/turns), which ACP v1 and the draft v2 each map; the
// v2 shapes live in adapter/acpv2.
//
// Layout: every non-test file of the package, one line each (contract
// "Adapter structure"; doc_test.go keeps this map and the files in step).
//
//   - acp_v2.go: the draft ACP v2 surface of a connection that negotiated it: its method table, each v1 method under the v2 mapping of its params and answer (adapter/acpv2), the v2 mapping of the turn and of the foreground work (adapter/turns), the updates and permission requests in v2's shape, and terminal/cancel and tool_call/cancel.
//   - agent.go: the Agent, its ACP method table and the JSON-RPC errors.
//   - agent_file_change_report.go: contract "Agent file-change report": the prompt's request, checkpointing, the dry-run rewind and the report.
//   - ask.go: permission requests, MCP elicitations and the CLI's dialogs put to the editor (asks); a Sandbox Network request's tool call settled.
//   - async_tasks.go: contract "Async tasks" (adapter/asynctasks) wired to the session: its host, the frames it reads, `_session/async_task/stop`.
//   - background_tasks.go: Claude Code's background tasks, a backgrounded command's terminal, its output (read from its output file, adapter/bgoutput, for a client that gets the v2 background lists) and its exit.
//   - chunks.go: the root conversation's text output (rootText): streamed text and thinking deltas, unstreamed tails, notices, local command output.
//   - clear_context.go: an ExitPlanMode answer that continues the plan in a fresh Claude context (planResets, the restart).
//   - compaction.go: contract "Context compaction" (adapter/compaction) wired to the translator; the swaps of a load's replay (failure records, compaction summaries).
//   - config.go: set_mode and set_config_option (configChanges, adapter/sessionconfig), and the skill files of the slash commands (skills).
//   - doc.go: this map.
//   - file_preview.go: the PreToolUse preview hook of an ACP v2 client (filePreview): an Edit's or a Write's exact patch before it runs.
//   - goal.go: contract "Goal": `_session/goal`, the goal snapshot (goalState) and the steering lane.
//   - initialize.go: the initialize result, the auth status probe, authenticate and logout.
//   - localcommand.go: local slash command output and result-only turns.
//   - memory.go: memory recalls as read tool calls.
//   - methods.go: initialize, session/new, cancel and close; a new Session's parts.
//   - modelfallback.go: a refusal fallback's notice, and the model switches the CLI makes by itself (a refusal fallback, a /model command).
//   - prompt.go: session/prompt: the prompt's blocks decoded once, checked, queued as a turn and sent as the CLI's user message.
//   - session.go: the Session, its turn queue, its CLI handler and what a cancel drops of tool calls.
//   - session_failure.go: contract "Session failure": typed failure records (adapter/sessionfailure).
//   - session_fork_point.go: contract "Session fork point": the fork point's row, a load or resume of a live session and its fingerprint.
//   - session_hooks.go: contract "Session hooks": `_meta.claudeCode.options.settings` as the flag settings.
//   - session_index.go: contract "Session index": the agent's side (indexSide), rename, archive, list subscription, and a session's row (indexState).
//   - session_info.go: a session's title (titles) and the prompt the CLI predicts next.
//   - start.go: the CLI start and handshake, the session's modes from its answers, the CLI's exit, the context windows results confirmed, and the CLI's version (logged, remembered per executable for CLAUDE_AGENT_SDK_VERSION, one notice per session for a CLI outside the supported range).
//   - stored.go: session/load, resume, fork, list and delete.
//   - subagents.go: contract "Native subagent sessions" (adapter/subagents): the session as the child session router's Host, the call sites that need the session, agent or translator, and a turn's answer held while its background subagents run.
//   - translator.go: the translator from the CLI's lines (each decoded once into a claude.Frame) to ACP updates, and the end of a turn.
//   - turn.go: the turn: one session/prompt, its insertion and its end reported through its events (adapter/turns), a failed turn's error shaped as the reference shapes it, and a model cycle Claude Code starts on its own as foreground work.
package adapter
