package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/compaction"
	"github.com/airwire/airwire/adapter/mcpservers"
	"github.com/airwire/airwire/adapter/notices"
	"github.com/airwire/airwire/adapter/sessionconfig"
	"github.com/airwire/airwire/adapter/sessionfailure"
	"github.com/airwire/airwire/adapter/subagents"
	"github.com/airwire/airwire/adapter/turns"
)

// state is where a session's turn machine stands.
type state int

const (
	idle       state = iota // no turn
	running                 // a turn is under way (more may be queued)
	cancelling              // session/cancel sent an interrupt; the turn ends cancelled
)

// Session is one live ACP session and its Claude CLI. Its CLI's messages
// arrive on one goroutine in order (the CLI Conn's dispatch), so the turn
// translation never races itself; mu guards what editor requests touch.
type Session struct {
	ID    string
	Cwd   string
	agent *Agent
	proc  *claude.Process // the current CLI (cli()); replaced by a clear-context restart
	gen   uint64          // counts the CLIs started; only the current one's frames count
	mode  string          // the permission mode the CLI starts in
	// modeBuiltIn: nobody chose mode (a new session's built-in Auto).
	modeBuiltIn bool
	prefs       sessionPrefs // settings and ANTHROPIC_MODEL (start.go)
	// unsupportedCLI is the version of a CLI outside the supported range
	// (cli_version.go); cliWarned once the editor was told.
	unsupportedCLI string
	cliWarned      bool
	// opened are the params that opened the session: a load or resume
	// whose sessionFingerprint differs restarts it (session_fork_point.go).
	// Kept raw, fingerprinted only then: session/new does not pay for it.
	opened json.RawMessage
	// windowKnown: the CLI started with a window an earlier result
	// confirmed, so it is asked for none (start.go).
	windowKnown bool
	// startParams are the CLI options of the session's start, which a
	// clear-context restart reuses (clear_context.go).
	startParams claude.SessionStart
	// mcpStatus says which of the editor's MCP servers are unavailable.
	mcpStatus notices.MCPServers
	// signIn signs in the editor's MCP servers that need OAuth (methods.go).
	signIn mcpservers.SignIn
	// idle compacts the session before its prompt cache expires
	// (compaction.go); cliEnv is the environment its CLI last started
	// with (under mu).
	idle   *compaction.Idle
	cliEnv []string

	mu    sync.Mutex
	state state
	// auth is the context of the agent's auth status probes while this
	// session is the last one created or prompted (initialize.go): its
	// settings are the CLI's --settings (contract "Session hooks").
	auth authContext
	// startAgent is the agent the current CLI started as (--agent).
	startAgent string
	turns      []*turn          // the active turn first, then queued prompts
	fg         turns.Foreground // the foreground work (adapter/turns)
	closed     bool
	closing    bool // the editor closes it: the CLI's lines reach no one (closeTurns)
	ended      bool // the CLI exited on its own

	cfg              *sessionconfig.Session
	commands         []sessionconfig.Command
	terminalCommands []string // the CLI's terminal-only slash commands
	terminalKnown    bool     // terminalCommands came from an init
	skillsRead       bool     // the first init asked for the skill files
	tr               *translator
	failures         *sessionfailure.State // AIR session failure ids (session_failure.go)

	// The session's parts, each with its own state and lock, set up by
	// newSessionState.
	titles        titles        // its title (session_info.go)
	index         indexState    // what the session index reports of it (session_index.go)
	asks          asks          // open editor prompts (ask.go)
	configChanges configChanges // set_mode, set_config_option (config.go)
	skills        skills        // the skill files of its commands (config.go)
	messageRows   messageRows   // the agent messages' transcript rows (session_fork_point.go)
	goal          goalState     // the AIR goal (goal.go)
	fileChanges   *fileChanges  // AIR file-change reports (agent_file_change_report.go)
	// plans hold the accepted plan to continue in a fresh context, from
	// the ExitPlanMode answer to the end of the interrupted cycle
	// (clear_context.go).
	plans planResets
	// loaded is what the load's replay left for its child sessions after
	// the load's answer (subagents.go).
	loaded *subagents.Loaded
}

// notify sends a session/update for this session.
func (s *Session) notify(update any) {
	s.agent.v2.Load().notify(s.agent.conn, s.ID, update)
}

// rawRequest is a control request given as its whole body (a config
// change planned by sessionconfig).
type rawRequest struct {
	subtype string
	body    json.RawMessage
}

func (r rawRequest) Subtype() string              { return r.subtype }
func (r rawRequest) MarshalJSON() ([]byte, error) { return r.body, nil }

// enqueue adds a prompt's turn, unless the CLI has ended.
func (s *Session) enqueue(t *turn) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended || s.closed {
		return errSessionEnded
	}
	s.turns = append(s.turns, t)
	if s.state == idle {
		s.state = running
	}
	return nil
}

// finish answers the active turn with result (or err) and makes the next
// queued one active.
func (s *Session) finish(result any, err error) {
	s.mu.Lock()
	if len(s.turns) == 0 {
		s.mu.Unlock()
		return
	}
	t := s.turns[0]
	s.turns = s.turns[1:]
	if len(s.turns) == 0 {
		s.state = idle
	} else {
		s.state = running
	}
	s.mu.Unlock()
	if t.goal && err == nil {
		result = map[string]any{}
	}
	t.settle(&s.fg, outcomeOf(result), err)
	if servers := t.local.settled(); len(servers) > 0 && !t.cancelled {
		// a reconnect signs in the editor's servers it tried, as a session start does
		editors := mcpservers.Names(s.startParams.MCPServers)
		signInServers(s, slices.DeleteFunc(slices.Clone(servers), func(n string) bool { return !slices.Contains(editors, n) }))
	}
}

// cancelActive marks the turn under way as cancelled; it reports whether
// there was one.
func (s *Session) cancelActive() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.turns) == 0 {
		return false
	}
	s.turns[0].cancelled = true
	s.turns[0].fileChange.cancelled() // contract "Agent file-change report"
	s.turns[0].local.abort()
	return true
}

// activeCancelled reports whether the turn under way was cancelled.
func (s *Session) activeCancelled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.turns) > 0 && s.turns[0].cancelled
}

// activeTurnID is the prompt uuid of the turn under way ("" for none).
func (s *Session) activeTurnID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.turns) == 0 {
		return ""
	}
	return s.turns[0].promptUUID
}

// activeLocalOnly reports whether the turn under way is a local-only
// command.
func (s *Session) activeLocalOnly() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.turns) > 0 && s.turns[0].localOnly
}

// Close ends the session: its CLI is stopped and reaped, and every turn
// still open ends cancelled.
func (s *Session) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.idle.Dispose()
	open := s.turns
	s.turns, s.state = nil, idle
	proc := s.proc
	s.mu.Unlock()
	s.signIn.Stop()
	stopOutputs(s.tr)
	if proc != nil {
		proc.Close()
	}
	for _, t := range open {
		s.fileChanges.unavailable(t.fileChange, fileChangeCancelled)
		t.settle(&s.fg, outcomeOf(emptyTurnResult("cancelled")), nil)
	}
}

// cliHandler is the claude.Handler of one CLI of the session: what a CLI
// that a clear-context restart replaced says after that reaches no one,
// and the exit of a CLI whose start failed ends nothing (its starter
// reports the failure).
type cliHandler struct {
	s   *Session
	gen uint64

	mu    sync.Mutex
	ready bool   // the handshake succeeded
	early *error // the CLI's exit before then, held
}

// started marks the handshake done: the CLI's exit now ends the session,
// and an exit that came while the handshake finished ends it at once.
func (h *cliHandler) started() {
	h.mu.Lock()
	h.ready = true
	early := h.early
	h.mu.Unlock()
	if early != nil {
		h.HandleExit(*early)
	}
}

func (h *cliHandler) current() bool {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	return h.s.gen == h.gen
}

func (h *cliHandler) HandleMessage(f *claude.Frame) {
	if h.current() {
		h.s.HandleMessage(f)
	}
}

func (h *cliHandler) HandleControl(ctx context.Context, req *claude.IncomingRequest, reply claude.Reply) {
	if !h.current() {
		reply(nil, errSessionEnded)
		return
	}
	h.s.HandleControl(ctx, req, reply)
}

func (h *cliHandler) HandleExit(err error) {
	h.mu.Lock()
	if !h.ready {
		h.early = &err
		h.mu.Unlock()
		return
	}
	h.mu.Unlock()
	if h.current() {
		h.s.HandleExit(err)
	}
}

// HandleMessage implements claude.Handler: the CLI's lines in order.
func (s *Session) HandleMessage(f *claude.Frame) {
	s.mu.Lock()
	gone := s.closed || s.ended || s.closing
	s.mu.Unlock()
	if gone {
		return // torn down: what the CLI says while it dies reaches no one
	}
	if s.tr.textDelta(f) {
		return
	}
	if s.index.frame(f, s.activeCancelled) {
		if svc := s.agent.index.indexed(); svc != nil {
			svc.OwnSessionChanged(s.ID)
		}
	}
	s.tr.message(f)
}

// HandleControl implements claude.Handler: permission requests, MCP
// elicitations and the CLI's dialogs go to the editor; anything else is
// refused, never ignored.
func (s *Session) HandleControl(ctx context.Context, req *claude.IncomingRequest, reply claude.Reply) {
	switch req.Subtype {
	case "can_use_tool":
		s.asks.canUseTool(ctx, req.Body, reply)
	case "elicitation":
		s.asks.elicitation(ctx, req.Body, reply)
	case "request_user_dialog":
		s.asks.userDialog(ctx, req.Body, reply)
	default:
		reply(nil, fmt.Errorf("Unsupported control request subtype: %s", req.Subtype))
	}
}

// hook is the agent's one hook func: hooks only observe, and PostToolUse
// reports a tool's final response. A main-session EnterPlanMode that ran
// moved the CLI to plan mode: the editor hears of it first (Permission
// modes), before the tool's final report.
func (s *Session) hook(ctx context.Context, cb *claude.HookCallback, reply claude.Reply) {
	if entersPlanMode(cb.Input) {
		s.configChanges.adoptMode("plan")
	}
	frame, _ := json.Marshal(map[string]any{"type": "control_request", "request": map[string]any{
		"subtype": "hook_callback", "callback_id": cb.CallbackID, "tool_use_id": cb.ToolUseID, "input": cb.Input.Raw}})
	s.tr.hook(frame)
	reply(claude.HookContinue, nil)
	if model, ok := cliModelSwitch(cb.Input); ok {
		s.tr.mu.Lock()
		defer s.tr.mu.Unlock()
		s.followModelSwitch(model)
	}
}

// entersPlanMode says a hook reports that the main session's EnterPlanMode
// ran: a subagent's plan mode is its own.
func entersPlanMode(in claude.HookInput) bool {
	return in.HookEventName == "PostToolUse" && in.ToolName == "EnterPlanMode" && in.AgentID == ""
}

// publishCommands sends the session's slash commands.
func (s *Session) publishCommands() {
	cmds := sessionconfig.Commands(s.commands, s.terminalCommands)
	files := s.skills.listed()
	if !s.agent.clientCaps().AIR.Client {
		s.notify(sessionconfig.CommandsUpdate(cmds))
		return
	}
	s.notify(s.skills.commandsUpdate(cmds, s.commands, files))
}

// toolCallsCancelled: a session/cancel drops the state of each tool call
// (the fields the client holds, the hooks still awaited), as the reference
// does for a client without native subagent sessions; later reports of
// those calls go out whole.
func (t *translator) toolCallsCancelled() {
	t.mu.Lock()
	t.tools.Cancelled()
	t.sub.ParentCancelled()
	t.mu.Unlock()
}
