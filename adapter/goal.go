package adapter

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/turns"
	"github.com/airwire/airwire/internal/jsonrpc"
	"github.com/airwire/airwire/internal/lazyre"
)

// Contract "Goal": a session-scoped objective for an AIR client. The
// client sets or clears it with `_session/goal` ("Control request"); the
// adapter runs Claude's `/goal` command, injected into a running turn at
// steering priority `now`, or as an ordinary prompt on an idle session.
// The current snapshot goes to AIR in `session_info_update` at
// `_meta.jetbrains.air.goal` ("Session state"), from the prompt that
// submits `/goal` (a minimal snapshot, or null for `/goal clear`) and from
// the runtime's `active_goal` messages ("Claude mapping").

// goalControlMethod is the control method the agent declaration names.
const goalControlMethod = "_session/goal"

// goalCommandRE is a prompt that runs Claude's /goal command.
var goalCommandRE = lazyre.New(`^/goal(?:\s+([\s\S]*))?$`)

// goalState is a session's goal as last published, and the /goal command
// whose outcome is pending.
type goalState struct {
	host    goalHost
	caps    func() caps.Client // the editor's declaration
	mu      sync.Mutex
	last    map[string]any // nil: no goal
	pending *pendingGoal
}

// goalHost is what the goal reaches of its session.
type goalHost interface {
	notify(update any)
}

// pendingGoal is a submitted /goal command: while it is pending, runtime
// updates for another goal are stale and ignored.
type pendingGoal struct {
	uuid     string
	expected map[string]any // nil for /goal clear
	previous map[string]any
	started  bool // its echo arrived
}

type goalParams struct {
	SessionID *string `json:"sessionId"`
	Action    *string `json:"action"`
	Objective *string `json:"objective"`
}

// goal answers `_session/goal`: set (a non-blank objective) or clear; any
// other action is invalidParams. Only an AIR client has the extension.
func (a *Agent) goal(ctx context.Context, req *jsonrpc.Request) (any, error) {
	if !a.clientCaps().AIR.Client {
		return nil, jsonrpc.Errorf(jsonrpc.ErrMethodNotFound, "Method not found: %s", req.Method)
	}
	command, sessionID, err := goalCommand(req.Params)
	if err != nil {
		return nil, err
	}
	s, err := a.session(sessionID)
	if err != nil {
		return nil, err
	}
	prompt := []json.RawMessage{json.RawMessage(marshalText(command))}
	if s.steer(prompt, command) {
		return map[string]any{}, nil
	}
	if err := s.submit(ctx, &turn{events: turns.V1Prompt{Conn: a.conn, ID: req.ID}, goal: true}, decodePrompt(prompt)); err != nil {
		return nil, err
	}
	return nil, jsonrpc.ErrAsyncResponse
}

// goalCommand validates the request and returns the /goal command it runs.
func goalCommand(raw json.RawMessage) (command, sessionID string, err error) {
	var p goalParams
	if json.Unmarshal(raw, &p) != nil {
		return "", "", invalidParams("goal params must be an object")
	}
	if p.SessionID == nil || *p.SessionID == "" {
		return "", "", invalidParams("goal params require a non-empty sessionId")
	}
	switch {
	case p.Action == nil || *p.Action != "set" && *p.Action != "clear":
		return "", "", invalidParams(`goal action must be "set" or "clear"`)
	case *p.Action == "clear":
		return "/goal clear", *p.SessionID, nil
	case p.Objective == nil || strings.TrimSpace(*p.Objective) == "":
		return "", "", invalidParams(`goal action "set" requires a non-empty objective`)
	}
	return "/goal " + strings.TrimSpace(*p.Objective), *p.SessionID, nil
}

func marshalText(text string) []byte {
	b, _ := json.Marshal(map[string]string{"type": "text", "text": text})
	return b
}

// steer injects a prompt into the running turn at priority now; it
// reports false when no turn runs (the caller then prompts). The turn
// then ends only at a result after the injected message's echo.
func (s *Session) steer(prompt []json.RawMessage, text string) bool {
	s.mu.Lock()
	running := len(s.turns) > 0 && !s.ended && !s.closed
	s.mu.Unlock()
	if !running {
		return false
	}
	s.idle.Disarm("steer")
	content, _ := json.Marshal(promptToClaude(decodePrompt(prompt)))
	msg := claude.NewUserInput(s.ID, content)
	msg.Priority = "now"
	s.tr.steered(msg.UUID)
	if s.cli().Send(msg) != nil {
		return false
	}
	s.goal.fromPrompt(text, msg.UUID)
	return true
}

// fromPrompt publishes the minimal snapshot of a submitted
// `/goal <condition>`, or null for `/goal clear`, and holds later runtime
// updates for the previous goal until the command's own outcome.
func (g *goalState) fromPrompt(text, uuid string) {
	m := goalCommandRE.FindStringSubmatch(text)
	if m == nil || strings.TrimSpace(m[1]) == "" {
		return
	}
	var expected map[string]any
	if arg := strings.TrimSpace(m[1]); arg != "clear" {
		expected = map[string]any{"objective": arg, "status": "active", "controlMethod": goalControlMethod}
	}
	g.mu.Lock()
	g.pending = &pendingGoal{uuid: uuid, expected: expected, previous: g.last}
	g.mu.Unlock()
	g.publish(expected)
}

// publish records the snapshot and sends it to an AIR client.
func (g *goalState) publish(snapshot map[string]any) {
	g.mu.Lock()
	g.last = snapshot
	g.mu.Unlock()
	if !g.caps().AIR.Client {
		return
	}
	var goal any
	if snapshot != nil {
		goal = snapshot
	}
	g.host.notify(map[string]any{"sessionUpdate": "session_info_update",
		"_meta": map[string]any{"jetbrains": map[string]any{"air": map[string]any{"version": 1, "goal": goal}}}})
}

// activeGoalLine is the runtime's `active_goal` message.
// goalSnapshot maps an active_goal message to the neutral snapshot: nil
// for a cleared goal; ok is false for a malformed message.
func goalSnapshot(m *claude.Frame) (snap map[string]any, ok bool) {
	if m.Goal != nil && m.Goal.Malformed {
		return nil, false
	}
	if v := m.Goal; v != nil {
		snap = map[string]any{"objective": strings.TrimSpace(v.Condition), "status": "active", "iterations": v.Iterations,
			"lastReason": v.LastReason, "createdAt": v.SetAt, "controlMethod": goalControlMethod}
	}
	return snap, true
}

// runtime maps an active_goal message to the neutral snapshot
// (provider bookkeeping such as tokens_at_start left out); while a /goal
// command is pending, only the update it asked for is published.
func (g *goalState) runtime(line *claude.Frame) {
	snap, ok := goalSnapshot(line)
	if !ok {
		return
	}
	g.mu.Lock()
	if p := g.pending; p != nil {
		if (p.expected == nil) != (snap == nil) || snap != nil && snap["objective"] != p.expected["objective"] {
			g.mu.Unlock()
			return
		}
		g.pending = nil
	}
	g.mu.Unlock()
	g.publish(snap)
}

// echo marks the pending /goal command as started when its echo
// arrives.
func (g *goalState) echo(uuid string) {
	g.mu.Lock()
	if p := g.pending; p != nil && p.uuid == uuid {
		p.started = true
	}
	g.mu.Unlock()
}

// result ends a started /goal command at its result; a failed command
// restores the previous state.
func (g *goalState) result(r *claude.Frame) {
	g.mu.Lock()
	p := g.pending
	if p == nil || !p.started {
		g.mu.Unlock()
		return
	}
	g.pending = nil
	g.mu.Unlock()
	if r.IsError || r.StopReason == "refusal" {
		g.publish(p.previous)
	}
}

// steerLane follows the messages injected into the running turn whose
// echo has not arrived: a result before that echo ends the interrupted
// cycle, not the turn.
type steerLane struct {
	echoes map[string]bool
}

func (l *steerLane) holds() bool { return len(l.echoes) > 0 }

// steered records a message injected into the running turn.
func (t *translator) steered(uuid string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.steer.echoes == nil {
		t.steer.echoes = map[string]bool{}
	}
	t.steer.echoes[uuid] = true
}

// echoed takes the CLI's echo of a user message: an injected one joins
// the running turn.
func (l *steerLane) echoed(uuid string) { delete(l.echoes, uuid) }
