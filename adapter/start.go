package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"

	"github.com/airwire/airwire/adapter/sessionconfig"
	"github.com/airwire/airwire/adapter/usage"

	"github.com/airwire/airwire/internal/jsonrpc"
)

// errNoCLI names every place the agent looks for the Claude CLI.
var errNoCLI = errors.New("cannot find the Claude Code CLI: pass --claude-path, set CLAUDE_CODE_EXECUTABLE, or put `claude` on PATH")

// claudePath resolves the CLI: --claude-path, CLAUDE_CODE_EXECUTABLE, PATH.
func (a *Agent) claudePath() (string, error) {
	if a.opts.ClaudePath != "" {
		return a.opts.ClaudePath, nil
	}
	if p := a.opts.Getenv("CLAUDE_CODE_EXECUTABLE"); p != "" {
		return p, nil
	}
	if p, err := exec.LookPath("claude"); err == nil {
		return p, nil
	}
	return "", errNoCLI
}

// baseArgs are the stream-json flags the reference's SDK passes every CLI.
func baseArgs(sessionArgs []string) []string {
	args := []string{"--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
		"--permission-prompt-tool=stdio", "--tools=default", "--setting-sources=user,project,local",
		"--permission-mode=auto", "--allow-dangerously-skip-permissions", "--include-partial-messages"}
	args = append(args, sessionArgs...)
	return append(args, "--replay-user-messages", "")
}

// initializeRequest is the control initialize the reference sends: the
// hooks it observes (answered by hook_callback) and its options.
var initializeRequest = json.RawMessage(`{"hooks":{"PostToolUse":[{"hookCallbackIds":["hook_0"]}],"PostModelSwitch":[{"hookCallbackIds":["hook_1"]}],"PostCompact":[{"hookCallbackIds":["hook_2"]}],"TaskCreated":[{"hookCallbackIds":["hook_3"]}],"TaskCompleted":[{"hookCallbackIds":["hook_4"]}]},"promptSuggestions":true,"forwardSubagentText":false,"supportedDialogKinds":["refusal_fallback_prompt"]}`)

// start spawns the session's CLI and runs the control handshake.
func (s *Session) start(ctx context.Context, sessionArgs []string) error {
	path, err := s.agent.claudePath()
	if err != nil {
		return jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error: %v", err)
	}
	proc, err := startProcess(spawnSpec{Path: path, Args: baseArgs(sessionArgs), Env: s.agent.opts.Environ,
		Dir: s.Cwd, Handler: s, Log: s.agent.opts.Log.With("session", s.ID)})
	if err != nil {
		return jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error: cannot start the Claude CLI")
	}
	s.proc = proc
	var init, settings json.RawMessage
	if err := s.request(ctx, "initialize", initializeRequest, &init); err != nil {
		proc.Close()
		return jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error: the Claude CLI did not start")
	}
	if err := s.request(ctx, "get_settings", nil, &settings); err != nil {
		proc.Close()
		return jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error: the Claude CLI did not start")
	}
	if err := s.configure(init, settings); err != nil {
		proc.Close()
		return jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error: the Claude CLI did not start")
	}
	go s.refreshContextUsage(ctx)
	go s.watchExit()
	return nil
}

// configure builds the session's modes and config options from the CLI's
// initialize and get_settings answers, and seeds the context window.
func (s *Session) configure(init, settings json.RawMessage) error {
	in, err := sessionconfig.ParseInit(init)
	if err != nil {
		return err
	}
	st := sessionconfig.ParseSettings(settings)
	s.cfg = sessionconfig.New(in, st, sessionconfig.Options{Mode: "auto", BuiltInDefault: true,
		AllowAuto: true, AllowBypass: allowBypass(s.agent.opts.Getenv)})
	s.commands = in.Commands
	if len(in.Models) > 0 {
		m := in.Models[0]
		s.tr.usage.SetWindow(usage.GuessWindow(m.Value, m.ResolvedModel, m.DisplayName, m.Description))
	}
	return nil
}

// allowBypass: bypassPermissions is offered unless the agent runs as root
// outside a sandbox (the CLI refuses it then).
func allowBypass(getenv func(string) string) bool {
	return os.Getuid() != 0 || getenv("IS_SANDBOX") != ""
}

// refreshContextUsage asks the CLI how full the context is.
func (s *Session) refreshContextUsage(ctx context.Context) {
	var resp json.RawMessage
	if err := s.request(context.WithoutCancel(ctx), "get_context_usage", map[string]string{"detail": "summary"}, &resp); err == nil {
		s.tr.contextUsage(resp)
	}
}

// watchExit ends every open turn of a CLI that exits on its own: a turn
// under way then ends instead of waiting for a result that never comes, and
// later prompts fail with the reference's "session has ended" error.
func (s *Session) watchExit() {
	<-s.proc.Exited()
	s.mu.Lock()
	s.ended = true
	open := s.turns
	s.turns, s.state = nil, idle
	s.mu.Unlock()
	if len(open) > 0 {
		s.agent.opts.Log.Warn("the Claude CLI ended during a turn", "session", s.ID, "exit", s.proc.ExitErr())
	}
	for _, t := range open {
		_ = s.agent.conn.Respond(t.reqID, emptyTurnResult("end_turn"), nil)
	}
}

// errSessionEnded is the reference's answer to a prompt on a session whose
// CLI is gone.
var errSessionEnded = jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error: The Claude Agent session has ended. Please start a new session.")

// emptyTurnResult is a PromptResponse with no usage.
func emptyTurnResult(stop string) map[string]any {
	return map[string]any{"stopReason": stop, "usage": map[string]int{"cachedReadTokens": 0, "cachedWriteTokens": 0,
		"inputTokens": 0, "outputTokens": 0, "totalTokens": 0}}
}
