package adapter

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/permission"
	"github.com/airwire/airwire/adapter/sessionconfig"
	"github.com/airwire/airwire/adapter/toolcall"
	"github.com/airwire/airwire/adapter/usage"
	"github.com/airwire/airwire/internal/uuid"
)

// Clear context (contract "Permission presentation" > "Permission modes",
// "Plan file" > "Claude source"): an ExitPlanMode answer exit-plan-clear-*
// denies the tool with interrupt, so the old Claude context never runs it.
// When the cycle it interrupted ends (the CLI's error-shaped diagnostic
// result), the turn does not end: the session stops that CLI, starts a
// fresh one (a new Claude session id, the chosen mode, the session's own
// start options) under the same ACP session, publishes the mode, the
// config options, an empty context and, for a client that declares
// `plan`, the approved plan (toolcall.PlanModeUpdate), and continues the
// same turn with "Implement the following plan:" and the plan, under the
// prompt's uuid.
// The turn's usage carries over; the fresh context's result ends the turn.

// planReset is an accepted plan that continues in a fresh context.
type planReset struct {
	toolUseID string
	plan      string
	mode      string
}

// planContinuation is the text the fresh context starts with.
const planContinuation = "Implement the following plan:\n\n"

// planResets hold a session's accepted plan that continues in a fresh
// context, from the ExitPlanMode answer to the end of the cycle it
// interrupted.
type planResets struct {
	mu sync.Mutex
	r  *planReset
}

// accept records a clear-context choice of the ExitPlanMode call
// toolUseID, until its interrupted cycle ends.
func (p *planResets) accept(toolUseID string, dec permission.Decision) {
	if dec.ClearContextMode == "" {
		return
	}
	p.mu.Lock()
	p.r = &planReset{toolUseID: toolUseID, plan: dec.Plan, mode: dec.ClearContextMode}
	p.mu.Unlock()
}

// take returns and drops the recorded clear-context choice.
func (p *planResets) take() *planReset {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.r
	p.r = nil
	return r
}

// current is the recorded clear-context choice (nil for none).
func (p *planResets) current() *planReset {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.r
}

// acceptedPlanResult shows the result of the ExitPlanMode call whose plan
// continues in a fresh context as completed, without the rejection the CLI
// returned for it: that denial is the handoff, not the user's refusal.
func (t *translator) acceptedPlanResult(updates []toolcall.Update) []toolcall.Update {
	r := t.s.plans.current()
	if r == nil {
		return updates
	}
	for i := range updates {
		u := &updates[i]
		if u.SessionUpdate == "tool_call_update" && u.ToolCallID == r.toolUseID && u.Status != "" {
			u.Status, u.Content, u.RawOutput = "completed", nil, nil
		}
	}
	return updates
}

// exitPlanInterrupted reports whether a result is the diagnostic with
// which Claude Code ends the cycle that an ExitPlanMode answer with
// interrupt stopped: an error result whose [ede_diagnostic] says
// result_type=user and stop_reason=tool_use.
func exitPlanInterrupted(r *claude.Frame) bool {
	if !r.IsError {
		return false
	}
	for _, e := range append([]string{r.Result}, r.Errors...) {
		if !strings.HasPrefix(e, "[ede_diagnostic]") {
			continue
		}
		fields := strings.Fields(e)
		return slices.Contains(fields, "result_type=user") && slices.Contains(fields, "stop_reason=tool_use")
	}
	return false
}

// continuePlan restarts the session's Claude context for r and continues
// the turn under way there; a restart that fails ends the turn with its
// error.
func (s *Session) continuePlan(r planReset) {
	ctx := context.Background()
	s.mu.Lock()
	if s.closed || len(s.turns) == 0 {
		s.mu.Unlock()
		return
	}
	old, promptUUID := s.proc, s.turns[0].promptUUID
	s.gen++ // the old CLI's last frames and its exit reach no one
	s.mode = r.mode
	// The fresh context is a new Claude session: its title, commands and
	// skills are published again, as for a new session.
	s.skills.reset()
	s.titles.reset()
	s.idle.Reset()
	st := s.startParams
	s.mu.Unlock()
	window := s.tr.window() // the fresh CLI runs the same model
	old.Close()
	s.tr.mu.Lock() // what the translator reads at an init
	s.terminalKnown, s.skillsRead = false, false
	s.tr.mu.Unlock()
	st.SessionID, st.Resume, st.ForkSession, st.PermissionMode = uuid.New(), "", false, r.mode
	if agent, _ := sessionconfig.AgentOf(s.cfg); agent != sessionconfig.DefaultAgent {
		st.Agent = agent // the fresh context runs as the agent chosen
	}
	if err := s.spawn(ctx, st); err != nil {
		s.mu.Lock()
		s.ended = true // no CLI runs the session now
		s.mu.Unlock()
		s.finish(nil, err)
		return
	}
	s.notify(s.cfg.CurrentModeUpdate())
	s.notify(s.cfg.ConfigOptionUpdate())
	s.notify(s.tr.freshContext(window))
	if c := s.agent.clientCaps(); c.Plan {
		// The approved plan becomes the session's plan once the fresh
		// context that carries it out exists (its ExitPlanMode ended with
		// an error result, which shows no plan).
		s.notify(toolcall.PlanModeUpdate(c, r.plan, r.toolUseID).JSON())
	}
	content, _ := json.Marshal([]map[string]string{{"type": "text", "text": planContinuation + r.plan}})
	msg := claude.NewUserInput(s.ID, content)
	msg.UUID = promptUUID
	if err := s.cli().Send(msg); err != nil {
		s.finish(nil, errSessionEnded)
	}
}

// window is the session's context window.
func (t *translator) window() usage.Window {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.usage.Window()
}

// freshContext starts the usage count of a fresh Claude context on window
// w and returns its usage_update.
func (t *translator) freshContext(w usage.Window) json.RawMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.usage.SetWindow(w)
	return t.usage.FreshContext()
}
