// Package fakecli is a scripted stand-in for the Claude Code CLI, run as a
// real process (airwire fake-cli) through CLAUDE_CODE_EXECUTABLE.
//
// It speaks the CLI's stream-json protocol on stdin/stdout: the control
// protocol (initialize with hook registration, interrupt, set_permission_mode,
// set_model, get_settings, apply_flag_settings, get_context_usage,
// mcp_status, rewind_files, rename_session, stop_task, and the error reply
// "Unsupported control request subtype: X" for anything else), user messages
// (echoed back with --replay-user-messages, as are the host's
// control_responses), session_state_changed events, and turns played from a
// scenario script (internal/scenario): stream events, assistant and user
// frames, system messages, results, and CLI → host requests (can_use_tool,
// hook_callback for the hook ids the host registered, elicitation) that it
// waits on. It writes the session transcript under
// $CLAUDE_CONFIG_DIR/projects/<encoded cwd>/<session id>.jsonl as the CLI
// does, so the host's load, list and fork work on it.
//
// Environment:
//
//	AIRWIRE_FAKE_CLI_SCRIPT  the cli section of a scenario (JSON or YAML); unset
//	                         means an idle CLI that answers every prompt with a
//	                         short text
//	AIRWIRE_FAKE_CLI_LOG     a JSONL file that gets one line per process start,
//	                         frame read, frame written and exit (appended, so
//	                         several processes can share it)
//	AIRWIRE_FAKE_CLI_SKIP_HOOKS  hook events never called back (comma list),
//	                         for mutation checks
//
// It exits 0 on stdin EOF and on SIGTERM. It never opens a socket and never
// reaches the network. Everything it makes up (ids, timestamps, pid) is
// deterministic, so a golden can hold the adapter → CLI lane verbatim.
//
// Observed behaviour it copies is documented in
// research/claude-cli-protocol.md and research/peer-adapter.md (§4, §6).
package fakecli
