package adapter

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/airwire/airwire/adapter/asynctasks"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/compaction"
	"github.com/airwire/airwire/adapter/notices"
	"github.com/airwire/airwire/adapter/subagents"
	"github.com/airwire/airwire/adapter/toolcall"
	"github.com/airwire/airwire/adapter/usage"
)

// translator turns one session's CLI messages into ACP updates, in the
// order the CLI wrote them. Frames arrive on the CLI Conn's dispatch
// goroutine; answers to the agent's own control requests arrive on their
// caller's goroutine, so mu keeps every update in one order.
type translator struct {
	s  *Session
	mu sync.Mutex

	tools *toolcall.Session
	usage *usage.Tracker

	// pending are the uuids of prompts sent to the CLI and not yet
	// activated (their echo not seen yet); active says a turn is under way.
	pending []string
	active  bool
	// orphan: abandoned prompts the CLI may still run (turn.go).
	orphan orphans

	// text is the root conversation's text output (chunks.go).
	text rootText
	// errorKind is the error marker of the turn's last assistant message.
	errorKind string

	compaction compaction.Lifecycle
	// cancelled: the last turn that ended was cancelled.
	cancelled bool
	// bg follows Claude Code's background tasks (subagents, commands).
	bg background
	// async publishes background work as AIR async tasks (async_tasks.go).
	async *asynctasks.Tasks
	// failure is the AIR session failure part (session_failure.go).
	failure turnFailure
	// steer holds the turn open for messages injected into it (goal.go).
	steer steerLane
	// suggest is the prompt the CLI predicts next (session_info.go).
	suggest promptSuggestion
	// sub routes the output of native subagent sessions
	// (adapter/subagents, subagents.go).
	sub *subagents.Router
}

func newTranslator(s *Session, tools *toolcall.Session, tracker *usage.Tracker) *translator {
	c := s.agent.clientCaps()
	t := &translator{s: s, tools: tools, usage: tracker,
		compaction: compaction.New(c), bg: newBackground(c),
		failure: newTurnFailure(s), sub: newSessionSubagents(s, c)}
	t.async = newSessionAsyncTasks(t, c)
	t.compaction.AgentCompacting = func() bool { return s.idle.Compacting() }
	t.text = rootText{s: s, compaction: &t.compaction, streamed: map[int]*strings.Builder{}}
	return t
}

// autonomousOrigins are the origins of a cycle Claude Code starts on its
// own: its result does not end a prompt.
var autonomousOrigins = []string{"task-notification", "peer", "coordinator", "observer", "observer-activity"}

// frameHead and assistantLine are a CLI line's frame, under the names of
// what their readers take from it.
type (
	frameHead     = claude.Frame
	assistantLine = claude.Frame
)

// sent records a prompt written to the CLI, for its activation.
func (t *translator) sent(uuid string) {
	t.mu.Lock()
	t.pending = append(t.pending, uuid)
	t.mu.Unlock()
}

// message handles one CLI line that is not a control request.
func (t *translator) message(h *claude.Frame) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sub.ResumeDeferred()
	kind := h.Type
	if h.Type == "user" && h.IsReplay && t.orphan.echo(h.UUID) {
		return
	}
	if h.Type == "result" && !t.active && t.orphan.result() {
		return // an abandoned prompt's run ends; it ends no turn
	}
	if h.Type == "user" && h.IsReplay && slices.Contains(t.pending, h.UUID) {
		t.activate(h.UUID)
	}
	if h.Type == "user" && h.IsReplay {
		t.steer.echoed(h.UUID)
		t.s.goal.echo(h.UUID) // a pending /goal command has started
	}
	autonomous := h.Origin != nil && slices.Contains(autonomousOrigins, h.Origin.Kind)
	if h.Type == "result" && !autonomous && !t.active && len(t.pending) > 0 {
		t.activate(t.pending[0])
	}
	startCycle(t, h)
	t.async.Frame(asyncHead(*h), h)
	switch kind {
	case "stream_event":
		t.sendMaps(t.compaction.StreamFrame(h))
		t.streamEvent(h)
	case "rate_limit_event":
		t.s.idle.NoteRateLimit(rateLimitStatus(h.RateLimitInfo))
	case "assistant":
		t.assistant(h)
	case "system":
		t.system(h)
	case "command_lifecycle":
		commandStarted(t, h)
	case "active_goal":
		t.s.goal.runtime(h)
	case "prompt_suggestion":
		if u := t.suggest.line(h, t.s.agent.clientCaps().AIR.Client); u != nil {
			t.s.notify(u)
		}
	}
	if kind == "user" {
		t.sub.Frame(h)
	}
	t.sendAll(t.acceptedPlanResult(t.toolUpdates(h)))
	if h.Type == "result" && !autonomous {
		syncFast(t, h) // before the turn's usage, as the reference says it
	}
	if u, ok := t.usage.Frame(h, autonomous); ok {
		t.s.notify(u)
	}
	if h.Type == "result" && !autonomous {
		t.result(h)
		t.suggest.resultEnded()
	} else if h.Type == "result" {
		endCycle(t, h)
		t.autonomousResult(h)
		if !t.active && len(t.pending) == 0 {
			t.text.shown = false // only autonomous prose was shown
		}
	}
	// The line may have changed the background work; its updates are sent,
	// so the lists follow them.
	syncLists(t)
}

// activate starts the turn of prompt uuid: its echo arrived, or the result
// of a prompt Claude Code never echoes (a local command).
func (t *translator) activate(uuid string) {
	t.settleHeld(t.bg.hold.take())
	t.pending = slices.DeleteFunc(t.pending, func(p string) bool { return p == uuid })
	t.orphan.turnStarted()
	t.active, t.errorKind, t.cancelled = true, "", false
	t.usage.StartTurn()
	t.compaction.Resume()
	t.failure.startTurn()
	t.s.insertTurn(uuid)
}

// commandStarted: Claude Code took a prompt in (its command_lifecycle
// "started"), the earliest sign of it, before anything the prompt's run
// produces: a compaction that runs at its start, its echo. While no turn
// is active, the prompt's turn is inserted now; otherwise its echo, which
// hands the active turn over, inserts it.
func commandStarted(t *translator, h *claude.Frame) {
	if h.State == "started" && !t.active && slices.Contains(t.pending, h.CommandUUID) {
		t.s.insertTurn(h.CommandUUID)
	}
}

func (t *translator) sendAll(updates []toolcall.Update) {
	for _, u := range updates {
		t.sub.ToolUpdate(u)
	}
}

// contextOccupancy is the context used and the window, for the
// "(N% used)" of a clear-context choice; a window of 0 when nothing is
// known yet.
func (t *translator) contextOccupancy() (used, window int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	used, ok := t.usage.ContextUsed()
	if !ok {
		return 0, 0
	}
	return used, t.usage.Window().Size
}

// contextUsage takes the answer of a get_context_usage request.
func (t *translator) contextUsage(resp json.RawMessage) {
	t.mu.Lock()
	t.usage.ContextUsage(resp)
	t.mu.Unlock()
}

// hook answers a hook_callback of the CLI: the agent's hooks only observe,
// and a PostToolUse hook reports the tool's final response.
func (t *translator) hook(frame json.RawMessage) (any, error) {
	t.mu.Lock()
	t.sendAll(t.tools.Frame(frame))
	t.compaction.Hook(frame)
	t.mu.Unlock()
	return map[string]any{"continue": true}, nil
}

func (t *translator) streamEvent(f *claude.Frame) {
	if f.Parent != nil {
		return
	}
	switch f.Event.Type {
	case "message_start":
		t.text.begin(f.Event.Message.ID)
		if m := f.Event.Message; m.Model != "" && m.Model != "<synthetic>" {
			t.s.idle.NoteRequest(m.Usage.CacheTTL(), m.ID)
		}
	case "content_block_delta":
		switch f.Event.Delta.Type {
		case "text_delta":
			t.text.chunk("agent_message_chunk", f.Event.Index, f.Event.Delta.Text)
		case "thinking_delta":
			t.text.chunk("agent_thought_chunk", f.Event.Index, f.Event.Delta.Thinking)
		}
	}
}

func textUpdate(kind, text, messageID string) map[string]any {
	u := map[string]any{"sessionUpdate": kind, "content": map[string]any{"type": "text", "text": text}}
	if messageID != "" {
		u["messageId"] = messageID
	}
	return u
}

// assistant handles a consolidated message: each text or thinking block
// goes out only for the part the stream did not already send (contract
// "Tool call contract": streamed text is not sent again in full).
func (t *translator) assistant(m *claude.Frame) {
	if m.Parent != nil {
		t.subagentAssistant(*m.Parent, *m)
		return
	}
	t.s.messageRows.note(cmp.Or(m.Message.ID, m.UUID), m.UUID)
	t.errorKind = m.Error
	if m.Message.Model != "<synthetic>" {
		t.s.idle.NoteRequest(m.Message.Usage.CacheTTL(), m.Message.ID) // a response not streamed
	}
	if syntheticLogin(*m) {
		return // the client runs its own login flow; no login text in the chat
	}
	if m.Message.Model == "<synthetic>" && t.compaction.Delivered() {
		return // CLI-local output of a compaction that was already shown
	}
	if m.Message.Model == "<synthetic>" {
		// a local command's output, which a `/mcp` turn replaces
		switch text, show := localReplacement(t.s, assistantText(*m)); show {
		case replaceOutput:
			t.text.say(textUpdate("agent_message_chunk", text, m.Message.ID))
			return
		case dropOutput:
			return
		}
	}
	if t.noteAssistantError(*m) {
		return // the turn's failure record carries the text
	}
	for _, c := range m.Message.Content {
		var kind, text string
		switch c.Type {
		case "text":
			kind, text = "agent_message_chunk", c.Text
		case "thinking":
			kind, text = "agent_thought_chunk", c.Thinking
		default:
			continue
		}
		if tail := t.text.unstreamedTail(text); tail != "" {
			t.text.say(textUpdate(kind, tail, m.Message.ID))
		}
	}
}

// syntheticLogin reports the CLI's own "please run /login" message.
func syntheticLogin(m assistantLine) bool {
	c := m.Message.Content
	return m.Message.Model == "<synthetic>" && len(c) == 1 && c[0].Type == "text" && loginRequired.MatchString(c[0].Text)
}

func (t *translator) system(m *claude.Frame) {
	switch m.Subtype {
	case "informational":
		t.text.informational(m)
	case "status":
		t.sendMaps(t.compaction.StatusFrame(m))
	case "compact_boundary":
		t.sendMaps(t.compaction.BoundaryFrame(m))
	case "local_command_output":
		t.text.localCommandOutput(m)
	case "session_state_changed":
		t.taskEvent(m)
		if m.State == "idle" {
			t.s.titles.atTurnEnd(context.Background(), t.cancelled)
			go t.s.idle.OnIdle() // it reads the translator's usage
		}
	case "memory_recall":
		t.s.notify(memoryRecallUpdate(m))
	case "model_refusal_fallback":
		t.modelRefusalFallback(m)
	case "api_retry":
		t.apiRetry(m)
	case "worker_shutting_down":
		t.failure.workerShutdown = true
	case "elicitation_complete":
		// A URL elicitation of an MCP server ended on the server's side: an
		// editor that takes URL elicitations may close what it opened for it.
		if t.s.agent.clientCaps().URLElicit && m.ElicitationID != "" {
			_ = t.s.agent.conn.Notify("elicitation/complete", map[string]any{"elicitationId": m.ElicitationID})
		}
	case "init":
		syncFast(t, m)
		// Terminal-bound slash commands are not offered to the editor: the
		// first init (or a change) re-publishes the filtered list.
		if m.TerminalSlashCommands != nil && (!t.s.terminalKnown || !slices.Equal(m.TerminalSlashCommands, t.s.terminalCommands)) {
			t.s.terminalCommands, t.s.terminalKnown = m.TerminalSlashCommands, true
			t.s.publishCommands()
		}
		if !t.s.skillsRead {
			t.s.skillsRead = true
			t.s.skills.refresh()
		}
		for _, u := range t.s.mcpStatus.Updates(t.s.startParams.MCPServers, m.MCPServers, t.s.agent.clientCaps().Notices, t.s.agent.clientCaps().URLElicit) {
			if u["sessionUpdate"] == "agent_message_chunk" {
				text, _ := u["content"].(map[string]any)["text"].(string)
				t.s.titles.answer(text) // a transcript line is text of the turn
			}
			t.s.notify(u)
		}
	case "commands_changed":
		t.s.commands = m.Commands
		t.s.skills.forgetPaths()
		t.s.publishCommands()
		t.s.skills.refresh()
	case "task_started", "task_notification", "task_updated", "background_tasks_changed":
		t.sub.Frame(m)
		t.taskEvent(m)
	}
}

// informational shows a free-form notice of the CLI: a `notice` at its
// level for an editor with session notices (none for level info, which
// Claude Code shows only in its transcript mode; one per tool use), else a
// transcript line with the level folded into the text.
func (t *rootText) informational(m *claude.Frame) {
	if t.s.agent.clientCaps().Notices {
		t.informationalNotice(m)
		return
	}
	text := m.Content
	if m.Level != "info" {
		text = "**" + notices.SentenceCase(m.Level) + ":** " + m.Content
	}
	u := textUpdate("agent_message_chunk", text, "")
	u["_meta"] = map[string]any{"claudeCode": map[string]any{"kind": "informational", "level": m.Level}}
	t.say(u)
}

// informationalNotice sends m as a `notice`; the turn remembers its text,
// so that a result that only repeats it is not sent as the answer.
func (t *rootText) informationalNotice(m *claude.Frame) {
	if m.Level == "info" {
		return
	}
	if m.ToolUseID != "" {
		if t.noticedTools[m.ToolUseID] {
			return
		}
		if t.noticedTools == nil {
			t.noticedTools = map[string]bool{}
		}
		t.noticedTools[m.ToolUseID] = true
	}
	severity, fallback := "info", "Claude reported a notice"
	if m.Level == "warning" {
		severity, fallback = "warning", "Claude reported a warning"
	}
	t.s.notify(notices.Split(severity, m.Content, fallback).Update())
	t.noticed = append(t.noticed, notices.Normalize(m.Content))
}

// result ends the active turn: with the usage of the turn, or with the
// reference's error when the turn failed. The result closes the stretch of
// output and the compaction lifecycle it terminates.
func (t *translator) result(r *claude.Frame) {
	shown, compacted := t.text.shown, t.compaction.Delivered()
	defer func() {
		t.text.shown, t.text.noticed, t.text.noticedTools = false, nil, nil
		t.sendMaps(t.compaction.Reset())
	}()
	if !t.active {
		return
	}
	if plan := t.s.plans.take(); plan != nil && exitPlanInterrupted(r) {
		// The turn goes on in a fresh context (clear_context.go).
		t.text.begin("")
		go t.s.continuePlan(*plan)
		return
	}
	t.s.goal.result(r)
	if t.steer.holds() {
		return // the turn goes on with the message injected into it
	}
	t.active = false
	reason, failed := usage.StopReason(r)
	if t.s.activeCancelled() {
		reason, failed = usage.Cancelled, false
	}
	t.cancelled = reason == usage.Cancelled
	if failed {
		t.sendMaps(t.compaction.Interrupt())
		t.failTurn(r)
		return
	}
	if reason == "end_turn" {
		t.text.forwardResult(r, shown, compacted)
	}
	t.sendMaps(t.compaction.Reset())
	t.holdOrSettle(reason)
}

// syncFast reconciles the session's Fast mode with the state an init or
// user-turn result line reports (sessionconfig.Session.SyncFast).
func syncFast(t *translator, h *claude.Frame) {
	if t.s.cfg == nil {
		return
	}
	for _, u := range t.s.cfg.SyncFast(h.FastModeState, h.FastModeDisabledReason) {
		t.s.notify(u)
	}
}

// closeActive ends the turn under way of a session the editor closes: its
// open tool calls get no result any more (toolcall.Session.Unfinished),
// and it ends cancelled with its usage, after its file-change report.
func (t *translator) closeActive() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sendAll(t.tools.Unfinished())
	t.active, t.cancelled = false, true
	reason := t.fileChangesAtTurnEnd(usage.Cancelled)
	t.s.finish(t.usage.PromptResponse(reason), nil)
}
