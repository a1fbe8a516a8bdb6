package subagents

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/toolcall"
)

// Contract "Native subagent sessions", RFD form: a client that is not AIR
// and declares `clientCapabilities.subagents: {}` (the draft ACP subagent
// RFD) gets each Agent or Task subagent as a child session that its parent
// announces and follows with `subagent_update` (labels, `cancel`
// capability, work state `running`, then `idle` with a stop reason), and
// the messages between the sessions as linked `session_message` pairs
// instead of the tool calls that carried them: the launch's prompt, a
// SubagentHandback report, a SendMessage that reached a child, and the
// reply of a foreground launch. An idle child is not ended: it can run
// again, and its late updates still reach it. The contract names no wire
// for this form; the reference adapter's is reproduced.

// rfdForm is the Router's part for the RFD form: its state and the steps
// that form takes differently.
type rfdForm struct {
	*Router
	// hiddenLaunches are the Agent/Task calls not shown yet, by id.
	hiddenLaunches map[string]*hiddenLaunch
	// hiddenSends are the SendMessage calls not shown yet, by id.
	hiddenSends map[string]*hiddenSend
	// handbacks are the SubagentHandback calls of children not shown yet.
	handbacks map[string]*handback
	// parentCancels counts the root session's cancels (see cancelsAbove).
	parentCancels int
	// cwd is the root session's working directory; cwds are the children's,
	// by session id (or agent id), as their hooks last named them.
	cwd  string
	cwds map[string]string
	// deferred is the delegation of an agent restored on its task_started,
	// taken at the next frame (see deferResume).
	deferred func()
}

// rfdChild is the RFD form's state of a child session.
type rfdChild struct {
	title, role, description string
	workState                string          // running, requires_action, idle, unknown
	missingError             bool            // failed, its error text not known yet
	promptIDs                map[string]bool // the prompts its transcript has
	handedBack               map[string]bool // delegations whose report it handed back
	endedRuns                map[string]bool // delegations whose run ended
	openRequests             int             // its permission and question requests still open
	cancels                  int             // the client's cancels of its session
	reportedCwd              string          // the `cwd` the client holds, "" for its parent's
}

// hiddenLaunch is an Agent/Task call that the client is not shown.
type hiddenLaunch struct{ background bool }

// hiddenSend is a SendMessage call that the client is not shown, with its
// first report and the session that made it.
type hiddenSend struct {
	initial   toolcall.Update
	sender    string
	message   string // its input's message, the prompt of a resumed child
	delivered bool
}

// handback is a SubagentHandback call: its first report, its report text,
// and the delegation whose report it is.
type handback struct {
	initial    toolcall.Update
	message    string
	delegation string
}

// isFinalStatus reports a tool call status that ends the call.
func isFinalStatus(status string) bool { return status == "completed" || status == "failed" }

// setLabels gives the child the parent's labels for it: the title tells
// siblings apart (the agent's name, else the task's short description,
// else its role, the subagent type); the description is the role unless
// it is the title (the reference's rfdLabels).
func (c *childSession) setLabels(name, role, description string) {
	role = strings.TrimSpace(role)
	title := orElse(strings.TrimSpace(name), orElse(strings.TrimSpace(description), role))
	c.title = orElse(title, c.title)
	c.role = orElse(role, c.role)
	if c.role != "" && c.role != c.title {
		c.description = c.role
	}
}

// rfdAnnounce announces the child on its parent as running, with its
// `cancel` capability and its `cwd` when it differs from its parent's,
// then sends its prompt as the parent's message to it, which replaces the
// launch call.
func (r *rfdForm) rfdAnnounce(c *childSession) {
	c.workState = "running"
	r.rfdAnnounceWith(c, map[string]any{"capabilities": map[string]any{"cancel": map[string]any{}},
		"state": map[string]any{"state": "running"}})
	if c.prompt != "" {
		r.publishPrompt(c, c.prompt, c.launchID, c.parentSessionID, true)
	}
	r.publishCwd(c)
}

// publishPrompt sends a message to the child, once per tool use that sent
// it (id, the launch or a SendMessage call). When the message replaces its
// call (replaces), the sender gets its outgoing view too.
func (r *rfdForm) publishPrompt(c *childSession, prompt, id, sender string, replaces bool) {
	if c.promptIDs == nil {
		c.promptIDs = map[string]bool{}
	}
	messageID := id
	if messageID == "" {
		messageID = c.sessionID + ":prompt:" + strconv.Itoa(len(c.promptIDs)+1)
	}
	if c.promptIDs[messageID] {
		return
	}
	c.promptIDs[messageID] = true
	if replaces && sender != "" && id != "" {
		r.sendLinked(id, sender, c.sessionID, prompt)
		return
	}
	u := map[string]any{"sessionUpdate": "session_message", "messageId": messageID,
		"recipientSessionId": c.sessionID, "content": textContent(prompt)}
	if sender != "" {
		u["senderSessionId"] = sender
	}
	r.send(c.sessionID, u)
}

// sendLinked sends a message that the tool call id carried as two session
// messages, each naming the other: the sender's outgoing view, then the
// recipient's incoming one.
func (r *rfdForm) sendLinked(id, sender, recipient, text string) {
	message := func(link string) map[string]any {
		return map[string]any{"sessionUpdate": "session_message", "messageId": id, "senderSessionId": sender,
			"recipientSessionId": recipient, "content": textContent(text), link: id}
	}
	r.send(sender, message("recipientMessageId"))
	r.send(recipient, message("senderMessageId"))
}

func textContent(text string) []any {
	return []any{map[string]any{"type": "text", "text": text}}
}

// rfdLaunch takes a report of an Agent/Task call, which the client is not
// shown until its final report: the reply of a foreground child that did
// not hand its report back replaces its result. Only a launch whose child
// was never announced is shown, as one tool call with its final status; a
// background launch completes before its child starts, so its completion
// is not such a case.
func (r *rfdForm) rfdLaunch(u toolcall.Update, child *childSession, parentSession string) {
	launch := r.hiddenLaunches[u.ToolCallID]
	if launch == nil {
		launch = &hiddenLaunch{}
	}
	var in struct {
		Background bool `json:"run_in_background"`
	}
	if json.Unmarshal(u.RawInput, &in) == nil && in.Background {
		launch.background = true
	}
	if !isFinalStatus(u.Status) {
		r.hiddenLaunches[u.ToolCallID] = launch
		return
	}
	delete(r.hiddenLaunches, u.ToolCallID)
	if child != nil && child.announced {
		if u.Status == "completed" && !launch.background && !child.handedBack[u.ToolCallID] {
			r.launchReply(u, child)
		}
		return
	}
	if launch.background && u.Status == "completed" {
		return
	}
	r.dropPending(u.ToolCallID)
	var initial *toolcall.Update
	if cc := r.control[u.ToolCallID]; cc != nil {
		initial = cc.initial
	}
	delete(r.control, u.ToolCallID)
	r.send(parentSession, unexposedLaunch(initial, u))
}

// launchReply sends the text of a completed launch's result as the child's
// message in its parent's transcript (its id `<launch>:reply`); a result
// without text sends nothing.
func (r *rfdForm) launchReply(u toolcall.Update, child *childSession) {
	if reply := launchReplyMessage(u, child.sessionID, child.parentSessionID); reply != nil {
		r.send(child.parentSessionID, reply)
	}
}

// launchReplyMessage is the `session_message` of the child sessionID to its
// parent that carries the text of a completed launch's result; nil for a
// result without text.
func launchReplyMessage(u toolcall.Update, sessionID, parent string) map[string]any {
	var content []any
	if u.Content != nil {
		for _, raw := range *u.Content {
			var item struct {
				Type    string `json:"type"`
				Content struct {
					Type string `json:"type"`
					Text string `json:"text"`
				} `json:"content"`
			}
			if json.Unmarshal(raw, &item) == nil && item.Type == "content" && item.Content.Type == "text" &&
				strings.TrimSpace(item.Content.Text) != "" {
				content = append(content, map[string]any{"type": "text", "text": item.Content.Text})
			}
		}
	}
	if len(content) == 0 {
		return nil
	}
	return map[string]any{"sessionUpdate": "session_message", "messageId": u.ToolCallID + ":reply",
		"senderSessionId": sessionID, "recipientSessionId": parent, "content": content}
}

// rfdHandback takes a report of a SubagentHandback call of the announced
// child c, which the client is not shown: once it completes, its report
// goes as the child's message to its parent. A failed call delivered
// nothing, so the child is shown the call after all. ok is false for an
// update of another call.
func (r *rfdForm) rfdHandback(u toolcall.Update, parent string, c *childSession) (ok bool) {
	h := r.handbacks[u.ToolCallID]
	if h == nil {
		if u.Meta == nil || u.Meta.ClaudeCode == nil || u.Meta.ClaudeCode.ToolName != "SubagentHandback" {
			return false
		}
		h = &handback{initial: u, delegation: orElse(parent, c.launchID)}
		r.handbacks[u.ToolCallID] = h
	}
	var in struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(u.RawInput, &in) == nil && strings.TrimSpace(in.Message) != "" {
		h.message = in.Message
	}
	if !isFinalStatus(u.Status) {
		return true
	}
	delete(r.handbacks, u.ToolCallID)
	if u.Status == "completed" && h.message != "" {
		r.sendLinked(u.ToolCallID, c.sessionID, c.parentSessionID, h.message)
		if h.delegation != "" {
			if c.handedBack == nil {
				c.handedBack = map[string]bool{}
			}
			c.handedBack[h.delegation] = true
		}
		return true
	}
	r.send(c.sessionID, unexposedLaunch(&h.initial, u))
	return true
}

// rfdSendMessage takes a report of a SendMessage call on its way to the
// session sessionID: the client is not shown it until its final report,
// and then only when its message reached no announced child, as one tool
// call with its final status. ok is false for an update of another call.
func (r *rfdForm) rfdSendMessage(sessionID string, u toolcall.Update) (ok bool) {
	s := r.hiddenSends[u.ToolCallID]
	if s == nil {
		if u.SessionUpdate != "tool_call" || u.Meta == nil || u.Meta.ClaudeCode == nil ||
			u.Meta.ClaudeCode.ToolName != "SendMessage" {
			return false
		}
		s = &hiddenSend{initial: u, sender: sessionID}
		r.hiddenSends[u.ToolCallID] = s
	}
	var in struct {
		Message json.RawMessage `json:"message"`
	}
	var text string
	if json.Unmarshal(u.RawInput, &in) == nil && json.Unmarshal(in.Message, &text) == nil && strings.TrimSpace(text) != "" {
		s.message = text
	}
	if !isFinalStatus(u.Status) {
		return true
	}
	delete(r.hiddenSends, u.ToolCallID)
	if !s.delivered {
		r.send(s.sender, unexposedLaunch(&s.initial, u))
	}
	return true
}

// rfdResume takes a new delegation of the known child c, which keeps its
// session: its `task_started` again, under the call that delegated
// (usually a SendMessage, launch) with its prompt. That call becomes the
// child's current delegation, whose end ends the run; a child that is not
// working runs again; the prompt goes to the child once, as the SendMessage
// call's linked messages when it replaces that call.
func (r *rfdForm) rfdResume(c *childSession, prompt, launch string) {
	if !c.announced {
		return
	}
	if launch != "" && launch != c.launchID {
		r.byLaunch[launch] = c
		c.launchID = launch
	}
	if c.workState != "running" && c.workState != "requires_action" {
		state := "running"
		if c.openRequests > 0 {
			state = "requires_action"
		}
		r.reportState(c, map[string]any{"state": state})
	}
	if strings.TrimSpace(prompt) != "" && launch != "" {
		sender := r.root
		s := r.hiddenSends[launch]
		if s != nil {
			sender = s.sender
		}
		r.publishPrompt(c, prompt, launch, sender, s != nil)
		if s != nil {
			s.delivered = true
		}
	}
	if launch != "" {
		r.flush(launch)
	}
}

// rfdParentPending reports a call made inside a child that is not
// announced yet: it establishes no parent (the RFD forbids announcing a
// child under the root or before its parent), so it waits for its child.
func (r *rfdForm) rfdParentPending(parent string) bool {
	if !r.rfd || parent == "" {
		return false
	}
	p := r.byLaunch[parent]
	return p == nil || !p.announced
}

// rfdFinish reports the end of the child's work: idle, with the stop
// reason of its end. A child that ends before its parent is known stays
// unexposed and is forgotten; the end of an earlier delegation ends
// nothing; an idle child only takes a late error text.
func (r *rfdForm) rfdFinish(c *childSession, state, launch string, end taskEnd) {
	if launch != "" && c.launchID != launch && r.byLaunch[launch] == c {
		return
	}
	if !c.announced {
		r.withdraw(c)
		return
	}
	if c.workState == "idle" {
		if state == "failed" && end.err != "" && c.missingError {
			r.reportState(c, rfdEndState("failed", end))
		}
		return
	}
	if c.launchID != "" {
		r.flush(c.launchID)
	}
	r.reportState(c, rfdEndState(state, end))
	c.missingError = state == "failed" && end.err == "" && !end.unexplained
	if c.launchID != "" {
		if c.endedRuns == nil {
			c.endedRuns = map[string]bool{}
		}
		c.endedRuns[c.launchID] = true
		delete(r.control, c.launchID)
	}
}

// taskEnd is what the CLI says of a task's end: the error text of a
// failure, its reason; unexplained for an end the agent did not see.
type taskEnd struct {
	err, reason string
	unexplained bool
}

// rfdEndState is the work state at the end of a child's work: idle with
// the stop reason (a failure with its error as an internal error), idle
// without one when the cause is unknown (a worker restart, an end the
// agent did not see), unknown for a child that can no longer be observed.
func rfdEndState(state string, end taskEnd) map[string]any {
	if end.unexplained || end.reason == "worker_restart" {
		return map[string]any{"state": "idle"}
	}
	switch state {
	case "completed":
		return map[string]any{"state": "idle", "stopReason": "end_turn"}
	case "cancelled":
		return map[string]any{"state": "idle", "stopReason": "cancelled"}
	case "failed":
		out := map[string]any{"state": "idle", "stopReason": "error"}
		if end.err != "" {
			out["error"] = map[string]any{"code": -32603, "message": end.err}
		}
		return out
	}
	return map[string]any{"state": "unknown"}
}

// reportState sends the child's work state on its parent.
func (r *rfdForm) reportState(c *childSession, state map[string]any) {
	c.workState, _ = state["state"].(string)
	c.missingError = false
	r.send(c.parentSessionID, map[string]any{"sessionUpdate": "subagent_update", "sessionId": c.sessionID,
		"state": state})
}

// withdraw forgets a child that was never announced, and what waited for it.
func (r *rfdForm) withdraw(c *childSession) {
	for i, x := range r.children {
		if x == c {
			r.children = append(r.children[:i], r.children[i+1:]...)
			break
		}
	}
	delete(r.configs, c.sessionID)
	delete(r.cwds, c.sessionID)
	if c.launchID != "" {
		r.dropPending(c.launchID)
		delete(r.control, c.launchID)
		delete(r.byLaunch, c.launchID)
	}
}

// ParentCancelled takes a `session/cancel` of the root session. The AIR
// form ends every child as cancelled; the RFD form reports nothing, since
// a cancel is no evidence that a child stopped: the CLI's task events
// report each child it stopped.
func (r *Router) ParentCancelled() {
	if r.rfd {
		r.form.parentCancels++
		return
	}
	r.finishAll("cancelled")
}

// ChildTask is the task id of the announced child whose session id is id,
// in the RFD form, which the client cancels (the CLI's stop_task stops
// it); ok is false for any other id.
func (r *Router) ChildTask(id string) (taskID string, ok bool) {
	if r == nil || !r.rfd {
		return "", false
	}
	for _, c := range r.children {
		if c.sessionID == id && c.announced {
			c.cancels++
			return c.taskID, true
		}
	}
	return "", false
}

// OpenRequest opens a permission or question request on the session
// sessionID (RFD form): a child session that asks waits on the user, so
// its first open request makes a running child requires_action. The
// returned func, called under the same lock, closes the request: the last
// one makes the child running again, unless the request was withdrawn
// (withdrawn) after a cancel that reaches the child (its own, an
// ancestor's or the root's) came while it was open: the CLI withdrew it as
// it stopped the child, whose task events report it idle next.
func (r *Router) OpenRequest(sessionID string) (done func(withdrawn bool)) {
	var c *childSession
	if r != nil && r.rfd {
		c = r.childOfSession(sessionID)
	}
	if c == nil || !c.announced {
		return func(bool) {}
	}
	atOpen := r.form.cancelsAbove(c)
	c.openRequests++
	if c.openRequests == 1 && c.workState == "running" {
		r.form.reportState(c, map[string]any{"state": "requires_action"})
	}
	return func(withdrawn bool) {
		c.openRequests--
		stopped := withdrawn && r.form.cancelsAbove(c) != atOpen
		if c.openRequests == 0 && c.workState == "requires_action" && !stopped {
			r.form.reportState(c, map[string]any{"state": "running"})
		}
	}
}

// cancelsAbove counts the cancels that reach the child c: its own, its
// ancestors' and the root's. The counts only grow, so a changed sum shows
// that such a cancel came.
func (r *rfdForm) cancelsAbove(c *childSession) int {
	n := r.parentCancels
	seen := map[*childSession]bool{}
	for c != nil && !seen[c] {
		seen[c] = true
		n += c.cancels
		c = r.childOfSession(c.parentSessionID)
	}
	return n
}

// sendMessageResult takes a user frame of the CLI (RFD form): a successful
// SendMessage result that names the agent it resumed (tool_use_result
// `resumedAgentId`) is a delegation of that child, which it takes unless
// that run already ended (the result can come after it). It usually
// follows the child's `task_started`, which took the delegation already. An
// agent from before a load or resume is restored first (rfdRestore).
func (r *rfdForm) sendMessageResult(f *claude.Frame) {
	res := f.ToolUseResult
	if !r.rfd || !res.Success || strings.TrimSpace(res.ResumedAgentID) == "" {
		return
	}
	agentID := strings.TrimSpace(res.ResumedAgentID)
	for _, b := range f.Message.Content {
		s := r.hiddenSends[b.ToolUseID]
		if b.Type != "tool_result" || s == nil {
			continue
		}
		c := r.childOfTask(agentID)
		if c == nil {
			c = r.rfdRestore(agentID, b.ToolUseID)
		}
		if c != nil && !c.endedRuns[b.ToolUseID] {
			r.rfdResume(c, s.message, b.ToolUseID)
		}
		return
	}
}
