// Package claude drives the Claude Code CLI for `airwire agent`: one CLI
// process per live ACP session, spoken to exactly as the reference's Agent
// SDK (@anthropic-ai/claude-agent-sdk 0.3.318, under
// @agentclientprotocol/claude-agent-acp 0.101.0) speaks to it (research:
// claude-cli-protocol.md §1–§5).
//
// It owns:
//
//   - finding the CLI (executable.go, over internal/clisearch, which the
//     recording proxy shares): --claude-path, CLAUDE_CODE_EXECUTABLE,
//     `claude` on PATH (with PATHEXT on Windows), then where Claude Code's
//     installers put it; a relative path is taken from the directory the
//     agent started in, and the search is a function of the platform,
//     home, environment and a stat func, so every platform's is tested;
//   - its command line and environment (spawn.go, mcp.go, env.go), and the
//     options the reference picks for a session (reference.go), checked
//     against every `cli:N spawn` line of the goldens;
//   - the CLI versions it supports and the Agent SDK version that goes
//     with each (version.go);
//   - the frames written to its stdin (requests.go, control.go): user
//     messages, the initialize request with its numbered hooks, and the
//     other control requests and responses, as typed values;
//   - the lines read from its stdout (frame.go, stream_decode.go), each
//     decoded once into a Frame with everything the agent reads of it, the
//     line kept raw (stream events of text and thinking on a fast path);
//   - the control channel and the process (process.go): an internal/jsonrpc
//     Conn with the StreamJSON codec pairs our control requests with the
//     CLI's responses by request_id and hands the CLI's requests to a
//     Handler; every CLI request gets a reply (an unknown subtype gets the
//     SDK's "Unsupported control request subtype" error), except the
//     remote_* subtypes the SDK leaves unanswered on purpose;
//   - the lifecycle: the CLI runs in its own process group (Windows: a Job
//     Object that ends with the agent; see internal/procgroup), its stderr
//     goes to a logger (never to the agent's stdout), a stdout line that is
//     not JSON is logged and skipped, Close closes its stdin, sends SIGTERM
//     (Windows: CTRL_BREAK_EVENT) to the group, kills the group after the
//     grace and always reaps the CLI, and the end of the process reaches the
//     Handler once (HandleExit) after its last line, as an *ExitError in the
//     SDK's words when it exited badly.
//
// Use (the session layer):
//
//	path, err := claude.ResolveExecutable(claude.Locator{Flag: claudePathFlag})
//	opts, err := claude.ReferenceOptions(claude.SessionStart{SessionID: id, PermissionMode: "auto", …})
//	p, err := claude.Start(claude.Config{Path: path, Args: claude.Args(opts),
//		Env: claude.Env(os.Environ(), claude.EnvOptions{…}), Dir: cwd, Handler: h, Log: log})
//	init := claude.Initialize{Hooks: …, PromptSuggestions: &yes, ForwardSubagentText: &no, …}
//	sp, err := claude.ReferenceSystemPrompt(meta, params.SystemPrompt, customInstructions)
//	sp.Apply(&init)
//	res, err := p.Initialize(ctx, init)             // first frame; numbers the hooks
//	err = p.Request(ctx, claude.GetSettings{}, &settings)
//	err = p.Send(claude.NewUserInput(id, contentBlocks))
//	…                                                // h gets HandleMessage / HandleControl (answer with reply)
//	p.Close()                                        // SIGTERM, SIGKILL after the grace, reaped; h.HandleExit(ErrClosed)
//
// It must never decide ACP behaviour: what a turn, a permission or a hook
// means for the editor belongs to the session layer above it.
package claude
