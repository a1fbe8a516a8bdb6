package asynctasks

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/caps"
)

// The task registry and what it publishes (contract "Async tasks",
// "Updates").

// Async task states (contract "Updates": async_task_state_update).
const (
	taskRunning   = "running"
	taskPaused    = "paused"
	taskCompleted = "completed"
	taskFailed    = "failed"
	taskStopped   = "stopped"
)

// Where a terminal state came from: a task event, the background task
// list (contract "Liveness": best effort, a later event corrects it), or
// the end of the session.
const (
	fromEvent    = "event"
	fromLevel    = "level"
	fromShutdown = "shutdown"
)

// fields are some fields of an async task update, by JSON name; an
// absent field is not sent (contract "Updates").
type fields map[string]any

// set adds a field when its value is not empty.
func (f fields) set(name, v string) fields {
	if v != "" {
		f[name] = v
	}
	return f
}

// taskUsage is the usage of a task's progress beat.
type taskUsage struct {
	TotalTokens float64 `json:"totalTokens"`
	ToolUses    float64 `json:"toolUses"`
	DurationMs  float64 `json:"durationMs"`
}

// asyncTask is one task the registry knows: announced to the client, held
// until its tool call is known, or ignored (a subagent or monitor task).
// A finished task stays as a tombstone: the Bash result that proves a
// command went to the background can come after the task's end.
type asyncTask struct {
	id, name, taskType, description string
	toolCallID, outputFilePath      string
	showInTranscript, monitor       bool

	announced, held, ignored bool
	// deferred are the updates of a held task, sent after its spawn.
	deferred []func()
	// startedObserved: a task_started (or a backgrounded Bash result) named
	// it; panelOnly: the background task list announced it first, so it
	// never gets a transcript card.
	startedObserved, panelOnly bool
	stopping, stopAnnounced    bool

	state, terminalSummary, terminalSource string
	// published holds the progress fields the client has, as JSON.
	published map[string]string
}

func (t *asyncTask) terminal() bool {
	return t.state == taskCompleted || t.state == taskFailed || t.state == taskStopped
}

// Host is what the registry needs of its session.
type Host interface {
	// Send publishes an update on the session.
	Send(update any)
	// RouteOf is where the updates of a task that tool call id started
	// go, when not to the session itself (a subagent's child session).
	RouteOf(toolCallID string) (send func(update any), ok bool)
}

// Tasks is a session's async task registry. Its methods run under the
// translator's lock and publish through the host, in order.
type Tasks struct {
	enabled bool
	// notices: the client takes `notice` updates (the stop acknowledgement).
	notices bool
	host    Host

	tasks map[string]*asyncTask
	order []*asyncTask // insertion order: held tasks are released in it
	// outputPaths are the task output paths of recent tool results, by tool
	// call id (contract "Task id and output path").
	outputPaths outputPathsByCall
	// tools are the tool uses of the session: the Monitor exclusion and a
	// backgrounded Bash need the tool's name and input.
	tools toolUses
	// backgrounded are the Bash calls of the current user frame whose
	// command went to the background (markBackgrounded).
	backgrounded []string
}

// New is the async task registry of a session of client c; it publishes
// only to a client that declared asyncTasks (contract "Async tasks").
func New(c caps.Client, host Host) *Tasks {
	return newTasks(c.AIR.Has(caps.AsyncTasks), c.Notices, host)
}

func newTasks(enabled, notices bool, host Host) *Tasks {
	return &Tasks{enabled: enabled, notices: notices, host: host,
		tasks: map[string]*asyncTask{}, outputPaths: newOutputPathsByCall(), tools: toolUses{}}
}

// task returns the task id, creating it with the SDK's defaults.
func (r *Tasks) task(id string) *asyncTask {
	if t := r.tasks[id]; t != nil {
		return t
	}
	t := &asyncTask{id: id, name: "Background task", taskType: "task", description: "Background task",
		showInTranscript: true, state: taskRunning, published: map[string]string{}}
	r.tasks[id] = t
	r.order = append(r.order, t)
	return t
}

// ignore marks a task the client never sees (contract "Async tasks": a
// subagent task is not an async task). An announced task keeps its
// lifecycle, so the client never holds a task without its end.
func (r *Tasks) ignore(t *asyncTask) {
	if t.announced {
		return
	}
	t.ignored, t.held, t.deferred = true, false, nil
}

// whenAnnounced runs send now for an announced task, after the spawn for a
// held one (contract "Tool call of a task": a held task's updates follow
// its spawn, in their order), and not at all otherwise.
func (r *Tasks) whenAnnounced(t *asyncTask, send func()) {
	switch {
	case t.announced:
		send()
	case t.held:
		t.deferred = append(t.deferred, send)
	}
}

// announceOpts: withoutToolCall spawns a held task without its tool call.
type announceOpts struct{ withoutToolCall bool }

// announce sends the spawn of a task once its tool call is known
// (contract "Tool call of a task"); until then the task is held, unless
// it already ended or the caller releases it.
func (r *Tasks) announce(t *asyncTask, o announceOpts) {
	if t.announced || t.ignored {
		return
	}
	if t.toolCallID == "" && !o.withoutToolCall && !t.terminal() {
		t.held = true
		return
	}
	if t.toolCallID != "" && r.tools.name(t.toolCallID) == "Monitor" {
		t.monitor = true
	}
	if t.monitor {
		// Contract "Async tasks": a Monitor's task and a local_monitor task
		// are not async tasks (the reference publishes them as monitors;
		// DEVIATIONS.md entry 9).
		r.ignore(t)
		return
	}
	known := t.metadata().set("description", t.description)
	r.sendTask(t, update("async_task_spawned", t, known, fields{"name": t.name, "taskType": t.taskType,
		"showInTranscript": t.showInTranscript, "canStop": true}))
	t.announced, t.held = true, false
	t.record(known)
	deferred := t.deferred
	t.deferred = nil
	for _, send := range deferred {
		send()
	}
	if t.terminal() {
		r.publishState(t, t.state, t.terminalSummary)
	}
}

// finish moves a task to a terminal state. A terminal state taken from the
// task list yields to a later event (contract "Liveness"); any other
// terminal state is final.
func (r *Tasks) finish(t *asyncTask, state, summary, source string) {
	if t.ignored {
		return
	}
	if t.terminal() && (t.terminalSource != fromLevel || source != fromEvent) {
		return
	}
	t.state, t.terminalSummary, t.terminalSource = state, summary, source
	switch {
	case t.announced:
		r.publishState(t, state, summary)
	case t.held:
		r.announce(t, announceOpts{}) // it ended before its tool call was known
	}
}

// publishMetadata tells the client a new output path or tool call: as
// async_task_progress, also for a task that has ended (contract "Updates":
// a state update carries state and summary; "Tool call of a task": an id
// after the spawn of an ended task goes out as progress). DEVIATIONS.md 26.
func (r *Tasks) publishMetadata(t *asyncTask) {
	if t.outputFilePath == "" && t.toolCallID == "" {
		return
	}
	r.publishProgress(t, t.metadata())
}

// publishProgress sends the fields that changed since the client last got
// them; a beat with nothing new is not sent (contract "Updates").
func (r *Tasks) publishProgress(t *asyncTask, f fields) {
	changed := t.changed(f)
	if len(changed) == 0 {
		return
	}
	r.sendTask(t, update("async_task_progress", t, changed))
	t.record(changed)
}

// publishState sends a state, with the output path and tool call only
// when they changed.
func (r *Tasks) publishState(t *asyncTask, state, summary string) {
	changed := t.changed(t.metadata())
	r.sendTask(t, update("async_task_state_update", t, changed, fields{"state": state}.set("summary", summary)))
	t.record(changed)
}

// sendTask sends an update of t: a task that a subagent's tool call
// started goes to the subagent's session, also after the subagent ended
// (contract "Async tasks"); any other to the session.
func (r *Tasks) sendTask(t *asyncTask, u fields) {
	if t.toolCallID != "" {
		if send, ok := r.host.RouteOf(t.toolCallID); ok {
			send(u)
			return
		}
	}
	r.host.Send(u)
}

// update is an async task update of kind for t with the given fields.
func update(kind string, t *asyncTask, parts ...fields) fields {
	u := fields{"sessionUpdate": kind, "asyncTaskId": t.id}
	for _, p := range parts {
		for k, v := range p {
			u[k] = v
		}
	}
	return u
}

// metadata is the task's output path and tool call, where known.
func (t *asyncTask) metadata() fields {
	return fields{}.set("outputFilePath", t.outputFilePath).set("toolCallId", t.toolCallID)
}

// changed keeps the fields of f whose value the client does not hold.
func (t *asyncTask) changed(f fields) fields {
	out := fields{}
	for name, v := range f {
		if t.published[name] != encodeField(v) {
			out[name] = v
		}
	}
	return out
}

// record notes the fields the client holds now.
func (t *asyncTask) record(f fields) {
	for name, v := range f {
		t.published[name] = encodeField(v)
	}
}

func encodeField(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
