package adapter

import (
	"encoding/json"
	"slices"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/usage"
)

// subagentHold keeps a prompt's response back while background subagents
// that its turn spawned still run, so their tool calls and the follow-up
// cycle Claude Code starts on their hand-back land inside the prompt (the
// reference's held turn; contract "Native subagent sessions": only an AIR
// client that declares backgroundSubagents gets its response at the result).
//
// A subagent is live from its `task_started` (one with a subagent_type)
// until its `task_notification` or a terminal `task_updated`; a
// `background_tasks_changed` that no longer lists it stops the hold from
// waiting on it. A held turn settles at the result of an autonomous cycle
// that ran (num_turns > 0, or failed), or at the CLI's next idle, once none
// of its subagents is live; a cancelled one settles at either at once, and
// a new prompt's activation settles it first. The hold does no I/O: the
// translator sends what it decides.
type subagentHold struct {
	// live are the subagent tasks under way, by task id: true while a hold
	// waits on them, false once the level signal dropped them.
	live map[string]bool
	// spawned are the subagent tasks the current turn started.
	spawned []string
	// held is the stop reason of a turn whose result came while its
	// subagents still ran; "" when no turn is held.
	held string
	// off: the client ends turns at their result (AIR backgroundSubagents).
	off bool
}

// backgroundSubagents is the AIR capability of a client whose turns end at
// their result while their subagents run.
const backgroundSubagents = "backgroundSubagents"

func newSubagentHold(c caps.Client) subagentHold {
	return subagentHold{live: map[string]bool{}, off: c.AIR.Has(backgroundSubagents)}
}

// taskFrame is the part of a system frame the hold reads.
type taskFrame struct {
	Subtype      string `json:"subtype"`
	TaskID       string `json:"task_id"`
	SubagentType string `json:"subagent_type"`
	State        string `json:"state"`
	Patch        struct {
		Status string `json:"status"`
	} `json:"patch"`
	Tasks []taskRef `json:"tasks"`
}

// taskRef is a task of a background_tasks_changed level signal.
type taskRef struct {
	TaskID string `json:"task_id"`
}

// observe follows one task lifecycle frame; turnOpen says a turn is under
// way or held (a subagent it starts extends its hold). It reports whether
// the frame is the CLI going idle.
func (h *subagentHold) observe(f taskFrame, turnOpen bool) (idle bool) {
	switch f.Subtype {
	case "task_started":
		if f.SubagentType != "" {
			h.live[f.TaskID] = true
			if turnOpen {
				h.spawned = append(h.spawned, f.TaskID)
			}
		}
	case "task_notification":
		delete(h.live, f.TaskID)
	case "task_updated":
		if s := f.Patch.Status; s == "completed" || s == "failed" || s == "killed" {
			delete(h.live, f.TaskID)
		}
	case "background_tasks_changed":
		for id := range h.live {
			h.live[id] = slices.Contains(f.Tasks, taskRef{id})
		}
	case "session_state_changed":
		return f.State == "idle"
	}
	return false
}

// awaiting reports whether a subagent the turn spawned still runs.
func (h *subagentHold) awaiting() bool {
	return !h.off && slices.ContainsFunc(h.spawned, func(id string) bool { return h.live[id] })
}

// result takes a turn's stop reason at its result: it reports whether the
// answer waits for the turn's subagents.
func (h *subagentHold) result(reason string) (held bool) {
	if h.awaiting() {
		h.held = reason
		return true
	}
	h.spawned = nil
	return false
}

// ready returns the stop reason of a held turn that may settle now (its
// subagents ended, or it was cancelled), and forgets it.
func (h *subagentHold) ready(cancelled bool) (reason string, ok bool) {
	if h.held == "" || (!cancelled && h.awaiting()) {
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
func cycleRan(resultLine json.RawMessage) bool {
	var r struct {
		NumTurns int  `json:"num_turns"`
		IsError  bool `json:"is_error"`
	}
	return json.Unmarshal(resultLine, &r) == nil && (r.NumTurns > 0 || r.IsError)
}

// taskEvent follows a subagent lifecycle frame of the CLI; an idle may
// settle a held turn.
func (t *translator) taskEvent(line json.RawMessage) {
	var f taskFrame
	if json.Unmarshal(line, &f) == nil && t.hold.observe(f, t.active || t.hold.held != "") {
		t.settleHeld(t.hold.ready(t.s.activeCancelled()))
	}
}

// holdOrSettle answers the turn whose result stopped with reason, unless
// subagents it spawned still run.
func (t *translator) holdOrSettle(reason string) {
	if !t.hold.result(reason) {
		t.s.finish(t.usage.PromptResponse(reason), nil)
	}
}

// autonomousResult: the end of an autonomous cycle that ran may settle a
// held turn.
func (t *translator) autonomousResult(line json.RawMessage) {
	if cycleRan(line) {
		t.settleHeld(t.hold.ready(t.s.activeCancelled()))
	}
}

// settleHeld answers a held turn whose stop reason the hold released (a
// cancelled turn ends cancelled).
func (t *translator) settleHeld(reason string, ok bool) {
	if !ok {
		return
	}
	if t.s.activeCancelled() {
		reason = usage.Cancelled
	}
	t.s.finish(t.usage.PromptResponse(reason), nil)
}
