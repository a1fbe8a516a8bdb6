package subagents

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/adapter/notices"
	"github.com/airwire/airwire/adapter/toolcall"
)

// Contract "Native subagent sessions", RFD form, on `session/load`: the
// replay shows each subagent whose metadata file the CLI kept as the
// child session it was live, named by its agent id. Right after the
// message that launched it, the child is announced on its parent
// (`subagent_update` running, with the parent's labels), gets the model
// of its first response, and its own transcript (history.ReadSubagent)
// is replayed on it: the launch's prompt and the messages that
// SendMessage calls delivered as linked `session_message`s, its tool
// calls and text, and a SubagentHandback report as its message to its
// parent. The launch, a delivered SendMessage and a hand-back are not
// shown as tool calls; a launch without metadata is. After the whole
// history each announced child gets its end, the latest first: its task
// notification's, else cancelled when the user stopped it, else its
// foreground launch's result, else idle with no stop reason. A client with
// session notices then hears, in an info `notice` on the root session, how
// many subagents' histories could not be restored: launches without
// metadata and children whose transcript is gone or empty. After the
// load's answer, that end goes again as the child's current state (the
// RFD makes the answer the freshness boundary), with its model as the
// session's model list now names it (publishRfdReplayStates,
// PublishModels). The contract names no wire for this form; the
// reference adapter's (its RfdSubagentReplay) is reproduced.

// rfdReplay is one RFD replay in progress.
type rfdReplay struct {
	l         *Loaded
	root, cwd string // the root session's id and working directory
	rp        *history.Replayer
	swap      history.Swap
	// transcript is the session's transcript, agents the subagent
	// metadata beside it by launch.
	transcript string
	agents     map[string]history.Subagent
	children   map[string]*rfdReplayChild // by launch tool use id
	order      []*rfdReplayChild
	byAgent    map[string]*rfdReplayChild
	sends      []*rfdReplaySend
	handbacks  map[string]*rfdReplayHandback
	// notices is the client's session notices capability; omitted are the
	// launches without metadata, withoutHistory the children replayed
	// without a transcript.
	notices        bool
	omitted        map[string]bool
	withoutHistory int
}

// rfdReplayChild is a child session the replay shows.
type rfdReplayChild struct {
	launch, sessionID, parent string
	rec                       history.Subagent
	in                        subagentIdentity
	announced, promptSent     bool
	handedBack                bool
	launchEnd, notified       string     // the end its launch's result, its task notification tell
	model                     modelEntry // the model entry it was sent
	cwd                       string     // the cwd it was announced with
	responseModel             string     // the model id it came from
}

// rfdReplaySend is a SendMessage call of the history.
type rfdReplaySend struct {
	id, to, message, sender string
	recipient               string // the child it reached, once its delivery was replayed
	shownAsToolCall         bool
	outgoingSent            bool
}

// rfdReplayHandback is a SubagentHandback call of the history.
type rfdReplayHandback struct {
	message      string
	failed, sent bool
}

// replayRfd replays msgs, the stored messages of the root session whose
// transcript is at path, in the RFD form, and is the replay, kept for the
// current states after the load's answer.
func replayRfd(l *Loaded, root, cwd, path string, msgs []history.Message, rp *history.Replayer, swap history.Swap, notices bool) *rfdReplay {
	x := &rfdReplay{l: l, root: root, cwd: cwd, rp: rp, swap: swap, transcript: path, children: map[string]*rfdReplayChild{},
		byAgent: map[string]*rfdReplayChild{}, handbacks: map[string]*rfdReplayHandback{}, notices: notices, omitted: map[string]bool{}}
	if slices.ContainsFunc(msgs, func(m history.Message) bool { return len(launchesOf(m)) > 0 }) {
		x.agents = history.Subagents(path)
	}
	x.scan(msgs, root)
	for _, m := range msgs {
		x.message(m, nil)
	}
	x.finish()
	return x
}

func (x *rfdReplay) send(sessionID string, update any) {
	x.l.host.Notify(sessionID, update)
}

// scan registers the launches, hand-backs, SendMessage calls and launch
// results of msgs, the transcript of the session owner.
func (x *rfdReplay) scan(msgs []history.Message, owner string) {
	for _, m := range msgs {
		var api struct {
			Content []contentBlock `json:"content"`
		}
		_ = json.Unmarshal(m.Message, &api)
		for _, b := range api.Content {
			x.scanBlock(b, owner)
		}
	}
}

func (x *rfdReplay) scanBlock(b contentBlock, owner string) {
	switch {
	case b.Type == "tool_use" && b.ID != "" && isControlTool(b.Name):
		x.register(b, owner)
	case b.Type == "tool_use" && b.ID != "" && b.Name == "SubagentHandback":
		var in struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(b.Input, &in) == nil && strings.TrimSpace(in.Message) != "" {
			x.handbacks[b.ID] = &rfdReplayHandback{message: in.Message}
		}
	case b.Type == "tool_use" && b.ID != "" && b.Name == "SendMessage":
		var in struct {
			To, Message any
		}
		_ = json.Unmarshal(b.Input, &in)
		to, ok1 := in.To.(string)
		message, ok2 := in.Message.(string)
		if ok1 && ok2 {
			x.sends = append(x.sends, &rfdReplaySend{id: b.ID, to: to, message: message, sender: owner})
		}
	case b.Type == "tool_result" && b.ToolUseID != "":
		if h := x.handbacks[b.ToolUseID]; h != nil && b.IsError {
			h.failed = true
		}
		// A background launch answers at once; its result is not the end.
		if c := x.children[b.ToolUseID]; c != nil && !c.rec.Background {
			c.launchEnd = replayEndState(b)
		}
	}
}

// register takes a launch of the session parent; a launch without
// metadata is not shown as a child, and its history counts as omitted.
func (x *rfdReplay) register(b contentBlock, parent string) {
	if _, known := x.children[b.ID]; known {
		return
	}
	rec, ok := x.agents[b.ID]
	if !ok {
		x.omitted[b.ID] = true
		return
	}
	c := &rfdReplayChild{launch: b.ID, sessionID: rec.AgentID, parent: parent, rec: rec}
	_ = json.Unmarshal(b.Input, &c.in)
	x.children[b.ID] = c
	x.order = append(x.order, c)
	x.byAgent[rec.AgentID] = c
}

// message replays m, of the transcript of child (nil: the root's); then
// each child that m launched is announced and its transcript replayed.
func (x *rfdReplay) message(m history.Message, child *rfdReplayChild) {
	// A child's history comes from its own transcript.
	if child == nil && m.ParentToolUseID != "" {
		return
	}
	target := x.root
	if child != nil {
		target = child.sessionID
		if m.Type == "assistant" {
			x.responseModel(child, messageModel(m))
		}
	}
	if m.Type == "user" {
		x.taskNotifications(m)
		if child != nil {
			var ok bool
			if m, ok = x.childContent(child, m); !ok {
				return
			}
		}
	}
	for _, u := range replayOne(x.rp, x.swap, m) {
		if !x.toolCallUpdate(u, child) {
			x.send(target, u)
		}
	}
	for _, launch := range launchesOf(m) {
		c := x.children[launch]
		if c == nil || c.announced {
			continue
		}
		msgs := history.ReadSubagent(x.transcript, c.sessionID)
		if len(msgs) == 0 {
			x.withoutHistory++
		}
		x.announce(c, firstResponseModel(msgs))
		x.scan(msgs, c.sessionID)
		for _, cm := range msgs {
			x.message(cm, c)
		}
		if !c.promptSent && c.in.Prompt != "" {
			x.sendPrompt(c, c.in.Prompt)
		}
	}
}

// messageModel is the model of a stored assistant message.
func messageModel(m history.Message) string {
	var api struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(m.Message, &api)
	return api.Model
}

// firstResponseModel is the model of the first response of a subagent's
// transcript.
func firstResponseModel(msgs []history.Message) string {
	for _, m := range msgs {
		if model := messageModel(m); m.Type == "assistant" && model != "" && model != "<synthetic>" {
			return model
		}
	}
	return ""
}

// announce announces c on its parent as running, with the parent's labels
// and its own directory (announcedCwd), then sends it the model of its
// first response.
func (x *rfdReplay) announce(c *rfdReplayChild, firstModel string) {
	var labels childSession
	labels.setLabels(orElse(c.rec.Name, c.in.Name), orElse(c.rec.AgentType, c.in.SubagentType),
		orElse(c.rec.Description, c.in.Description))
	u := map[string]any{"sessionUpdate": "subagent_update", "sessionId": c.sessionID,
		"state": map[string]any{"state": "running"}}
	if labels.title != "" {
		u["title"] = labels.title
	}
	if labels.description != "" {
		u["description"] = labels.description
	}
	if c.cwd = x.announcedCwd(c); c.cwd != "" {
		u["cwd"] = c.cwd
	}
	x.send(c.parent, u)
	c.announced = true
	x.responseModel(c, firstModel)
}

// responseModel sends the child the model of a response when its entry
// changed. A load replays before the CLI gave the model list, so the entry
// is the model id itself (hostConfig.modelEntry).
func (x *rfdReplay) responseModel(c *rfdReplayChild, model string) {
	e, ok := x.l.config.modelEntry(model)
	if !ok || !c.announced {
		return
	}
	c.responseModel = model
	if e == c.model {
		return
	}
	c.model = e
	x.send(c.sessionID, childModelUpdate(e))
}

// taskNotifications takes the task notifications of a stored user message:
// one whose task id is a child's agent id tells the child's end.
func (x *rfdReplay) taskNotifications(m history.Message) {
	for _, text := range userTexts(m) {
		for _, n := range taskNotification.FindAllStringSubmatch(text, -1) {
			body, _, _ := strings.Cut(n[1], "<result>")
			c := x.byAgent[history.MarkerText(body, "task-id")]
			if state := nativeSubagentState(history.MarkerText(body, "status")); c != nil && state != "" {
				c.notified = state
			}
		}
	}
}

// userTexts are the texts of a stored user message: its string content,
// or its text blocks.
func userTexts(m history.Message) []string {
	var api struct {
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(m.Message, &api)
	var text string
	if json.Unmarshal(api.Content, &text) == nil {
		return []string{text}
	}
	var blocks []contentBlock
	_ = json.Unmarshal(api.Content, &blocks)
	var out []string
	for _, b := range blocks {
		if b.Type == "text" {
			out = append(out, b.Text)
		}
	}
	return out
}

// childContent is the rest of a user message of child to replay once its
// text went out as the child's incoming `session_message`; false when
// nothing is left. A child session has no user: its first text is the
// launch's prompt, a message with origin `coordinator` a SendMessage
// delivery, and any other text harness text that the live child does not
// show. Tool results stay.
func (x *rfdReplay) childContent(c *rfdReplayChild, m history.Message) (history.Message, bool) {
	if m.OriginKind == "task-notification" && m.OriginSubkind == "" {
		return m, false
	}
	var api struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(m.Message, &api)
	content, ok := history.UserContent(api.Content)
	if !ok {
		return m, false
	}
	text := strings.Join(userTexts(history.Message{Message: rawJSON(map[string]any{"content": content})}), "\n")
	if strings.TrimSpace(text) != "" {
		if m.OriginKind == "coordinator" {
			x.sendDelivery(c, m, text)
		} else if !c.promptSent {
			x.sendPrompt(c, text)
		}
	}
	var blocks []json.RawMessage
	if json.Unmarshal(content, &blocks) != nil {
		return m, false
	}
	blocks = slices.DeleteFunc(blocks, func(raw json.RawMessage) bool {
		var b contentBlock
		return json.Unmarshal(raw, &b) == nil && b.Type == "text"
	})
	if len(blocks) == 0 {
		return m, false
	}
	m.Message = rawJSON(map[string]any{"role": orElse(api.Role, "user"), "content": blocks})
	return m, true
}

func rawJSON(v any) json.RawMessage {
	raw, _ := json.Marshal(v)
	return raw
}

// sendPrompt sends the launch's prompt as the parent's linked message to c.
func (x *rfdReplay) sendPrompt(c *rfdReplayChild, text string) {
	c.promptSent = true
	x.sendLinked(c.launch, c.parent, c.sessionID, text)
}

// sendLinked sends the two views of a message that the tool call id
// carried: the sender's outgoing one, then the recipient's incoming one.
func (x *rfdReplay) sendLinked(id, sender, recipient, text string) {
	x.send(sender, linkedMessage(id, sender, recipient, text, "recipientMessageId"))
	x.send(recipient, linkedMessage(id, sender, recipient, text, "senderMessageId"))
}

func linkedMessage(id, sender, recipient, text, link string) map[string]any {
	return map[string]any{"sessionUpdate": "session_message", "messageId": id, "senderSessionId": sender,
		"recipientSessionId": recipient, "content": textContent(text), link: id}
}

// sendDelivery sends a message that a SendMessage call delivered to c. The
// CLI frames the message for the child's model, so its call is the first
// undelivered one to the child whose message the text holds: the message
// then has the call's id, text and sender, linked to the sender's view
// unless the call was shown as a tool call; without a call, it has its
// transcript id and the delivered text.
func (x *rfdReplay) sendDelivery(c *rfdReplayChild, m history.Message, text string) {
	names := []string{c.sessionID, c.rec.Name, c.in.Name}
	for _, call := range x.sends {
		if call.recipient == "" && slices.Contains(names, call.to) && strings.Contains(text, strings.TrimSpace(call.message)) {
			call.recipient = c.sessionID
			u := map[string]any{"sessionUpdate": "session_message", "messageId": call.id, "senderSessionId": call.sender,
				"recipientSessionId": c.sessionID, "content": textContent(call.message)}
			if !call.shownAsToolCall {
				u["senderMessageId"] = call.id
			}
			x.send(c.sessionID, u)
			return
		}
	}
	x.send(c.sessionID, map[string]any{"sessionUpdate": "session_message", "messageId": m.UUID,
		"recipientSessionId": c.sessionID, "content": textContent(text)})
}

// toolCallUpdate reports whether the client is not shown the replayed
// update u, of the transcript of owner (nil: the root's): an update of a
// shown child's launch, of a SendMessage call whose message was delivered,
// or of a successful hand-back of owner. A foreground launch's completion
// goes out as the child's reply, a delivered SendMessage as the sender's
// outgoing message, a hand-back as the child's message to its parent.
func (x *rfdReplay) toolCallUpdate(raw json.RawMessage, owner *rfdReplayChild) bool {
	var u toolcall.Update
	if json.Unmarshal(raw, &u) != nil || (u.SessionUpdate != "tool_call" && u.SessionUpdate != "tool_call_update") {
		return false
	}
	if i := slices.IndexFunc(x.sends, func(s *rfdReplaySend) bool { return s.id == u.ToolCallID }); i >= 0 {
		call := x.sends[i]
		if call.recipient == "" {
			call.shownAsToolCall = true
			return false
		}
		if !call.outgoingSent {
			call.outgoingSent = true
			x.send(call.sender, linkedMessage(call.id, call.sender, call.recipient, call.message, "recipientMessageId"))
		}
		return true
	}
	if h := x.handbacks[u.ToolCallID]; owner != nil && h != nil && !h.failed {
		if !h.sent {
			h.sent, owner.handedBack = true, true
			x.sendLinked(u.ToolCallID, owner.sessionID, owner.parent, h.message)
		}
		return true
	}
	c := x.children[u.ToolCallID]
	if c == nil {
		return false
	}
	if u.Status == "completed" && c.announced && !c.rec.Background && !c.handedBack {
		if reply := launchReplyMessage(u, c.sessionID, c.parent); reply != nil {
			x.send(c.parent, reply)
		}
	}
	return true
}

// endState is how c's work ended: its task notification's state, else
// cancelled when the user stopped it, else its foreground launch's result,
// else idle with no stop reason.
func (c *rfdReplayChild) endState() map[string]any {
	end := c.notified
	if end == "" && c.rec.StoppedByUser {
		end = "cancelled"
	}
	end = orElse(end, c.launchEnd)
	if end == "" {
		return map[string]any{"state": "idle"}
	}
	return rfdEndState(end, taskEnd{})
}

// finish sends the end of each announced child, the latest first, then
// the notice of the subagent histories that could not be restored.
func (x *rfdReplay) finish() {
	for _, c := range slices.Backward(x.order) {
		if c.announced {
			x.sendState(c)
		}
	}
	missing := len(x.omitted) + x.withoutHistory
	if missing == 0 || !x.notices {
		return
	}
	what := "1 subagent"
	if missing > 1 {
		what = strconv.Itoa(missing) + " subagents"
	}
	x.send(x.root, notices.Notice{Severity: "info", Title: "Some subagent history is not available",
		Description: "The history of " + what + " of this session could not be restored."}.Update())
}

func (x *rfdReplay) sendState(c *rfdReplayChild) {
	x.send(c.parent, map[string]any{"sessionUpdate": "subagent_update", "sessionId": c.sessionID, "state": c.endState()})
}

// publishRfdReplayStates runs after the load's answer: each child the
// replay announced gets its replayed end as its current state, since the
// process that ran it is gone, and then its model as the session's model
// list now names it, when that entry differs from the one the replay sent.
// The first child's state goes before the session's commands
// (publishCommands), the rest after (Loaded.PublishModels), as the
// reference's, whose commands go out while it sends that first state.
func (l *Loaded) publishRfdReplayStates() {
	if x := l.rfd; x != nil {
		if i := slices.IndexFunc(x.order, func(c *rfdReplayChild) bool { return c.announced }); i >= 0 {
			x.sendCurrentState(x.order[i])
		}
	}
}

// PublishModels runs after PublishStates and the session's commands (RFD
// form): the first child's model, then each other child's current state
// and model; publishRfdReplayModels in the session.
func (l *Loaded) PublishModels() {
	if l == nil || l.rfd == nil {
		return
	}
	x := l.rfd
	l.rfd = nil
	first := true
	for _, c := range x.order {
		if !c.announced {
			continue
		}
		if !first {
			x.sendCurrentState(c)
		}
		first = false
		if e, ok := l.config.modelEntry(c.responseModel); ok && e != c.model {
			x.send(c.sessionID, childModelUpdate(e))
		}
	}
}
