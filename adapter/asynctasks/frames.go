package asynctasks

import (
	"github.com/airwire/airwire/adapter/claude"
)

// Contract "Async tasks": the translator hands the async tasks every CLI
// frame before it reports the frame's tool calls and usage, so a task's
// spawn and output path come before the tool call update of its command.

// Head is what the registry reads of a CLI frame's envelope.
type Head struct {
	Type, Subtype string
	// Root: the frame is of the root conversation, not of a subagent
	// (no parent_tool_use_id).
	Root bool
}

// Frame takes one CLI frame.
func (r *Tasks) Frame(h Head, f *claude.Frame) {
	switch h.Type {
	case "system":
		r.systemFrame(h.Subtype, f)
	case "assistant":
		r.tools.observe(f.Message.Content)
	case "user":
		r.userFrame(f)
	case "result":
		r.resultFrame()
	}
}

// systemFrame takes the task frames. A turn Claude Code starts with no
// prompt open is no task (contract "Async tasks": a task comes only from
// the structured data of a tool result or a task event): its session
// updates reach the client as those of any turn.
func (r *Tasks) systemFrame(subtype string, line *claude.Frame) {
	if !r.enabled {
		return
	}
	f := taskEventOf(line)
	switch subtype {
	case "task_started":
		f.OutputFile = "" // the SDK passes no output path at a start
		r.started(f, false)
	case "task_progress":
		r.progress(f)
	case "task_updated":
		r.updated(f)
	case "task_notification":
		r.notification(f)
	case "background_tasks_changed":
		r.level(f.Tasks)
	}
}

// userFrame takes the tool results of a user message: a backgrounded Bash
// command's task and the output paths in the results' text.
func (r *Tasks) userFrame(m *claude.Frame) {
	if !r.enabled {
		return
	}
	results := toolResults(m.Message.Content)
	if len(results) == 0 {
		return
	}
	structured := ""
	if f, ok := backgroundBashTask(results, m.ToolUseResult.Raw, r.tools); ok {
		r.started(f, true)
		structured = f.ToolUseID
	}
	r.toolResultPaths(results)
	r.markBackgrounded(results, structured)
}

// markBackgrounded notes the Bash calls of results whose command went on
// in the background, for the marker on their result update (contract
// "Async tasks": "The Bash `tool_call_update` of a backgrounded command
// carries `_meta.jetbrains.air.asyncTasks.backgrounded: true`"). Only
// structured data counts: the call the structured result names, a call
// with a known task, or a `run_in_background` input that did not fail.
func (r *Tasks) markBackgrounded(results []toolResultBlock, structured string) {
	for _, res := range results {
		use := r.tools[res.ToolUseID]
		if use.name != "Bash" {
			continue
		}
		if res.ToolUseID == structured || r.hasTaskOf(res.ToolUseID) || (use.runInBackground && !res.IsError) {
			r.backgrounded = append(r.backgrounded, res.ToolUseID)
		}
	}
}

// hasTaskOf reports whether a task the client has, or will have once its
// tool call is known, belongs to tool call id.
func (r *Tasks) hasTaskOf(id string) bool {
	for _, t := range r.order {
		if t.toolCallID == id && !t.ignored && (t.announced || t.held) {
			return true
		}
	}
	return false
}

// TakeBackgrounded returns the Bash calls whose command went on in the
// background (markBackgrounded) and forgets them.
func (r *Tasks) TakeBackgrounded() []string {
	if r == nil {
		return nil
	}
	ids := r.backgrounded
	r.backgrounded = nil
	return ids
}

// resultFrame: a result ends the model turn, so held tasks spawn without
// their tool call.
func (r *Tasks) resultFrame() {
	if !r.enabled {
		return
	}
	r.releaseHeld()
}

// Shutdown finishes every open task as stopped when the agent ends the
// session because the editor went away (contract "Liveness": at shutdown
// each open task ends failed or stopped): the work dies with the CLI, and
// no later event of the CLI reaches the editor.
func (r *Tasks) Shutdown() { r.finishAll(taskStopped) }

// CLIEnded finishes every open task when the CLI ends on its own
// (contract "Liveness"): stopped after a cancel, else failed.
func (r *Tasks) CLIEnded(cancelled bool) {
	if cancelled {
		r.finishAll(taskStopped)
	} else {
		r.finishAll(taskFailed)
	}
}
