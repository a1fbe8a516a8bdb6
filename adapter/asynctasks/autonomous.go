package asynctasks

// Contract "Async tasks": a turn Claude Code starts with no prompt open is
// an async task that is not shown in the transcript.

// autonomousTurnStarted publishes a turn Claude Code started with no
// prompt open (for example on a task notification) as a task that is not
// shown in the transcript: it is the only sign that the agent works. cause
// replaces the description of a task already open.
func (r *Tasks) autonomousTurnStarted(cause string) {
	if !r.enabled {
		return
	}
	if t := r.autonomousTurn; t != nil {
		if cause != "" {
			r.publishProgress(t, fields{"description": cause})
		}
		return
	}
	t := r.task("autonomous-turn-" + r.host.NewID())
	t.autonomous, t.startedObserved, t.showInTranscript = true, true, false
	t.name, t.taskType = "Claude is working", "turn"
	t.description = firstNonEmpty(cause, r.lastSummary, "Claude Code started a turn without a prompt.")
	r.lastSummary = ""
	r.autonomousTurn = t
	r.announce(t, announceOpts{withoutToolCall: true})
}

// AutonomousTurnEnded ends the task of the autonomous turn, if one runs,
// as completed: a prompt's turn started.
func (r *Tasks) AutonomousTurnEnded() { r.autonomousTurnEnded(taskCompleted) }

// autonomousTurnEnded ends the task of the autonomous turn, if one runs.
func (r *Tasks) autonomousTurnEnded(state string) {
	t := r.autonomousTurn
	if t == nil {
		return
	}
	r.autonomousTurn = nil
	r.finish(t, state, "", fromEvent)
}

// sessionState: the CLI going to running with no prompt open starts an
// autonomous turn; going idle ends it.
func (r *Tasks) sessionState(state string, noTurn bool) {
	previous := r.lastState
	r.lastState = state
	switch {
	case state == "running" && previous != "running" && noTurn:
		r.autonomousTurnStarted("")
	case state == "idle":
		r.autonomousTurnEnded(taskCompleted)
	}
}

// rootOutput: the first root output with no prompt open starts an
// autonomous turn (the state stays running while background agents run).
func (r *Tasks) rootOutput(h Head, noTurn bool) {
	if r.enabled && r.autonomousTurn == nil && h.Root && noTurn {
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
