package adapter

import (
	"context"
	"encoding/json"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/internal/jsonrpc"
)

// Contract "Async tasks", "Stop request": `_session/async_task/stop`
// stops an announced task through the CLI's stop_task (an autonomous turn
// through an interrupt), publishes `stopped` and one transcript line, and
// answers `{stopped: true}`; an unknown, finished or already stopping task
// gets `{stopped: false}`.

// asyncTaskStopMethod is the editor's stop request.
const asyncTaskStopMethod = "_session/async_task/stop"

type asyncTaskStopParams struct {
	SessionID   string `json:"sessionId"`
	AsyncTaskID string `json:"asyncTaskId"`
}

// stopAsyncTask answers `_session/async_task/stop`.
func (a *Agent) stopAsyncTask(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p asyncTaskStopParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	notStopped := map[string]bool{"stopped": false}
	s, err := a.session(p.SessionID)
	if err != nil {
		return notStopped, nil
	}
	r, t := s.tr.async, s.tr
	t.mu.Lock()
	claimed, autonomous := r.claimStop(p.AsyncTaskID), r.isAutonomous(p.AsyncTaskID)
	t.mu.Unlock()
	if !claimed {
		return notStopped, nil
	}
	release := func() { t.mu.Lock(); r.releaseStop(p.AsyncTaskID); t.mu.Unlock() }
	var stop claude.ControlRequest = claude.StopTask{TaskID: p.AsyncTaskID}
	if autonomous {
		// A prompt that waits would be folded into the turn the interrupt drops.
		if !s.noTurn() {
			release()
			return notStopped, nil
		}
		stop = claude.Interrupt{}
	}
	if err := s.cli().Request(context.WithoutCancel(ctx), stop, nil); err != nil {
		release()
		return nil, err
	}
	t.mu.Lock()
	r.taskStopped(p.AsyncTaskID)
	t.mu.Unlock()
	return map[string]bool{"stopped": true}, nil
}

// noTurn reports whether no prompt of the editor is under way, held or
// queued.
func (s *Session) noTurn() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.turns) == 0
}

// canStop: an announced task that is not a monitor, not ignored, not
// stopping and not finished.
func (r *asyncTasks) canStop(id string) bool {
	t := r.tasks[id]
	return t != nil && t.announced && !t.monitor && !t.ignored && !t.stopping && !t.terminal()
}

// claimStop marks a task as stopping; false when it cannot stop.
func (r *asyncTasks) claimStop(id string) bool {
	if !r.canStop(id) {
		return false
	}
	r.tasks[id].stopping = true
	return true
}

// releaseStop forgets a claim whose stop failed.
func (r *asyncTasks) releaseStop(id string) {
	if t := r.tasks[id]; t != nil && !t.terminal() {
		t.stopping = false
	}
}

func (r *asyncTasks) isAutonomous(id string) bool {
	t := r.tasks[id]
	return t != nil && t.autonomous
}

// taskStopped publishes the stop the user asked for: the state (unless the
// CLI's own end came first) and the one acknowledgement the user gets.
func (r *asyncTasks) taskStopped(id string) {
	t := r.tasks[id]
	if t == nil || !t.announced || t.ignored || t.stopAnnounced {
		return
	}
	t.stopAnnounced = true
	if r.autonomousTurn == t {
		r.autonomousTurn = nil
	}
	r.finish(t, taskStopped, "", fromEvent)
	r.send(noticeOrLine(r.notices, "info", "Task stopped by user", t.name+"."))
}

// noticeOrLine is a `notice` update for a client that takes notices, else
// the bold-label transcript line.
func noticeOrLine(notices bool, severity, title, description string) any {
	if notices {
		return fields{"sessionUpdate": "notice", "severity": severity, "title": title}.set("description", description)
	}
	text := "**" + title + "**"
	if description != "" {
		text = "**" + title + ":** " + description
	}
	return textUpdate("agent_message_chunk", text, "")
}

// autonomousTurnStarted publishes a turn Claude Code started with no
// prompt open (for example on a task notification) as a task that is not
// shown in the transcript: it is the only sign that the agent works. cause
// replaces the description of a task already open.
func (r *asyncTasks) autonomousTurnStarted(cause string) {
	if !r.enabled {
		return
	}
	if t := r.autonomousTurn; t != nil {
		if cause != "" {
			r.publishProgress(t, fields{"description": cause})
		}
		return
	}
	t := r.task("autonomous-turn-" + r.newID())
	t.autonomous, t.startedObserved, t.showInTranscript = true, true, false
	t.name, t.taskType = "Claude is working", "turn"
	t.description = firstNonEmpty(cause, r.lastSummary, "Claude Code started a turn without a prompt.")
	r.lastSummary = ""
	r.autonomousTurn = t
	r.announce(t, announceOpts{withoutToolCall: true})
}

// autonomousTurnEnded ends the task of the autonomous turn, if one runs.
func (r *asyncTasks) autonomousTurnEnded(state string) {
	t := r.autonomousTurn
	if t == nil {
		return
	}
	r.autonomousTurn = nil
	r.finish(t, state, "", fromEvent)
}

// sessionState: the CLI going to running with no prompt open starts an
// autonomous turn; going idle ends it.
func (r *asyncTasks) sessionState(line json.RawMessage, noTurn bool) {
	var m struct {
		State string `json:"state"`
	}
	_ = json.Unmarshal(line, &m)
	previous := r.lastState
	r.lastState = m.State
	switch {
	case m.State == "running" && previous != "running" && noTurn:
		r.autonomousTurnStarted("")
	case m.State == "idle":
		r.autonomousTurnEnded(taskCompleted)
	}
}

// rootOutput: the first root output with no prompt open starts an
// autonomous turn (the state stays running while background agents run).
func (r *asyncTasks) rootOutput(h frameHead, noTurn bool) {
	if r.enabled && r.autonomousTurn == nil && h.Parent == nil && noTurn {
		r.autonomousTurnStarted("")
	}
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
