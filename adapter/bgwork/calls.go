// Package bgwork keeps the background work of a session that an ACP v2
// client sees in its `background` lists (the v2 prompt lifecycle,
// "Background work") beyond its commands and subagents: the tool calls
// whose tasks go on after their results (a Workflow, a backgrounded MCP
// call), and the other tasks of Claude Code's live background task set,
// listed as `_claude/task` items.
//
// Only a session whose Claude Code spares background work at an interrupt
// reports its lists; the adapter feeds this package only for such a
// session.
package bgwork

import (
	"slices"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/toolcall"
)

// maxReturned bounds the tool calls Work remembers as returned: a task
// joins the live set around the time its call returns.
const maxReturned = 1024

// Tool call statuses v2 adds to v1's.
const (
	Cancelled = "cancelled"
	Paused    = "paused"
)

// taskTools name the task they start in their structured result
// (`tool_use_result.taskId`).
var taskTools = []string{"Monitor", "Workflow"}

// Work is the background work of one root session and its subagent
// sessions that the lists show besides commands and subagents.
type Work struct {
	level    []claude.TaskRef // Claude Code's live background task set, in its order
	calls    map[string]*call // the tool calls whose tasks run on, by task id
	returned []string         // the tool calls that returned, oldest first
}

// call is a tool call whose task goes on in the background.
type call struct {
	use    toolcall.ToolUse
	parent string // the subagent's Agent call that made it ("" at the root)
	paused bool
}

// Item is one entry of a list besides a subagent: a command's terminal
// (TerminalID set), a tool call (ToolCallID set) or another task (TaskID
// and Description), with the Agent call of the subagent whose stream made
// the command or the tool call, or the task of the subagent that runs the
// task ("" at the root).
type Item struct {
	TerminalID      string
	ToolCallID      string
	TaskID          string
	Description     string
	ParentToolUseID string
	ParentTaskID    string
}

// Live is what the adapter knows of a task it saw start: the tool call
// that started it ("" for none), and whether it is a subagent.
type Live struct {
	ToolUseID string
	Subagent  bool
}

// Result is a user line with tool results, as Work reads it.
type Result struct {
	Frame *claude.Frame
	// Use is a tool use that has no result yet, and the Agent call of the
	// subagent that made it; ok is false for one the session does not know.
	Use func(toolUseID string) (use toolcall.ToolUse, ok bool)
	// TaskOf is the live task, not a subagent, that the tool call started
	// ("" for none).
	TaskOf func(toolUseID string) string
}

// Results reads what a user line's tool results tell of the background
// tasks: each returned call no longer holds the task it started, and each
// successful call whose task goes on in the background is registered (a
// Monitor or Workflow call names its task in its structured result; any
// other call is the tool use of a live task), unless the task is not in
// the live set, is housekeeping, or is a command or a subagent, which the
// lists show otherwise. It returns the ids of the registered calls, whose
// results then report them in_progress.
func (w *Work) Results(r Result) map[string]bool {
	var succeeded []claude.Block
	for _, b := range r.Frame.Message.Content {
		if b.Type != "tool_result" || b.ToolUseID == "" {
			continue
		}
		w.returnedCall(b.ToolUseID)
		if !b.IsError {
			succeeded = append(succeeded, b)
		}
	}
	structured := ""
	if len(succeeded) == 1 {
		structured = r.Frame.ToolUseResult.TaskID
	}
	registered := map[string]bool{}
	for _, b := range succeeded {
		use, ok := r.Use(b.ToolUseID)
		if !ok {
			continue
		}
		task := ""
		if slices.Contains(taskTools, use.Name) {
			task = structured
		}
		if task == "" {
			task = r.TaskOf(b.ToolUseID)
		}
		if t, ok := w.task(task); !ok || !listedAsCall(t) {
			continue
		}
		if w.calls == nil {
			w.calls = map[string]*call{}
		}
		c := &call{use: use}
		if r.Frame.Parent != nil {
			c.parent = *r.Frame.Parent
		}
		w.calls[task] = c
		registered[b.ToolUseID] = true
	}
	return registered
}

// listedAsCall tells whether a task of the live set is listed as the tool
// call that started it: not housekeeping, not a command (its terminal is
// listed), not a subagent (its session is).
func listedAsCall(t claude.TaskRef) bool {
	return !t.Ambient && t.Type() != "local_bash" && t.Type() != "local_agent"
}

func (w *Work) returnedCall(id string) {
	if slices.Contains(w.returned, id) {
		return
	}
	w.returned = append(w.returned, id)
	if len(w.returned) > maxReturned {
		w.returned = slices.Delete(w.returned, 0, len(w.returned)-maxReturned)
	}
}

func (w *Work) task(id string) (claude.TaskRef, bool) {
	if id == "" {
		return claude.TaskRef{}, false
	}
	i := slices.IndexFunc(w.level, func(t claude.TaskRef) bool { return t.TaskID == id })
	if i < 0 {
		return claude.TaskRef{}, false
	}
	return w.level[i], true
}

// Ended is the final status of the tool call whose task ended (end is
// Claude Code's word: stopped, failed, else completed: a task that ended
// without saying how, or that the live set dropped, no longer runs and
// reported no failure).
func (w *Work) Ended(task, end string) (toolcall.Update, bool) {
	c := w.calls[task]
	if c == nil {
		return toolcall.Update{}, false
	}
	delete(w.calls, task)
	status := "completed"
	switch end {
	case "stopped", "killed":
		status = Cancelled
	case "failed":
		status = "failed"
	}
	return c.status(status), true
}

// Paused is the update that reports the tool call of task paused, or
// running again, when that changes it (Claude Code pauses a workflow).
func (w *Work) Paused(task string, paused bool) (toolcall.Update, bool) {
	c := w.calls[task]
	if c == nil || c.paused == paused {
		return toolcall.Update{}, false
	}
	c.paused = paused
	if paused {
		return c.status(Paused), true
	}
	return c.status("in_progress"), true
}

func (c *call) status(s string) toolcall.Update {
	u := toolcall.Update{SessionUpdate: "tool_call_update", ToolCallID: c.use.ID, Status: s}
	if c.parent != "" {
		u.Meta = &toolcall.Meta{ClaudeCode: &toolcall.ClaudeCode{ParentToolUseID: c.parent}}
	}
	return u
}

// Level takes Claude Code's new live background task set. The tool calls
// whose tasks it no longer holds end first, completed, before a list
// drops them (Claude Code usually reports a task's end before, which ends
// them then).
func (w *Work) Level(tasks []claude.TaskRef) []toolcall.Update {
	var out []toolcall.Update
	for _, task := range w.order() {
		if !slices.ContainsFunc(tasks, func(t claude.TaskRef) bool { return t.TaskID == task }) {
			u, _ := w.Ended(task, "")
			out = append(out, u)
		}
	}
	w.level = slices.Clone(tasks)
	return out
}

// order is the tasks of the registered calls, in the live set's order,
// then any the set no longer holds.
func (w *Work) order() []string {
	var out []string
	for _, t := range w.level {
		if w.calls[t.TaskID] != nil {
			out = append(out, t.TaskID)
		}
	}
	for task := range w.calls {
		if !slices.Contains(out, task) {
			out = append(out, task)
		}
	}
	return out
}

// Closed: Claude Code's process ended, and its background tasks with it.
// The root session's calls end cancelled; a subagent's call stays as it
// was (it is on the child's stream, which the process's routing owned).
// The live set empties.
func (w *Work) Closed() []toolcall.Update {
	var out []toolcall.Update
	for _, task := range w.order() {
		if w.calls[task].parent == "" {
			u, _ := w.Ended(task, "stopped")
			out = append(out, u)
		}
	}
	w.level, w.returned = nil, nil
	return out
}

// Items are the entries of the lists besides subagents, in the live
// set's order: the terminal of each command that went on in the background
// (terminal tells, by task), each registered call while its task runs,
// and each other task (not housekeeping, a command or a subagent) once it
// started (live tells) and the call that started it, if any, returned.
func (w *Work) Items(terminal func(task string) (Item, bool), live func(task string) (Live, bool)) []Item {
	var out []Item
	for _, t := range w.level {
		if t.Ambient {
			continue
		}
		if it, ok := terminal(t.TaskID); ok {
			out = append(out, it)
			continue
		}
		if c := w.calls[t.TaskID]; c != nil {
			out = append(out, Item{ToolCallID: c.use.ID, ParentToolUseID: c.parent})
			continue
		}
		if t.Type() == "local_bash" || t.Type() == "local_agent" {
			continue
		}
		l, ok := live(t.TaskID)
		if !ok || l.Subagent || l.ToolUseID != "" && !slices.Contains(w.returned, l.ToolUseID) {
			continue
		}
		out = append(out, Item{TaskID: t.TaskID, Description: t.Description, ParentTaskID: t.ParentTaskID})
	}
	return out
}

// TaskOf is the task of the registered tool call toolCallID ("" for none).
func (w *Work) TaskOf(toolCallID string) string {
	for task, c := range w.calls {
		if c.use.ID == toolCallID {
			return task
		}
	}
	return ""
}

// Current is the tool use of each registered call in ids, its parent and
// its status now (in_progress or paused): what a client that resumes the
// session is sent of a call its list holds.
func (w *Work) Current(ids []string) []Running {
	var out []Running
	for _, task := range w.order() {
		c := w.calls[task]
		if !slices.Contains(ids, c.use.ID) {
			continue
		}
		status := "in_progress"
		if c.paused {
			status = Paused
		}
		out = append(out, Running{Use: c.use, Parent: c.parent, Status: status})
	}
	return out
}

// Running is a registered call as Current reports it.
type Running struct {
	Use    toolcall.ToolUse
	Parent string
	Status string
}
