// Package adapter is `airwire agent`: an ACP agent for Claude Code that an
// editor (a plain ACP client, Zed, JetBrains AIR) cannot tell apart on the
// wire from the reference adapter `@agentclientprotocol/claude-agent-acp`.
//
// Layout (issue 8 "Shape"; contract "Adapter structure"):
//
//   - agent.go: the ACP side, one Agent per editor connection: the method
//     table on an internal/jsonrpc Conn, and the sessions it owns;
//     methods.go initialize, session/new, cancel, close;
//     stored.go load, resume, fork, list, delete; auth.go authenticate and
//     logout; initialize.go the initialize result and the auth probe;
//   - session.go: one Session per live ACP session: its Claude CLI
//     (adapter/claude; the Session is the CLI's claude.Handler) and its turn
//     state (idle, running with queued prompts, a cancelled turn; turn.go
//     the turn of one session/prompt);
//     start.go the CLI start and handshake;
//   - translator.go: the translator from the CLI's lines to ACP updates
//     (message and thought chunks, the streamed-tail rule, notices,
//     commands; tool calls through adapter/toolcall; usage through
//     adapter/usage) and the end of a turn (failure.go: a failed turn's
//     error); prompt.go: the session/prompt handler and the ACP prompt as
//     the CLI's user message; compaction.go (frames in compactionframes.go,
//     summary text in compactsummary.go): context compaction;
//     localcommand.go: local command output and result-only turns;
//     memory.go: memory recalls; modelfallback.go: a refusal
//     fallback's notice and model switch;
//   - background_tasks.go: Claude Code's background tasks (task_started to
//     task_notification), the terminal of a command that went to the
//     background (its terminal_exit waits for the task's end);
//     subagent_hold.go: a turn's answer held while its background
//     subagents run; cancel_state.go: what a cancel drops of tool calls;
//   - async_tasks.go (events, frames, output, stop): contract "Async
//     tasks" for an AIR client that declared asyncTasks;
//     native_subagent_sessions.go: contract "Native subagent sessions",
//     so far only the CLI initialize (the subagent hooks, forwarded text);
//   - ask.go: permission requests and questions (adapter/permission);
//     network_access.go: a Sandbox Network request's call settled;
//     config.go: set_mode and set_config_option (adapter/sessionconfig);
//     titles.go: session titles (at the prompt, else at the turn's end);
//   - AIR extensions, one file per contract section: session_failure.go
//     (typed failure records, adapter/sessionfailure), goal.go (the
//     `_session/goal` control method, the goal snapshot, the steering lane
//     that injects /goal into a running turn), session_hooks.go (settings
//     and hooks of `_meta.claudeCode.options.settings` as the session's
//     flag settings), agent_file_change_report.go (the prompt's
//     report request, file checkpointing, the dry-run rewind at the turn's
//     end and the report before its response); recommended config values
//     live in adapter/sessionconfig.
//
// Every choice that depends on the client reads the one caps.Client built
// at initialize. The shapes of results and updates live in their own
// packages, so each AIR extension adds files there rather than branches
// here.
package adapter
