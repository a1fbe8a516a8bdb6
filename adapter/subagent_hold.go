package adapter

import (
	"encoding/json"
	"slices"

	"github.com/airwire/airwire/adapter/caps"
)

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
	// off: the client ends turns at their result (AIR backgroundSubagents).
	off bool
}

// backgroundSubagents is the AIR capability of a client whose turns end at
// their result while their subagents run.
const backgroundSubagents = "backgroundSubagents"

func newSubagentHold(c caps.Client) subagentHold {
	return subagentHold{off: c.AIR.Has(backgroundSubagents)}
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
func cycleRan(resultLine json.RawMessage) bool {
	var r struct {
		NumTurns int  `json:"num_turns"`
		IsError  bool `json:"is_error"`
	}
	return json.Unmarshal(resultLine, &r) == nil && (r.NumTurns > 0 || r.IsError)
}
