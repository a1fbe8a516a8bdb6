package adapter

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/airwire/airwire/adapter/acpv2"
	"github.com/airwire/airwire/adapter/bgoutput"
	"github.com/airwire/airwire/adapter/bgwork"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/permission"
	"github.com/airwire/airwire/adapter/sessionconfig"
	"github.com/airwire/airwire/adapter/subagents"
	"github.com/airwire/airwire/adapter/turns"
	"github.com/airwire/airwire/internal/jsonrpc"
	"github.com/airwire/airwire/internal/poll"
)

// v2Conn is the ACP v2 surface of a connection whose client negotiated the
// draft v2 (nil on a v1 connection). It is two thin mappings: of the
// agent's own turn (adapter/turns: the prompt answered at insertion, the
// foreground work as `state_update`s), and of the v1 requests, answers and
// updates the agent builds (adapter/acpv2).
type v2Conn struct {
	a       *Agent
	updates acpv2.Updates
	// background stamps the `background` lists of the sessions that
	// report them on their states.
	background acpv2.Background

	mu sync.Mutex
	// listed are the sessions whose setup answer carried their commands
	// (none when the list is empty): the commands update the agent sends
	// after the answer is not sent (v2 asks for none; later changes go).
	listed map[string]bool
}

// v2Method is one ACP v2 method.
type v2Method func(c *v2Conn, ctx context.Context, req *jsonrpc.Request) (any, error)

// v2MethodFor is the v2 method table: each v1 method the draft renames is
// served by the v1 method under the mapping of its params and answer;
// nil answers -32601.
func v2MethodFor(name string) v2Method {
	switch name {
	case "initialize":
		return (*v2Conn).initialize
	case "auth/login":
		return v1Method((*Agent).authenticate)
	case "auth/logout":
		return v1Method((*Agent).logout)
	case "session/new":
		return (*v2Conn).newSession
	case "session/prompt":
		return (*v2Conn).prompt
	case "session/cancel":
		return v1Method((*Agent).cancel)
	case "session/close":
		return (*v2Conn).closeSession
	case "session/delete":
		return v1Method((*Agent).deleteSession)
	case "session/list":
		return v1Method((*Agent).listSessions)
	case "session/resume":
		return (*v2Conn).resume
	case "session/fork":
		return (*v2Conn).fork
	case "session/set_config_option":
		return (*v2Conn).setConfigOption
	case "terminal/cancel", "tool_call/cancel":
		return (*v2Conn).cancelBackground
	}
	if m := providerMethod(name); m != nil {
		return v1Method(m)
	}
	return nil
}

// v1Method serves a v2 method whose params and answer v1 shares.
func v1Method(m method) v2Method {
	return func(c *v2Conn, ctx context.Context, req *jsonrpc.Request) (any, error) { return m(c.a, ctx, req) }
}

// call serves req with v1 method m on the v1 params, its answer (sent now
// or later) mapped by answer.
func (c *v2Conn) call(m method, ctx context.Context, req *jsonrpc.Request, params json.RawMessage, answer jsonrpc.ResponseMap) (any, error) {
	v1 := *req
	v1.Params = params
	if req.IsCall() {
		c.a.conn.MapResponse(req.ID, answer)
	}
	return m(c.a, ctx, &v1)
}

// notify sends a session update of sessionID, as v2 when the connection
// speaks it. An update v2 cannot carry is logged and dropped.
func (c *v2Conn) notify(conn *jsonrpc.Conn, sessionID string, update any) {
	if c == nil {
		_ = conn.Notify("session/update", map[string]any{"sessionId": sessionID, "update": update})
		return
	}
	raw, _ := json.Marshal(update)
	mapped, err := c.updates.Map(sessionID, raw)
	if err != nil {
		c.a.opts.Log.Warn("session update not sent to the ACP v2 client", "session", sessionID, "err", err)
		return
	}
	for _, u := range mapped {
		if u["sessionUpdate"] == "available_commands_update" && c.takeListed(sessionID) {
			continue
		}
		c.send(conn, sessionID, u)
		if child, state, ok := c.updates.ChildState(sessionID, u); ok {
			c.notify(conn, child, state)
		}
	}
}

// send sends a v2 update of sessionID, with the list it carries. A replay
// carries none: the session reports its lists from the snapshot after it.
func (c *v2Conn) send(conn *jsonrpc.Conn, sessionID string, u map[string]any) {
	if !c.updates.InReplay(sessionID) {
		u = c.background.Stamp(sessionID, u)
	}
	_ = conn.Notify("session/update", map[string]any{"sessionId": sessionID, "update": u})
}

// startBackground makes session id report its `background` lists when
// its CLI spares background work at an interrupt (perTaskStopAffordance,
// which a client of the RFD form of subagent sessions gets, and a
// session's options can set), so that session/cancel leaves the listed
// work running, as v2 requires. An AIR client reports none: its
// background work goes as async tasks.
func (c *v2Conn) startBackground(id string, perTaskStop bool) {
	if c != nil && perTaskStop {
		c.background.Changed(acpv2.Report{SessionID: id}, nil)
	}
}

// syncBackground takes the current lists of root session rootID and its
// child sessions, and sends what reports a change: the update that lets
// the client cancel each terminal and tool call a list adds, and the
// states that carry the lists.
func (c *v2Conn) syncBackground(rootID string, lists []subagents.BackgroundList) {
	if c == nil || !c.background.Reports(rootID) {
		return
	}
	for _, l := range lists {
		items := make([]acpv2.Item, 0, len(l.Items)+len(l.Subagents))
		for _, it := range l.Items {
			items = append(items, backgroundItem(it))
		}
		for _, id := range l.Subagents {
			items = append(items, acpv2.Item{"type": "subagent", "sessionId": id})
		}
		r := acpv2.Report{SessionID: l.SessionID, Items: items, State: l.State, Parent: l.Parent}
		for _, n := range c.background.Changed(r, c.terminalCancel(l.SessionID, false)) {
			c.send(c.a.conn, n.SessionID, n.Update)
		}
	}
}

// backgroundItem is a list entry as v2 carries it.
func backgroundItem(it bgwork.Item) acpv2.Item {
	switch {
	case it.TerminalID != "":
		return acpv2.Item{"type": "terminal", "terminalId": it.TerminalID}
	case it.ToolCallID != "":
		return acpv2.Item{"type": "tool_call", "toolCallId": it.ToolCallID}
	}
	return acpv2.Item{"type": "_claude/task", "taskId": it.TaskID, "description": it.Description}
}

// terminalCancel makes the terminal_update that lets the client cancel a
// listed terminal of session sessionID (once, or again).
func (c *v2Conn) terminalCancel(sessionID string, again bool) func(acpv2.Item) (map[string]any, bool) {
	return func(it acpv2.Item) (map[string]any, bool) {
		id, _ := it["terminalId"].(string)
		return c.updates.AdvertiseCancel(sessionID, id, again)
	}
}

// reportsBackground tells whether session id's client gets its
// `background` lists.
func (c *v2Conn) reportsBackground(id string) bool {
	return c != nil && c.background.Reports(id)
}

func (c *v2Conn) takeListed(sessionID string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	was := c.listed[sessionID]
	delete(c.listed, sessionID)
	return was
}

// foreground reports session id's foreground work: v2 sends it as
// `state_update`s, v1 reports none.
func (c *v2Conn) foreground(id string) turns.Reporter {
	if c == nil {
		return turns.Unreported{}
	}
	return v2Foreground{c: c, id: id}
}

// v2Foreground is the v2 mapping of a session's foreground work.
type v2Foreground struct {
	c  *v2Conn
	id string
}

func (f v2Foreground) send(u any)                  { f.c.notify(f.c.a.conn, f.id, u) }
func (f v2Foreground) Running()                    { f.send(acpv2.State("running")) }
func (f v2Foreground) AwaitingUser()               { f.send(acpv2.State("requires_action")) }
func (f v2Foreground) Ended(outcome turns.Outcome) { f.send(acpv2.Idle(outcome)) }
func (f v2Foreground) Failed(err error)            { f.send(acpv2.Failed(err)) }

// v2Prompt is the v2 mapping of a turn: the prompt is answered once Claude
// Code takes it in, after its user_message; a turn that ends or fails
// before that answers with an error.
type v2Prompt struct {
	c         *v2Conn
	id        json.RawMessage
	sessionID string
	prompt    json.RawMessage
	inserted  bool
}

func (p *v2Prompt) Inserted(messageID string) {
	p.inserted = true
	p.c.notify(p.c.a.conn, p.sessionID, acpv2.UserMessage(messageID, p.prompt))
	_ = p.c.a.conn.Respond(p.id, acpv2.PromptAnswer(messageID), nil)
}

func (p *v2Prompt) Ended(outcome turns.Outcome) {
	if !p.inserted {
		_ = p.c.a.conn.Respond(p.id, nil, acpv2.NotInserted(outcome))
	}
}

func (p *v2Prompt) Failed(err error) {
	if !p.inserted {
		_ = p.c.a.conn.Respond(p.id, nil, err)
	}
}

// prompt starts a turn whose answer is its insertion.
func (c *v2Conn) prompt(ctx context.Context, req *jsonrpc.Request) (any, error) {
	params, err := acpv2.PromptParams(req.Params)
	if err != nil {
		return nil, err
	}
	var p struct {
		SessionID string          `json:"sessionId"`
		Prompt    json.RawMessage `json:"prompt"`
	}
	_ = json.Unmarshal(params, &p)
	events := &v2Prompt{c: c, id: req.ID, sessionID: p.SessionID, prompt: p.Prompt}
	if err := c.a.startTurn(ctx, params, events); err != nil {
		return nil, err
	}
	return nil, jsonrpc.ErrAsyncResponse
}

// newSession: v1's, its answer with the session's commands.
func (c *v2Conn) newSession(ctx context.Context, req *jsonrpc.Request) (any, error) {
	params, err := acpv2.SetupParams(req.Params, true)
	if err != nil {
		return nil, err
	}
	return c.call((*Agent).newSession, ctx, req, params, func(res json.RawMessage, err error) (any, error) {
		if err != nil {
			return nil, err
		}
		return c.setupAnswer(res, "", true)
	})
}

// fork: v1's fork, which starts the forked session, answered as a setup.
func (c *v2Conn) fork(ctx context.Context, req *jsonrpc.Request) (any, error) {
	params, err := acpv2.SetupParams(req.Params, false)
	if err != nil {
		return nil, err
	}
	return c.call((*Agent).forkSession, ctx, req, params, func(res json.RawMessage, err error) (any, error) {
		if err != nil {
			return nil, err
		}
		return c.setupAnswer(res, "", true)
	})
}

// resume is v1's resume, or with replayFrom {type: start} v1's load, which
// replays the history first (each replayed message cleared before its
// first chunk). The foreground state's snapshot goes before the answer.
func (c *v2Conn) resume(ctx context.Context, req *jsonrpc.Request) (any, error) {
	replay, err := acpv2.Replays(req.Params)
	if err != nil {
		return nil, err
	}
	params, err := acpv2.SetupParams(req.Params, replay)
	if err != nil {
		return nil, err
	}
	var p sessionParams
	_ = json.Unmarshal(params, &p)
	m := (*Agent).resumeSession
	if replay {
		m = (*Agent).loadSession
		c.updates.Replaying(p.SessionID, true)
	}
	return c.call(m, ctx, req, params, func(res json.RawMessage, err error) (any, error) {
		children := c.updates.Replaying(p.SessionID, false)
		if err != nil {
			return nil, err
		}
		for _, n := range children {
			c.send(c.a.conn, n.SessionID, n.Update)
		}
		state := "idle"
		if s, serr := c.a.session(p.SessionID); serr == nil {
			s.titles.publishCurrent()
			state = s.fg.State()
			publishRunningCalls(s.tr, c.background.ToolCalls(p.SessionID))
		}
		for _, n := range c.background.Current(p.SessionID, c.terminalCancel(p.SessionID, true)) {
			c.send(c.a.conn, n.SessionID, n.Update)
		}
		c.notify(c.a.conn, p.SessionID, acpv2.State(state))
		return c.setupAnswer(res, p.SessionID, false)
	})
}

// setupAnswer is the v2 answer of a setup whose v1 answer is res: with the
// session's commands, which the agent then does not send as an update.
func (c *v2Conn) setupAnswer(res json.RawMessage, id string, withID bool) (any, error) {
	if id == "" {
		var r sessionParams
		_ = json.Unmarshal(res, &r)
		id = r.SessionID
	}
	var cmds []any
	if s, err := c.a.session(id); err == nil {
		raw, _ := json.Marshal(sessionconfig.Commands(s.commands, s.terminalCommands))
		_ = json.Unmarshal(raw, &cmds)
	}
	c.mu.Lock()
	if c.listed == nil {
		c.listed = map[string]bool{}
	}
	c.listed[id] = true
	c.mu.Unlock()
	return acpv2.SetupResponse(res, cmds, withID)
}

// closeSession: v1's; the client's tool calls of the session are
// forgotten.
func (c *v2Conn) closeSession(ctx context.Context, req *jsonrpc.Request) (any, error) {
	res, err := (*Agent).closeSession(c.a, ctx, req)
	if err == nil {
		var p sessionParams
		_ = json.Unmarshal(req.Params, &p)
		c.updates.Forget(p.SessionID)
		c.background.Forget(p.SessionID)
	}
	return res, err
}

// setConfigOption: v1's, with a config_option_update before the answer
// (v2 asks for one at every change, so other attached clients see it).
func (c *v2Conn) setConfigOption(ctx context.Context, req *jsonrpc.Request) (any, error) {
	params, err := acpv2.SetConfigOptionParams(req.Params)
	if err != nil {
		return nil, err
	}
	var p sessionParams
	_ = json.Unmarshal(params, &p)
	return c.call((*Agent).setConfigOption, ctx, req, params, func(res json.RawMessage, err error) (any, error) {
		if err != nil {
			return nil, err
		}
		answer, update, err := acpv2.ConfigOptionsResponse(res)
		if err == nil {
			c.notify(c.a.conn, p.SessionID, update)
		}
		return answer, err
	})
}

// request sends the editor a request of the agent, in v2's shape when the
// connection speaks it (a permission request asks about its tool call as a
// subject, with its own title).
func (c *v2Conn) request(conn *jsonrpc.Conn, method string, params json.RawMessage) (*jsonrpc.Outgoing, error) {
	if c != nil && method == permission.MethodRequestPermission {
		v2, err := c.updates.PermissionRequest(params)
		if err != nil {
			return nil, err
		}
		params = v2
	}
	return conn.Start(method, params)
}

// answer is the v1 answer a v2 answer to the agent's request means.
func (c *v2Conn) answer(method string, result json.RawMessage) json.RawMessage {
	if c != nil && method == permission.MethodRequestPermission {
		return acpv2.PermissionResponse(result)
	}
	return result
}

// cancelBackground stops the background task a v2 client cancels, by its
// tool call (tool_call/cancel) or by its display terminal, which the agent
// names after its tool call (terminal/cancel). Work the session's list
// does not hold is refused with -32602. The answer comes when Claude Code
// stopped the task, and the list that drops it after the answer.
func (c *v2Conn) cancelBackground(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p struct {
		SessionID  string `json:"sessionId"`
		ToolCallID string `json:"toolCallId"`
		TerminalID string `json:"terminalId"`
	}
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	s, err := c.a.session(p.SessionID)
	if err != nil {
		return nil, err
	}
	s.tr.mu.Lock()
	task := listedTask(s.tr, p.SessionID, p.TerminalID, p.ToolCallID)
	if task != "" {
		s.tr.bg.stopStarted(task)
	}
	s.tr.mu.Unlock()
	if task == "" {
		return nil, notCancellable(p.SessionID, p.TerminalID, p.ToolCallID)
	}
	go c.stopListed(context.WithoutCancel(ctx), s, req.ID, task, func() error {
		return notCancellable(p.SessionID, p.TerminalID, p.ToolCallID)
	}, func() bool { return listedTask(s.tr, p.SessionID, p.TerminalID, p.ToolCallID) != "" })
	return nil, jsonrpc.ErrAsyncResponse
}

// stopListed asks Claude Code to stop task and answers the cancel id with
// the outcome: a task that ended meanwhile (listed no longer tells) is
// refused as work no list holds. Then the terminal end and the lists the
// cancel held go out, the terminal's last output once Claude Code's stop
// notice reached its file.
func (c *v2Conn) stopListed(ctx context.Context, s *Session, id json.RawMessage, task string, refused func() error, listed func() bool) {
	err := s.cli().Request(ctx, claude.StopTask{TaskID: task}, nil)
	awaitTaskEnd(s.tr, task)
	s.tr.mu.Lock()
	if err != nil && !listed() {
		err = refused()
	}
	path, offset, ok := s.tr.bg.stopOutput(task)
	s.tr.mu.Unlock()
	if err != nil {
		_ = c.a.conn.Respond(id, nil, err)
	} else {
		_ = c.a.conn.Respond(id, map[string]any{}, nil)
	}
	if ok {
		bgoutput.AwaitGrowth(path, offset, bgoutput.StopNoticeWait)
	}
	s.tr.mu.Lock()
	defer s.tr.mu.Unlock()
	stopAnswered(s.tr, task)
}

// awaitTaskEnd waits a moment for the translator to handle the end of
// task: Claude Code writes a task's end before its answer to stop_task
// (or its refusal, for a task that ended meanwhile), but the answer
// reaches the agent directly and the end through the translator.
func awaitTaskEnd(t *translator, task string) {
	poll.Until(endWait, 5*time.Millisecond, func() bool {
		t.mu.Lock()
		defer t.mu.Unlock()
		return t.bg.tasks[task] == nil
	})
}

// endWait bounds how long a stop's answer waits for the task's end.
const endWait = 200 * time.Millisecond

// notCancellable is the -32602 of a cancel of work no list holds.
func notCancellable(sessionID, terminalID, toolCallID string) error {
	what, data := "Tool call "+toolCallID+" is not running in the background", map[string]string{"sessionId": sessionID, "toolCallId": toolCallID}
	if terminalID != "" {
		what, data = "Terminal "+terminalID+" is not a command running in the background", map[string]string{"sessionId": sessionID, "terminalId": terminalID}
	}
	raw, _ := json.Marshal(data)
	return &jsonrpc.WireError{Code: jsonrpc.ErrInvalidParams.Code, Message: "Invalid params: " + what + ", so it cannot be cancelled.", Data: raw}
}

// initialize again: the connection stays v2, so a repeat that asks for an
// older version is refused with -32600.
func (c *v2Conn) initialize(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p acpv2.InitializeParams
	if err := decode(req, &p); err != nil {
		return nil, err
	}
	if v, ok := p.Requested(); !ok || v < 2 {
		return nil, &jsonrpc.WireError{Code: jsonrpc.ErrInvalidRequest.Code, Message: "Invalid request",
			Data: json.RawMessage(`"a repeated initialize must request the selected protocol version 2"`)}
	}
	return (*Agent).initialize(c.a, ctx, req)
}
