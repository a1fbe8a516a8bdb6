// Package fakecli is a scripted stand-in for the Claude Code CLI, run as a
// real process (airwire fake-cli) through CLAUDE_CODE_EXECUTABLE.
//
// It speaks the CLI's stream-json protocol on stdin and stdout:
//
//   - argv like the real CLI (argv.go), --version, and `auth status --json`
//     (logged in with ANTHROPIC_API_KEY, as the reference runs it);
//   - the host → CLI control requests (control.go): initialize with hook
//     registration and a realistic response, interrupt, set_permission_mode,
//     set_model, set_max_thinking_tokens, get_settings, apply_flag_settings,
//     get_context_usage, mcp_status, list_models, rewind_files,
//     rename_session, generate_session_title and stop_task, and the CLI's
//     error reply "Unsupported control request subtype: X" for anything
//     else; a script can override any of them; an applied fastMode makes
//     system/init and results report fast_mode_state "on", as the real
//     CLI's do;
//   - user messages: each one plays one scripted turn (turn.go) framed as the
//     CLI frames it (session_state_changed running, system/init, status,
//     the echo under --replay-user-messages, ..., result, idle). A turn
//     emits stream events, assistant and user frames, system messages and
//     results, and sends CLI → host requests it waits on: can_use_tool,
//     hook_callback for the callbacks the host registered whose matcher
//     accepts the tool, elicitation. An interrupt aborts the running turn
//     (withdrawing a pending request with control_cancel_request) and ends it
//     the way the CLI does; prompts that arrive during a turn are queued;
//   - the session transcript (transcript.go) under
//     $CLAUDE_CONFIG_DIR/projects/<encoded cwd>/<session id>.jsonl, written
//     as the CLI writes it, so the host's load, list and fork work on it.
//
// Environment:
//
//	AIRWIRE_FAKE_CLI_SCRIPT      the cli section of a scenario (JSON or YAML);
//	                             unset means an idle CLI that answers every
//	                             prompt with a short text
//	AIRWIRE_FAKE_CLI_LOG         a JSONL file that gets one line per process
//	                             start, frame read, frame written and exit
//	                             (appended, so several processes share it)
//	AIRWIRE_FAKE_CLI_SKIP_HOOKS  hook events never called back (comma list),
//	                             for mutation checks
//
// It exits 0 on stdin EOF and on SIGTERM. It never opens a socket and never
// reaches the network. What it makes up (ids, timestamps, pid) is
// deterministic, so a golden can hold the adapter → CLI lane.
//
// The behaviour it copies is documented in research/claude-cli-protocol.md
// and research/peer-adapter.md (§4, §6) of the shared workspace.
package fakecli
