package adapter

import (
	"slices"

	"github.com/airwire/airwire/adapter/asynctasks"
	"github.com/airwire/airwire/adapter/bgoutput"
	"github.com/airwire/airwire/adapter/bgwork"
	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/subagents"
	"github.com/airwire/airwire/adapter/toolcall"
	"github.com/airwire/airwire/adapter/usage"
)

// liveTask is a background task of Claude Code that has not ended (the
// reference's liveBackgroundTasks): from its `task_started` until its
// `task_notification` or a terminal `task_updated`.
type liveTask struct {
	toolUseID string // the tool call that started it
	subagent  bool
	// unlisted: a background_tasks_changed no longer lists this subagent,
	// so no hold waits on it (its end may have been lost).
	unlisted bool
}

// taskFrame is the part of a task lifecycle system frame that is read.
type taskFrame struct {
	Subtype      string `json:"subtype"`
	TaskID       string `json:"task_id"`
	ToolUseID    string `json:"tool_use_id"`
	SubagentType string `json:"subagent_type"`
	State        string `json:"state"`
	Status       string `json:"status"` // a task_notification's end
	Patch        struct {
		Status string `json:"status"`
	} `json:"patch"`
	Tasks []taskRef `json:"tasks"`
}

// taskRef is a task of a background_tasks_changed level signal.
type taskRef = claude.TaskRef

// taskFrameOf is what the lifecycle reads of a system line.
func taskFrameOf(f *claude.Frame) taskFrame {
	t := taskFrame{Subtype: f.Subtype, TaskID: f.TaskID, ToolUseID: f.ToolUseID, State: f.State, Tasks: f.Tasks}
	if f.Status != nil {
		t.Status = *f.Status
	}
	if f.Patch != nil {
		t.Patch.Status = f.Patch.Status
	}
	t.SubagentType, _ = f.SubagentTypeName()
	return t
}

// end is how a task's end says it ended: stopped, failed or completed.
func (f taskFrame) end() string {
	if f.Subtype == "task_notification" {
		return f.Status
	}
	if f.Patch.Status == "killed" {
		return "stopped"
	}
	return f.Patch.Status
}

// ends reports whether the frame is a task's end.
func (f taskFrame) ends() bool {
	if f.Subtype == "task_notification" {
		return true
	}
	s := f.Patch.Status
	return f.Subtype == "task_updated" && (s == "completed" || s == "failed" || s == "killed")
}

// tasks are the live background tasks of a session, by task id.
type tasks map[string]*liveTask

// level takes the live set of a background_tasks_changed: a shell task it
// does not list is gone; a subagent stays known (a foreground one is never
// listed) but no longer holds a turn.
func (ts tasks) level(listed []taskRef) {
	in := map[string]bool{}
	for _, r := range listed {
		in[r.TaskID] = true
	}
	for id, t := range ts {
		switch {
		case !t.subagent && !in[id]:
			delete(ts, id)
		case t.subagent:
			t.unlisted = !in[id]
		}
	}
}

// runningTerminals keeps the display terminal of a command that went to
// the background open until its task ends (contract "Zed conventions": a
// terminal client is told of the command's exit, not of the Bash call's
// return). Only a client with the terminal channel that is not AIR.
type runningTerminals struct {
	enabled bool
	byTask  map[string]terminalOf
	order   []string // the tasks of byTask, in the order they went on
	// readOutput: the session's client gets its background lists (ACP v2),
	// so a terminal shows the command's output, read from its output file
	// while the command runs and when it ends, before its exit.
	readOutput bool
}

// terminalOf is the Bash tool call whose terminal a background task runs.
type terminalOf struct {
	toolCallID string
	parent     string // the subagent's Agent call, "" at the root
	outputFile string // where Claude Code writes the command's output ("" unknown)
	// tail follows the output file, with readOutput; following: its
	// polls run.
	tail      *bgoutput.Tail
	following bool
}

func newRunningTerminals(c caps.Client) runningTerminals {
	return runningTerminals{enabled: c.TerminalChannel() && !c.AIR.Client, byTask: map[string]terminalOf{}}
}

// backgroundBash returns the background task and the Bash tool call of a
// user message whose one Bash result says its command went on in the
// background; toolName tells the name of a pending tool use.
func backgroundBash(m *claude.Frame, toolName func(string) string) (task string, term terminalOf, ok bool) {
	id := m.ToolUseResult.BackgroundTaskID
	if id == "" {
		return "", terminalOf{}, false
	}
	var bash []claude.Block
	for _, b := range m.Message.Content {
		if b.Type == "tool_result" && toolName(b.ToolUseID) == "Bash" {
			bash = append(bash, b)
		}
	}
	if len(bash) != 1 {
		return "", terminalOf{}, false
	}
	term = terminalOf{toolCallID: bash[0].ToolUseID, outputFile: asynctasks.ResultOutputFile(bash[0].Content, id)}
	if m.Parent != nil {
		term.parent = *m.Parent
	}
	return id, term, true
}

// started keeps the terminal of a live background task open: the Bash
// result's updates lose their terminal_exit.
func (r *runningTerminals) started(task string, term terminalOf, updates []toolcall.Update) {
	if old, known := r.byTask[task]; known {
		term.tail, term.following = old.tail, old.following
	} else {
		r.order = append(r.order, task)
	}
	if term.tail == nil && r.readOutput && term.outputFile != "" {
		term.tail = bgoutput.New(term.outputFile)
	}
	r.byTask[task] = term
	for i := range updates {
		u := &updates[i]
		if u.ToolCallID != term.toolCallID || u.Meta == nil || u.Meta.TerminalExit == nil {
			continue
		}
		u.Meta.TerminalExit = nil
		if *u.Meta == (toolcall.Meta{}) {
			u.Meta = nil
		}
	}
}

// ended returns the updates that end the terminal of a task that ended:
// what its output file added since the last read (the command's whole
// output, when nothing was shown), then its exit.
func (r *runningTerminals) ended(task string) []toolcall.Update {
	term, ok := r.byTask[task]
	if !ok {
		return nil
	}
	delete(r.byTask, task)
	r.order = slices.DeleteFunc(r.order, func(t string) bool { return t == task })
	var out []toolcall.Update
	if term.tail != nil {
		term.tail.Halt()
		if text, replaces, ok := term.tail.Read(true); ok {
			out = append(out, term.outputUpdate(text, replaces))
		}
	}
	return append(out, term.update(&toolcall.Meta{TerminalExit: &toolcall.TerminalExit{TerminalID: term.toolCallID}}))
}

// update is a tool_call_update of the terminal's tool call with meta.
func (term terminalOf) update(meta *toolcall.Meta) toolcall.Update {
	if term.parent != "" {
		meta.ClaudeCode = &toolcall.ClaudeCode{ParentToolUseID: term.parent}
	}
	return toolcall.Update{SessionUpdate: "tool_call_update", ToolCallID: term.toolCallID, Meta: meta}
}

// taskOf is the task of the running terminal id ("" for none).
func (r *runningTerminals) taskOf(id string) string {
	for task, t := range r.byTask {
		if t.toolCallID == id {
			return task
		}
	}
	return ""
}

// item is the list entry of the terminal of task, when one runs.
func (r *runningTerminals) item(task string) (bgwork.Item, bool) {
	t, ok := r.byTask[task]
	return bgwork.Item{TerminalID: t.toolCallID, ParentToolUseID: t.parent}, ok
}

// background is what a session follows of Claude Code's background work:
// its live tasks, the turn they hold, the terminals they keep open, and,
// for a client that gets the lists, the tool calls whose tasks run on.
type background struct {
	tasks     tasks
	hold      subagentHold
	terminals runningTerminals
	work      bgwork.Work
	// stopping are the tasks of the client's cancels of listed work that
	// Claude Code has not answered: the lists wait for the answers, and so
	// does the end of a stopped command's terminal (the rest of its output
	// and its exit), which is held meanwhile.
	stopping map[string]int
	held     []string // the tasks whose terminals end at the answers
}

// syncLists sends the background lists when they changed, unless a
// cancel's answer is still to go first. It runs after every CLI frame, so
// a session whose client gets no lists builds none.
func syncLists(t *translator) {
	v2 := t.s.agent.v2.Load()
	if len(t.bg.stopping) == 0 && v2.reportsBackground(t.s.ID) {
		v2.syncBackground(t.s.ID, backgroundLists(t))
	}
}

// stopStarted: the client cancels the listed work of task.
func (b *background) stopStarted(task string) {
	if b.stopping == nil {
		b.stopping = map[string]int{}
	}
	b.stopping[task]++
}

// stopOutput is the output file of the command of task, whose end is held
// for a cancel, and what of it was shown: its stop notice may be still to
// come (ok false: no such terminal, or no file to read).
func (b *background) stopOutput(task string) (path string, offset int64, ok bool) {
	term, known := b.terminals.byTask[task]
	if !known || term.tail == nil || !slices.Contains(b.held, task) {
		return "", 0, false
	}
	path, offset = term.tail.Unread()
	return path, offset, true
}

// stopAnswered: the cancel of task was answered. The terminal ends it held
// go out, and the lists once no other cancel waits.
func stopAnswered(t *translator, task string) {
	if t.bg.stopping[task]--; t.bg.stopping[task] <= 0 {
		delete(t.bg.stopping, task)
	}
	if len(t.bg.stopping) == 0 {
		for _, task := range t.bg.held {
			t.sendAll(t.bg.terminals.ended(task))
		}
		t.bg.held = nil
	}
	syncLists(t)
}

// listedTask is the task of the terminal or the tool call that the list
// of session sessionID holds ("" when it holds none).
func listedTask(t *translator, sessionID, terminalID, toolCallID string) string {
	for _, l := range backgroundLists(t) {
		if l.SessionID != sessionID {
			continue
		}
		for _, it := range l.Items {
			switch {
			case terminalID != "" && it.TerminalID == terminalID:
				return t.bg.terminals.taskOf(terminalID)
			case terminalID == "" && toolCallID != "" && it.ToolCallID == toolCallID:
				return t.bg.work.TaskOf(toolCallID)
			}
		}
	}
	return ""
}

// lists are the background lists of the session and its announced
// subagent sessions now.
func backgroundLists(t *translator) []subagents.BackgroundList {
	live := func(task string) (bgwork.Live, bool) {
		l := t.bg.tasks[task]
		if l == nil {
			return bgwork.Live{}, false
		}
		return bgwork.Live{ToolUseID: l.toolUseID, Subagent: l.subagent}, true
	}
	return t.sub.BackgroundLists(t.s.fg.State(), t.bg.work.Items(t.bg.terminals.item, live))
}

func newBackground(c caps.Client) background {
	return background{tasks: tasks{}, hold: newSubagentHold(c), terminals: newRunningTerminals(c)}
}

// observe follows one task lifecycle frame; turnOpen says a turn is under
// way or held (a subagent it starts extends its hold). It returns the
// updates to send, and whether the frame is the CLI going idle.
func (b *background) observe(f taskFrame, turnOpen bool) (out []toolcall.Update, idle bool) {
	switch {
	case f.Subtype == "task_started":
		b.tasks[f.TaskID] = &liveTask{toolUseID: f.ToolUseID, subagent: f.SubagentType != ""}
		if f.SubagentType != "" && turnOpen {
			b.hold.spawn(f.TaskID)
		}
	case f.ends() && b.stopping[f.TaskID] > 0:
		// Its output file gets the stop's last words.
		b.held = append(b.held, f.TaskID)
		if u, ok := b.work.Ended(f.TaskID, f.end()); ok {
			out = append(out, u)
		}
		delete(b.tasks, f.TaskID)
	case f.ends():
		out = append(out, b.terminals.ended(f.TaskID)...)
		if u, ok := b.work.Ended(f.TaskID, f.end()); ok {
			out = append(out, u)
		}
		delete(b.tasks, f.TaskID)
	case f.Subtype == "task_updated" && slices.Contains([]string{"paused", "running", "pending"}, f.Patch.Status):
		// Claude Code pauses a workflow, and runs it again.
		if u, ok := b.work.Paused(f.TaskID, f.Patch.Status == "paused"); ok {
			out = append(out, u)
		}
	case f.Subtype == "background_tasks_changed":
		b.tasks.level(f.Tasks)
		out = append(out, b.work.Level(f.Tasks)...)
	case f.Subtype == "session_state_changed":
		idle = f.State == "idle"
	}
	return out, idle
}

// taskEvent follows a task lifecycle frame of the CLI: a task's end may
// exit its terminal, and an idle may settle a held turn.
func (t *translator) taskEvent(line *claude.Frame) {
	f := taskFrameOf(line)
	t.bg.terminals.readOutput = t.s.agent.v2.Load().reportsBackground(t.s.ID)
	out, idle := t.bg.observe(f, t.active || t.bg.hold.held != "")
	t.sendAll(out)
	if idle {
		t.settleHeld(t.bg.hold.ready(t.s.activeCancelled(), t.bg.tasks))
	}
}

// toolUpdates are the tool call updates of a CLI frame, with the terminal
// of a command that went to the background kept open.
func (t *translator) toolUpdates(f *claude.Frame) []toolcall.Update {
	if f.Type != "user" {
		return t.tools.Line(f)
	}
	t.tools.MarkBackgrounded(t.async.TakeBackgrounded())
	t.tools.StoppedByCancel(t.s != nil && t.s.activeCancelled())
	t.bg.terminals.readOutput = t.s != nil && t.s.agent.v2.Load().reportsBackground(t.s.ID)
	updates := t.bg.userFrame(f, t.tools)
	followOutputs(t)
	return updates
}

// userFrame reports a user message through tools; when its Bash result
// says the command went on in the background and the task still runs, the
// terminal stays open. For a client that gets the lists, a call whose task
// runs on in the background stays in_progress after its result. The calls
// are looked up before tools forgets them.
func (b *background) userFrame(f *claude.Frame, tools *toolcall.Session) []toolcall.Update {
	var task string
	var term terminalOf
	ok := false
	if b.terminals.enabled {
		task, term, ok = backgroundBash(f, tools.ToolName)
	}
	var running map[string]bool
	if b.terminals.readOutput {
		running = b.work.Results(bgwork.Result{Frame: f, Use: func(id string) (toolcall.ToolUse, bool) {
			use, _, ok := tools.Use(id)
			return use, ok
		}, TaskOf: b.tasks.startedBy})
	}
	updates := tools.Line(f)
	if ok && b.tasks[task] != nil {
		b.terminals.started(task, term, updates)
	}
	for i, u := range updates {
		if running[u.ToolCallID] && u.SessionUpdate == "tool_call_update" && u.Status == "completed" {
			updates[i].Status = "in_progress"
		}
	}
	return updates
}

// publishRunningCalls sends the whole tool_call of each call in ids that
// runs on in the background, with its status now: v2 requires it before
// the answer to a resume whose snapshot lists the call.
func publishRunningCalls(t *translator, ids []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []toolcall.Update
	for _, r := range t.bg.work.Current(ids) {
		out = append(out, t.tools.Current(r.Use, r.Parent, r.Status))
	}
	t.sendAll(out)
}

// startedBy is the live task, not a subagent, that tool call toolUseID
// started ("" for none).
func (ts tasks) startedBy(toolUseID string) string {
	for id, t := range ts {
		if t.toolUseID == toolUseID && !t.subagent {
			return id
		}
	}
	return ""
}

// holdOrSettle answers the turn whose result stopped with reason, unless
// subagents it spawned still run.
func (t *translator) holdOrSettle(reason string) {
	if !t.bg.hold.result(reason, t.bg.tasks) {
		reason = t.fileChangesAtTurnEnd(reason) // contract "Agent file-change report"
		t.s.finish(t.usage.PromptResponse(reason), nil)
		return
	}
	// A turn held for its background work ends its foreground work at its
	// result all the same: the hold only delays v1's answer.
	t.s.fg.EndWork(t.usage.PromptResponse(reason))
}

// autonomousResult: the end of an autonomous cycle that ran may settle a
// held turn.
func (t *translator) autonomousResult(r *claude.Frame) {
	if cycleRan(r) {
		t.settleHeld(t.bg.hold.ready(t.s.activeCancelled(), t.bg.tasks))
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
	reason = t.fileChangesAtTurnEnd(reason) // contract "Agent file-change report"
	t.s.finish(t.usage.PromptResponse(reason), nil)
}

// outputUpdate is the terminal update of text the tail read: it replaces
// what the terminal shows, or appends to it.
func (term terminalOf) outputUpdate(text string, replaces bool) toolcall.Update {
	data := &toolcall.TerminalData{TerminalID: term.toolCallID, Data: text}
	if replaces {
		return term.update(&toolcall.Meta{TerminalOutput: data})
	}
	return term.update(&toolcall.Meta{TerminalOutputDelta: data})
}

// followOutputs starts polling the output file of each running terminal
// that has a tail not followed yet; each poll shows what the file added.
func followOutputs(t *translator) {
	for _, task := range t.bg.terminals.order {
		term := t.bg.terminals.byTask[task]
		if term.tail == nil || term.following {
			continue
		}
		term.following = true
		t.bg.terminals.byTask[task] = term
		term.tail.Follow(func() {
			t.mu.Lock()
			defer t.mu.Unlock()
			if term.tail.Stopped() {
				return
			}
			if text, replaces, ok := term.tail.Read(false); ok {
				t.sendAll([]toolcall.Update{term.outputUpdate(text, replaces)})
			}
		})
	}
}

// stopOutputs stops following every output file: the session ended.
func stopOutputs(t *translator) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, term := range t.bg.terminals.byTask {
		if term.tail != nil {
			term.tail.Halt()
		}
	}
}

// cliClosed: Claude Code's background tasks end with its process. Every
// output file stops being followed, and the terminals of the root
// session's commands exit (a subagent's stays as it was: it is on the
// child's stream, whose routing the process owned).
func (r *runningTerminals) cliClosed() []toolcall.Update {
	var out []toolcall.Update
	for _, task := range slices.Clone(r.order) {
		term := r.byTask[task]
		if term.tail != nil {
			term.tail.Halt()
		}
		if term.parent != "" {
			continue
		}
		delete(r.byTask, task)
		r.order = slices.DeleteFunc(r.order, func(t string) bool { return t == task })
		out = append(out, term.update(&toolcall.Meta{TerminalExit: &toolcall.TerminalExit{TerminalID: term.toolCallID}}))
	}
	return out
}
