package asynctasks

import (
	"strings"

	"github.com/airwire/airwire/adapter/claude"
)

// taskEventFrame is the part of a CLI task frame (task_started,
// task_progress, task_updated, task_notification, background_tasks_changed)
// or of a recovered backgrounded Bash task that the async tasks read. Only
// structured data makes a task (contract "Task id and output path").
type taskEventFrame struct {
	claude.Task
	Subtype      string
	ToolUseID    string
	SubagentType *string
	Usage        *claude.Usage
	Status       string
}

// taskEventOf is what the async tasks read of a task frame.
func taskEventOf(f *claude.Frame) taskEventFrame {
	e := taskEventFrame{Task: f.Task, Subtype: f.Subtype, ToolUseID: f.ToolUseID, Usage: f.Usage}
	if name, ok := f.SubagentTypeName(); ok {
		e.SubagentType = &name
	}
	if f.Status != nil {
		e.Status = *f.Status
	}
	return e
}

func trimmed(s string) string { return strings.TrimSpace(s) }

// subagent reports a subagent task: native subagent sessions report it.
func (f taskEventFrame) subagent() bool {
	return f.SubagentType != nil || (f.TaskType != nil && *f.TaskType == "local_agent")
}

// started takes a task_started, or a backgrounded Bash task recovered from
// its tool result (always is: the task is announced even when the frame
// does not say it is backgrounded).
func (r *Tasks) started(f taskEventFrame, always bool) {
	id := trimmed(f.TaskID)
	if id == "" {
		return
	}
	t := r.task(id)
	if f.subagent() {
		r.ignore(t)
		return
	}
	before, wasAnnounced := t.metadata(), t.announced
	r.mergeStarted(t, f)
	if always || backgroundTask(f.IsBackgrounded, f.TaskType) || t.held {
		r.announce(t, announceOpts{})
	}
	if wasAnnounced && encodeField(before) != encodeField(t.metadata()) {
		r.publishMetadata(t)
	}
}

// backgroundTask reports a task that runs in the background: one that
// says so, else one that is neither a shell command nor a subagent.
func backgroundTask(backgrounded *bool, taskType *string) bool {
	if backgrounded != nil {
		return *backgrounded
	}
	return taskType == nil || (*taskType != "local_bash" && *taskType != "local_agent")
}

// mergeStarted takes what a task_started says of a task.
func (r *Tasks) mergeStarted(t *asyncTask, f taskEventFrame) {
	t.startedObserved = true
	if f.TaskType != nil {
		t.taskType = friendlyTaskType(*f.TaskType)
		t.monitor = t.monitor || *f.TaskType == "local_monitor"
	}
	if d := trimmed(f.Description); d != "" {
		t.description = d
	} else if t.description == "Background task" {
		t.description = defaultDescription(t.taskType)
	}
	t.name = t.description
	if w := trimmed(f.WorkflowName); w != "" {
		t.name = w
	}
	switch {
	case t.panelOnly:
		t.showInTranscript = false // a level-only task never gets a card later
	case f.SkipTranscript != nil:
		t.showInTranscript = !*f.SkipTranscript
	}
	if p := trimmed(f.OutputFile); p != "" {
		t.outputFilePath = p
	}
	if id := trimmed(f.ToolUseID); id != "" {
		t.toolCallID = id
	}
	r.mergeToolResultPath(t)
}

// friendlyTaskType is the contract's taskType for an SDK task type.
func friendlyTaskType(v string) string {
	switch v {
	case "local_bash":
		return "shell"
	case "local_workflow":
		return "workflow"
	case "local_monitor", "mcp":
		return "monitor"
	}
	if trimmed(v) == "" {
		return "task"
	}
	return trimmed(v)
}

func defaultDescription(taskType string) string {
	if taskType == "task" {
		return "Background task"
	}
	return strings.ToUpper(taskType[:1]) + taskType[1:]
}

// mergeToolResultPath takes the output path from the text of the task's
// own tool result when no structured source gave one.
func (r *Tasks) mergeToolResultPath(t *asyncTask) {
	if t.outputFilePath != "" || t.toolCallID == "" {
		return
	}
	t.outputFilePath = outputPathOf(r.outputPaths.get(t.toolCallID), t.id)
}

// updated takes a task_updated: its patch may move it to the background,
// change its state, or end it.
func (r *Tasks) updated(f taskEventFrame) {
	id := trimmed(f.TaskID)
	if id == "" || f.Patch == nil {
		return
	}
	t, p := r.task(id), f.Patch
	before := t.outputFilePath
	if d := trimmed(p.Description); d != "" {
		t.description, t.name = d, d
	}
	if o := trimmed(p.OutputFile); o != "" {
		t.outputFilePath = o
	}
	if p.IsBackgrounded != nil && *p.IsBackgrounded {
		r.announce(t, announceOpts{})
	}
	state := taskState(p.Status)
	switch {
	case state == "":
	case state == taskRunning || state == taskPaused:
		if !t.terminal() && t.state != state {
			t.state = state
			r.whenAnnounced(t, func() { r.publishState(t, state, trimmed(p.Error)) })
			return
		}
	default:
		r.finish(t, state, trimmed(p.Error), fromEvent)
		return
	}
	if t.announced && t.outputFilePath != before {
		r.publishMetadata(t)
	}
}

// taskState maps an SDK status to an async task state ("" for none).
func taskState(status string) string {
	switch status {
	case "pending", "running":
		return taskRunning
	case "paused", "completed", "failed":
		return status
	case "killed", "cancelled", "stopped":
		return taskStopped
	}
	return ""
}

// progress takes a task_progress of a known task.
func (r *Tasks) progress(f taskEventFrame) {
	t := r.tasks[trimmed(f.TaskID)]
	if t == nil || t.ignored || !(t.announced || t.held) {
		return
	}
	beforePath, beforeCall := t.outputFilePath, t.toolCallID
	r.mergeToolCall(t, f.ToolUseID)
	if t.terminal() {
		if t.outputFilePath != beforePath {
			r.publishMetadata(t)
		}
		return
	}
	beat := fields{}.set("description", trimmed(f.Description)).set("summary", trimmed(f.Summary)).
		set("lastToolName", trimmed(f.LastToolName))
	if u := taskUsageOf(f.Usage); u != nil {
		beat["usage"] = *u
	}
	if t.outputFilePath != beforePath {
		beat.set("outputFilePath", t.outputFilePath)
	}
	if t.toolCallID != beforeCall {
		beat.set("toolCallId", t.toolCallID)
	}
	r.whenAnnounced(t, func() { r.publishProgress(t, beat) })
	if t.held && t.toolCallID != "" {
		r.announce(t, announceOpts{}) // its tool call came: the spawn, then the held beats
	}
}

// mergeToolCall keeps the first tool call id that a later frame brings.
func (r *Tasks) mergeToolCall(t *asyncTask, id string) {
	if t.toolCallID == "" {
		t.toolCallID = trimmed(id)
	}
	r.mergeToolResultPath(t)
}

// taskUsageOf is a usage with all three numbers, else nil.
func taskUsageOf(u *claude.Usage) *taskUsage {
	if u == nil || u.TotalTokens == nil || u.ToolUses == nil || u.DurationMs == nil {
		return nil
	}
	return &taskUsage{TotalTokens: *u.TotalTokens, ToolUses: *u.ToolUses, DurationMs: *u.DurationMs}
}

// notification takes a task_notification: the task's end.
func (r *Tasks) notification(f taskEventFrame) {
	id, state := trimmed(f.TaskID), taskState(f.Status)
	if id == "" || state == "" || state == taskRunning || state == taskPaused {
		return
	}
	t := r.task(id)
	wasTerminal := t.terminal()
	correctsLevel := wasTerminal && t.terminalSource == fromLevel
	before := t.outputFilePath
	if o := trimmed(f.OutputFile); o != "" {
		t.outputFilePath = o
	}
	r.mergeToolCall(t, f.ToolUseID)
	r.finish(t, state, trimmed(f.Summary), fromEvent)
	if wasTerminal && !correctsLevel && t.announced && t.outputFilePath != before {
		r.publishMetadata(t)
	}
}

// level takes a background_tasks_changed, the SDK's list of live tasks
// (contract "Liveness"). A listed task the registry has not seen is
// announced for the panel only; an announced task the list no longer
// holds is stopped.
func (r *Tasks) level(listed []claude.TaskRef) {
	live := map[string]bool{}
	for _, item := range listed {
		id := trimmed(item.TaskID)
		if id == "" {
			continue
		}
		live[id] = true
		r.levelTask(r.task(id), item)
	}
	for _, t := range r.order {
		if (t.announced || t.held) && !t.ignored && !t.terminal() && !live[t.id] {
			r.finish(t, taskStopped, "", fromLevel)
		}
	}
}

func (r *Tasks) levelTask(t *asyncTask, item claude.TaskRef) {
	if t.ignored || t.terminal() {
		return
	}
	if item.TaskType != nil && *item.TaskType == "local_agent" {
		r.ignore(t)
		return
	}
	if !t.startedObserved {
		t.panelOnly, t.showInTranscript = true, false
	}
	if item.TaskType != nil {
		t.taskType = friendlyTaskType(*item.TaskType)
		t.monitor = t.monitor || *item.TaskType == "local_monitor"
	}
	if d := trimmed(item.Description); d != "" {
		t.description, t.name = d, d
	}
	r.announce(t, announceOpts{})
}

// finishAll ends every open task as state (contract "Liveness": at
// shutdown each open task ends failed or stopped).
func (r *Tasks) finishAll(state string) {
	for _, t := range r.order {
		if (t.announced || t.held) && !t.ignored && !t.terminal() {
			r.finish(t, state, "", fromShutdown)
		}
	}
}

// releaseHeld spawns each held task without its tool call: the prompt
// result ends the model turn (contract "Tool call of a task").
func (r *Tasks) releaseHeld() {
	for _, t := range r.order {
		if t.held {
			r.announce(t, announceOpts{withoutToolCall: true})
		}
	}
}
