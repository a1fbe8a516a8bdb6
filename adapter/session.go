package adapter

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/airwire/airwire/adapter/sessionconfig"
	"github.com/airwire/airwire/internal/jsonrpc"
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
	proc  *process

	mu     sync.Mutex
	state  state
	turns  []*turn // the active turn first, then queued prompts
	closed bool
	ended  bool // the CLI exited on its own
	titles titles
	asks   map[int]context.CancelFunc // open editor prompts
	askSeq int

	cfg              *sessionconfig.Session
	commands         []sessionconfig.Command
	terminalCommands []string // the CLI's terminal-only slash commands
	terminalKnown    bool     // terminalCommands came from an init
	tr               *translator
}

// turn is one session/prompt: the editor's request, answered when the
// CLI's result for it arrives.
type turn struct {
	reqID      json.RawMessage
	promptUUID string
	cancelled  bool
}

// notify sends a session/update for this session.
func (s *Session) notify(update any) {
	_ = s.agent.conn.Notify("session/update", map[string]any{"sessionId": s.ID, "update": update})
}

// request sends a control request to the CLI and waits for its answer.
func (s *Session) request(ctx context.Context, subtype string, params, result any) error {
	if s.proc == nil {
		return errNotRunning
	}
	return s.proc.conn.Call(ctx, subtype, params, result)
}

// send writes a stream-json line (a user message) to the CLI.
func (s *Session) send(kind string, line any) error {
	if s.proc == nil {
		return errNotRunning
	}
	return s.proc.conn.Notify(kind, line)
}

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
	_ = s.agent.conn.Respond(t.reqID, result, err)
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
	return true
}

// activeCancelled reports whether the turn under way was cancelled.
func (s *Session) activeCancelled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.turns) > 0 && s.turns[0].cancelled
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
	open := s.turns
	s.turns, s.state = nil, idle
	s.mu.Unlock()
	if s.proc != nil {
		s.proc.Close()
	}
	for _, t := range open {
		_ = s.agent.conn.Respond(t.reqID, emptyTurnResult("cancelled"), nil)
	}
}

// Handle implements jsonrpc.Handler for the CLI side: the CLI's control
// requests and its stream of messages, in order.
func (s *Session) Handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	if req.IsCall() {
		return s.controlRequest(ctx, req)
	}
	s.tr.message(req.Method, req.Params)
	return nil, nil
}

// controlRequest answers a control request of the CLI. Subtypes the agent
// does not serve get an error reply, never silence.
func (s *Session) controlRequest(ctx context.Context, req *jsonrpc.Request) (any, error) {
	switch req.Method {
	case "hook_callback":
		frame, _ := json.Marshal(map[string]any{"type": "control_request", "request": req.Params})
		return s.tr.hook(frame)
	case "can_use_tool":
		return s.canUseTool(ctx, req.ID, req.Params)
	case "elicitation":
		return s.elicitation(ctx, req.ID, req.Params)
	}
	return nil, jsonrpc.Errorf(jsonrpc.ErrMethodNotFound, "unsupported control request: %s", req.Method)
}

// publishCommands sends the session's slash commands.
func (s *Session) publishCommands() {
	s.notify(sessionconfig.CommandsUpdate(sessionconfig.Commands(s.commands, s.terminalCommands)))
}
