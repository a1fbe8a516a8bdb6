package adapter

import (
	"context"
	"encoding/json"
	"maps"
	"slices"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/adapter/subagents"
	"github.com/airwire/airwire/adapter/toolcall"
)

// Contract "Native subagent sessions" (adapter/subagents): what the
// section needs of the session and the agent. subagentHost is the
// session as the child session router's Host.
type subagentHost struct{ s *Session }

func (h subagentHost) Notify(sessionID string, update any) {
	h.s.agent.v2.Load().notify(h.s.agent.conn, sessionID, update)
}

func (h subagentHost) Config() subagents.Config {
	if h.s.cfg == nil {
		return nil
	}
	return h.s.cfg
}

func (h subagentHost) Transcript() (string, bool) {
	return history.Find(h.s.agent.configDir(), h.s.ID)
}

// newSessionSubagents is the child session router of s.
func newSessionSubagents(s *Session, c caps.Client) *subagents.Router {
	return subagents.New(subagentHost{s}, s.ID, s.Cwd, c)
}

// subagentInitialize sets what the initialize request says of subagents.
func (s *Session) subagentInitialize(init *claude.Initialize, sessionMeta json.RawMessage) {
	s.tr.mu.Lock()
	s.tr.sub.Initialize(init, sessionMeta, subagents.HookFuncs{
		Own: s.hook, OwnEvents: hookEvents, Sub: s.subagentHook, Preview: filePreview{s}.hook})
	s.tr.mu.Unlock()
	stop, _ := subagents.PerTaskStop(s.agent.clientCaps(), sessionMeta)
	s.agent.v2.Load().startBackground(s.ID, stop)
}

// subagentHook is the subagent configuration hook: the child session gets
// the configuration the hook tells of it, then the CLI goes on.
func (s *Session) subagentHook(_ context.Context, cb *claude.HookCallback, reply claude.Reply) {
	s.tr.mu.Lock()
	s.tr.sub.HookReport(cb.Input.Raw)
	s.tr.mu.Unlock()
	reply(claude.HookContinue, nil)
}

// subagentAssistant hands a consolidated message of a subagent to the
// router: its model, and its text and thinking as message chunks.
func (t *translator) subagentAssistant(parent string, m assistantLine) {
	var chunks []map[string]any
	for _, c := range m.Message.Content {
		kind, text := "agent_message_chunk", c.Text
		if c.Type == "thinking" {
			kind, text = "agent_thought_chunk", c.Thinking
		} else if c.Type != "text" {
			continue
		}
		if text == "" {
			continue
		}
		chunks = append(chunks, textUpdate(kind, text, m.Message.ID))
	}
	t.sub.Assistant(parent, m.Message.Model, chunks)
}

// awaitUser opens a permission or question request whose params are
// params (see Router.OpenRequest); the returned func closes it.
func (t *translator) awaitUser(params json.RawMessage) (done func(withdrawn bool)) {
	var p struct {
		SessionID string `json:"sessionId"`
	}
	_ = json.Unmarshal(params, &p)
	t.mu.Lock()
	defer t.mu.Unlock()
	closeRequest := t.sub.OpenRequest(p.SessionID)
	return func(withdrawn bool) {
		t.mu.Lock()
		defer t.mu.Unlock()
		closeRequest(withdrawn)
	}
}

// cancelChildSession takes a `session/cancel` of a child session, which its
// `cancel` capability permits: the CLI stops the child's task (stop_task),
// which stops its current work and the foreground subagents it waits on,
// and the parent's work goes on. The CLI's task events report the child
// idle and cancelled; nothing is reported here, since accepting the stop is
// no evidence that it stopped. It reports false when no session has a
// child with that id.
func (a *Agent) cancelChildSession(ctx context.Context, id string) bool {
	a.mu.Lock()
	sessions := slices.Collect(maps.Values(a.sessions))
	a.mu.Unlock()
	for _, s := range sessions {
		s.tr.mu.Lock()
		taskID, ok := s.tr.sub.ChildTask(id)
		s.tr.mu.Unlock()
		if !ok {
			continue
		}
		if p := s.cli(); p != nil {
			go func() { _ = p.Request(context.WithoutCancel(ctx), claude.StopTask{TaskID: taskID}, nil) }()
		}
		return true
	}
	return false
}

// replayMessages sends the stored messages msgs of the session whose
// transcript is at path as updates, before the load's answer, with its
// child sessions for a client that takes them.
func (s *Session) replayMessages(path string, msgs []history.Message, render toolcall.Renderer) {
	rp := history.NewReplayer(render, s.tr.tools)
	s.loaded = s.tr.sub.Replay(path, msgs, rp, s.replaySwaps())
}

// publishReplayedChildModels runs after the load's answer (Loaded.PublishStates).
func (s *Session) publishReplayedChildModels() { s.loaded.PublishStates() }

// publishRfdReplayModels runs after the session's commands (Loaded.PublishModels).
func (s *Session) publishRfdReplayModels() { s.loaded.PublishModels() }

// subagentHold keeps a prompt's response back while background subagents
// that its turn spawned still run, so their tool calls and the follow-up
// cycle Claude Code starts on their hand-back land inside the prompt (the
// reference's held turn; contract "Native subagent sessions": only an AIR
// client that declares backgroundSubagents gets its response at the result).
//
// A subagent holds from its `task_started` (one with a subagent_type)
// until it ends or the level signal no longer lists it (see tasks). A held
// turn settles at the result of an autonomous cycle that ran (num_turns >
// 0, or failed), or at the CLI's next idle, once none of its subagents is
// live; a cancelled one settles at either at once, and a new prompt's
// activation settles it first. The hold does no I/O: the translator sends
// what it decides.
type subagentHold struct {
	// spawned are the subagent tasks the current turn started.
	spawned []string
	// held is the stop reason of a turn whose result came while its
	// subagents still ran; "" when no turn is held.
	held string
	// off: the client ends turns at their result (AIR backgroundSubagents,
	// on ACP v1 only: v2 keeps the hold, as it answers prompts at insertion).
	off bool
}

// backgroundSubagents is the AIR capability of a client whose turns end at
// their result while their subagents run.
const backgroundSubagents = "backgroundSubagents"

func newSubagentHold(c caps.Client) subagentHold {
	return subagentHold{off: c.AIR.Has(backgroundSubagents) && !c.V2}
}

// spawn records a subagent task that the turn under way (or held) started.
func (h *subagentHold) spawn(taskID string) { h.spawned = append(h.spawned, taskID) }

// awaiting reports whether a subagent the turn spawned still runs.
func (h *subagentHold) awaiting(live tasks) bool {
	return !h.off && slices.ContainsFunc(h.spawned, func(id string) bool {
		t := live[id]
		return t != nil && t.subagent && !t.unlisted
	})
}

// result takes a turn's stop reason at its result: it reports whether the
// answer waits for the turn's subagents.
func (h *subagentHold) result(reason string, live tasks) (held bool) {
	if h.awaiting(live) {
		h.held = reason
		return true
	}
	h.spawned = nil
	return false
}

// ready returns the stop reason of a held turn that may settle now (its
// subagents ended, or it was cancelled), and forgets it.
func (h *subagentHold) ready(cancelled bool, live tasks) (reason string, ok bool) {
	if h.held == "" || (!cancelled && h.awaiting(live)) {
		return "", false
	}
	return h.take()
}

// take returns the stop reason of a held turn, if any, and forgets it.
func (h *subagentHold) take() (reason string, ok bool) {
	reason, ok = h.held, h.held != ""
	h.held, h.spawned = "", nil
	return reason, ok
}

// cycleRan reports whether an autonomous result ends a cycle that ran
// (a placeholder result, num_turns 0, comes before the cycle it answers).
func cycleRan(r *claude.Frame) bool {
	return r.NumTurns > 0 || r.IsError
}
