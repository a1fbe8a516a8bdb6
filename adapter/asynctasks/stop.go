package asynctasks

// Contract "Async tasks", "Stop request": `_session/async_task/stop`
// stops an announced task through the CLI's stop_task, publishes `stopped` and one transcript line, and
// answers `{stopped: true}`; an unknown, finished or already stopping task
// gets `{stopped: false}`. The adapter sends the CLI's request between
// ClaimStop and Stopped (or ReleaseStop when it fails).

// ClaimStop marks a task as stopping; it is false when the task cannot
// stop: it is not announced, or a monitor, ignored, stopping or finished.
func (r *Tasks) ClaimStop(id string) bool {
	t := r.tasks[id]
	if t == nil || !t.announced || t.monitor || t.ignored || t.stopping || t.terminal() {
		return false
	}
	t.stopping = true
	return true
}

// ReleaseStop forgets a claim whose stop failed.
func (r *Tasks) ReleaseStop(id string) {
	if t := r.tasks[id]; t != nil && !t.terminal() {
		t.stopping = false
	}
}

// Stopped publishes the stop the user asked for, once the CLI took it: the state (unless the
// CLI's own end came first) and the one acknowledgement the user gets.
func (r *Tasks) Stopped(id string) {
	t := r.tasks[id]
	if t == nil || !t.announced || t.ignored || t.stopAnnounced {
		return
	}
	t.stopAnnounced = true
	r.finish(t, taskStopped, "", fromEvent)
	r.host.Send(noticeOrLine(r.notices, "info", "Task stopped by user", t.name+"."))
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
	return fields{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": text}}
}
