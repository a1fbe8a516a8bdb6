package subagents

import (
	"fmt"
	"slices"

	"github.com/airwire/airwire/adapter/claude"
)

// Contract "Native subagent sessions", AIR form: the life of a child
// session. Claude Code's `task_started` of a subagent opens it (announced
// once the session that launched it is known), its end (`task_updated`
// or `task_notification`) closes it with `subagent_state_update`; a
// cancel of the root session ends every child as cancelled. In the RFD
// form a child's end makes it idle, and a new `task_started` of a known
// child is a new delegation of it (rfd.go).

// subagentTaskFrame is the part of a task lifecycle frame that the child
// sessions read.
type subagentTaskFrame struct {
	Subtype, TaskID, ToolUseID, SubagentType string
	Description, Prompt, Status, Reason      string
	Patch                                    claude.TaskPatch
}

// subagentTaskOf is what the child sessions read of a task frame.
func subagentTaskOf(line *claude.Frame) subagentTaskFrame {
	f := subagentTaskFrame{Subtype: line.Subtype, TaskID: line.TaskID, ToolUseID: line.ToolUseID,
		Description: line.Description, Prompt: line.Prompt, Reason: line.Reason}
	f.SubagentType, _ = line.SubagentTypeName()
	if line.Status != nil {
		f.Status = *line.Status
	}
	if line.Patch != nil {
		f.Patch = *line.Patch
	}
	return f
}

// taskFrame follows one task lifecycle frame of the CLI.
func (r *Router) taskFrame(line *claude.Frame) {
	if !r.on {
		return
	}
	f := subagentTaskOf(line)
	switch f.Subtype {
	case "task_started":
		r.taskStarted(f)
	case "background_tasks_changed":
		r.level = liveLevel(line.Tasks)
	case "task_notification":
		r.finishTask(f.TaskID, f.Status, f.ToolUseID, taskEnd{reason: f.Reason})
		if f.ToolUseID != "" {
			r.dropPending(f.ToolUseID)
		}
	case "task_updated":
		switch f.Patch.Status {
		case "completed", "failed", "killed":
			end := taskEnd{}
			if f.Patch.Status == "failed" {
				end.err = f.Patch.Error
			}
			r.finishTask(f.TaskID, f.Patch.Status, "", end)
		case "running", "pending":
			// The CLI can run a finished agent again without a new task_started.
			if !r.rfd {
				r.restore.taskResumed(f.TaskID, r.restore.sendMessagePrompt(f.TaskID, nil))
			} else if c := r.childOfTask(f.TaskID); c != nil {
				r.form.rfdResume(c, "", "")
			}
		}
	}
}

// taskStarted opens a child for a subagent task; a task that is not a
// subagent forgets what waited under its tool call.
func (r *Router) taskStarted(f subagentTaskFrame) {
	if r.restore.restoreStarted(f) {
		return
	}
	if f.SubagentType == "" {
		if f.ToolUseID != "" {
			r.dropPending(f.ToolUseID)
			delete(r.control, f.ToolUseID)
		}
		return
	}
	previous := r.childOfTask(f.TaskID)
	if previous == nil && r.rfd {
		// rfd_restore.go
		if c := r.form.rfdRestore(f.TaskID, f.ToolUseID); c != nil {
			r.form.deferResume(c, f.Prompt, f.ToolUseID)
			return
		}
	}
	if previous != nil && r.rfd {
		r.form.rfdResume(previous, f.Prompt, f.ToolUseID)
		return
	}
	if previous != nil && !previous.ended {
		return
	}
	var cc controlCall
	if c := r.control[f.ToolUseID]; c != nil {
		cc = *c
	}
	id := cc.identity
	c := &childSession{taskID: f.TaskID, sessionID: r.nextSessionID(f.TaskID), launchID: f.ToolUseID,
		parentSessionID: r.root,
		name:            subagentName(id.Name, orElse(id.Description, f.Description), orElse(id.SubagentType, f.SubagentType), f.TaskID),
		task:            subagentTask(orElse(id.Prompt, f.Prompt), orElse(id.Description, f.Description)),
		prompt:          orElse(f.Prompt, id.Prompt)}
	// a new generation of an agent that finished (a SendMessage resume)
	// has its parent already
	parent := cc.parentSession
	if parent == "" && previous != nil {
		parent = r.resumedParent(previous)
	}
	if parent != "" {
		c.parentSessionID = parent
	}
	c.setLabels(id.Name, orElse(id.SubagentType, f.SubagentType), orElse(id.Description, f.Description))
	r.children = append(r.children, c)
	if f.ToolUseID != "" {
		r.byLaunch[f.ToolUseID] = c
	}
	if parent != "" || f.ToolUseID == "" {
		r.announce(c)
		r.flush(f.ToolUseID)
	}
}

func orElse(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// childOfTask is the latest generation of task id.
func (r *Router) childOfTask(taskID string) *childSession {
	for i := len(r.children) - 1; i >= 0; i-- {
		if r.children[i].taskID == taskID {
			return r.children[i]
		}
	}
	return nil
}

// childOfSession is the child whose session id (or task id) is id.
func (r *Router) childOfSession(id string) *childSession {
	for i := len(r.children) - 1; i >= 0; i-- {
		if c := r.children[i]; c.sessionID == id || c.taskID == id {
			return c
		}
	}
	return nil
}

// nextSessionID is the session id of a new generation of task id: the
// task id, then `<task id>:generation:<n>`.
func (r *Router) nextSessionID(taskID string) string {
	r.gens[taskID]++
	if n := r.gens[taskID]; n > 1 {
		return fmt.Sprintf("%s:generation:%d", taskID, n)
	}
	return taskID
}

// announce sends `subagent_spawned` on the child's parent session, then
// the configuration the child reported so far.
func (r *Router) announce(c *childSession) {
	if c.announced {
		return
	}
	if r.rfd {
		r.form.rfdAnnounce(c)
		r.publishConfig(c, nil)
		return
	}
	u := map[string]any{"sessionUpdate": "subagent_spawned", "subagentSessionId": c.sessionID,
		"name": c.name, "task": c.task, "capabilities": map[string]any{}}
	if c.prompt != "" {
		u["prompt"] = c.prompt
	}
	r.send(c.parentSessionID, u)
	c.announced = true
	r.publishConfig(c, nil)
}

// nativeSubagentState is the child state of an SDK task status; "" for a
// status that does not end it.
func nativeSubagentState(status string) string {
	switch status {
	case "completed", "failed", "disconnected":
		return status
	case "killed", "cancelled", "stopped":
		return "cancelled"
	}
	return ""
}

// finishTask ends the child of task id (or of the tool call launch): it
// is announced if it was not, gets what waited for it, and its end goes
// to its parent session. A child ends once.
func (r *Router) finishTask(taskID, status, launch string, end taskEnd) {
	state := nativeSubagentState(status)
	c := r.childOfTask(taskID)
	if launch != "" {
		c = r.byLaunch[launch]
		if c != nil && c.taskID != taskID {
			return
		}
	}
	if state == "" || c == nil || c.ended {
		return
	}
	if r.rfd {
		r.form.rfdFinish(c, state, launch, end)
		return
	}
	r.announce(c)
	if c.launchID != "" {
		r.flush(c.launchID)
	}
	r.send(c.parentSessionID, map[string]any{"sessionUpdate": "subagent_state_update",
		"subagentSessionId": c.sessionID, "state": state})
	c.ended = true
	delete(r.configs, c.sessionID)
	delete(r.control, c.launchID)
}

// finishAll ends every child that runs, the latest first (a cancel of the
// root session: AIR's form ends them as cancelled).
func (r *Router) finishAll(state string) {
	if !r.on {
		return
	}
	for _, c := range slices.Backward(r.children) {
		if !c.ended {
			r.finishTask(c.taskID, state, "", taskEnd{unexplained: true})
		}
	}
	clear(r.pending)
	r.npending = 0
	r.restore.forgetRestores()
}
