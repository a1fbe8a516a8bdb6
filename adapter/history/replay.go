package history

import (
	"encoding/json"
	"strings"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/sessionfailure"
	"github.com/airwire/airwire/adapter/toolcall"
	"github.com/airwire/airwire/internal/lazyre"
	"github.com/airwire/airwire/internal/lookup"
)

// Replay returns, in order, the `session/update` params.update objects
// that `session/load` sends for the stored messages before its response,
// as the reference replays a history to a plain or a Zed client: user and
// agent text and images as `user_message_chunk` and `agent_message_chunk`
// (with the user row's uuid or the assistant message's API id as
// messageId), thinking as `agent_thought_chunk`, tool uses and results as
// `tool_call` and `tool_call_update`, and the plan tools (TodoWrite, the
// Task* tools) as `plan`.
//
// render renders the tool calls (the client's caps and the session's cwd).
// Each report goes out whole, with no field tracking, as the reference's
// replay sends them. tasks is the loaded session's toolcall.Session: it
// gets the plan tools, so the task list the replay rebuilds is the one
// later turns of the session change.
func Replay(msgs []Message, render toolcall.Renderer, tasks *toolcall.Session) []json.RawMessage {
	return ReplayWith(msgs, render, tasks, nil)
}

// Swap sees each stored message in order; when ok, update replaces what
// the replay would send for that message (an AIR typed record at the
// message's position).
type Swap func(m Message) (update json.RawMessage, ok bool)

// ReplayWith is Replay with swap consulted for each message (nil swaps
// nothing).
func ReplayWith(msgs []Message, render toolcall.Renderer, tasks *toolcall.Session, swap Swap) []json.RawMessage {
	r := NewReplayer(render, tasks)
	var out []json.RawMessage
	for _, m := range msgs {
		if swap != nil {
			if u, ok := swap(m); ok {
				out = append(out, u)
				continue
			}
		}
		out = append(out, r.Message(m)...)
	}
	return out
}

// Replayer replays stored messages one at a time, for a caller that sends
// each message's updates somewhere of its own (the AIR child sessions).
// Its state is the tool uses that have no result yet, as the reference's
// tool use cache keeps them, across all the messages it is given.
type Replayer struct {
	render toolcall.Renderer
	tasks  *toolcall.Session
	uses   map[string]toolcall.ToolUse
	// parent is the ParentToolUseID of the message being replayed.
	parent string
}

// NewReplayer starts a replay; render and tasks are as for Replay.
func NewReplayer(render toolcall.Renderer, tasks *toolcall.Session) *Replayer {
	return &Replayer{render: render, tasks: tasks, uses: map[string]toolcall.ToolUse{}}
}

// Message returns the updates of m, as Replay sends them. The updates of a
// subagent's message (m.ParentToolUseID set) carry its launch as
// `_meta.claudeCode.parentToolUseId`, as the reference stamps them.
func (r *Replayer) Message(m Message) []json.RawMessage {
	r.parent = m.ParentToolUseID
	return r.message(m)
}

// apiMessage is the part of a stored API message the replay reads.
type apiMessage struct {
	ID      string          `json:"id"`
	Role    string          `json:"role"`
	Model   string          `json:"model"`
	Content json.RawMessage `json:"content"`
}

func (r *Replayer) message(m Message) []json.RawMessage {
	var api apiMessage
	if json.Unmarshal(m.Message, &api) != nil {
		return nil
	}
	if m.Type == "assistant" && syntheticLogin(api) {
		return nil
	}
	content := api.Content
	if api.Role == "user" {
		if m.OriginKind == "task-notification" && m.OriginSubkind == "" {
			return nil
		}
		var ok bool
		if content, ok = stripUserContent(content); !ok {
			return nil
		}
	}
	id := m.UUID
	if m.Type == "assistant" && api.ID != "" {
		id = api.ID
	}
	var text string
	if json.Unmarshal(content, &text) == nil {
		if text == "" {
			return nil
		}
		return []json.RawMessage{r.chunk(chunkKind(api.Role), textContent(text), id)}
	}
	var blocks []json.RawMessage
	if json.Unmarshal(content, &blocks) != nil {
		return nil
	}
	var out []json.RawMessage
	for _, b := range blocks {
		out = append(out, r.block(b, api.Role, id)...)
	}
	return out
}

// block is the part of a content block the replay reads itself.
type block struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Thinking string `json:"thinking"`
	Source   struct {
		Type      string `json:"type"`
		Data      string `json:"data"`
		MediaType string `json:"media_type"`
		URL       string `json:"url"`
	} `json:"source"`
}

func (r *Replayer) block(raw json.RawMessage, role, id string) []json.RawMessage {
	var b block
	if json.Unmarshal(raw, &b) != nil {
		return nil
	}
	switch b.Type {
	case "text":
		if b.Text == "" {
			return nil
		}
		return []json.RawMessage{r.chunk(chunkKind(role), textContent(b.Text), id)}
	case "image":
		return []json.RawMessage{r.chunk(chunkKind(role), imageContent(b), id)}
	case "thinking":
		if b.Thinking == "" {
			return nil
		}
		return []json.RawMessage{r.chunk("agent_thought_chunk", textContent(b.Thinking), id)}
	case "tool_use", "server_tool_use", "mcp_tool_use":
		return r.toolUse(raw, role)
	}
	if toolResultTypes.Has(b.Type) {
		return r.toolResult(raw, role)
	}
	return nil
}

// toolResultTypes are the content blocks that resolve a tool use.
var toolResultTypes = lookup.Set{
	"tool_result", "tool_search_tool_result", "web_fetch_tool_result", "web_search_tool_result",
	"code_execution_tool_result", "bash_code_execution_tool_result", "text_editor_code_execution_tool_result", "mcp_tool_result",
}

// planTool reports the tools whose calls show as the session's plan.
func planTool(name string) bool {
	switch name {
	case "TodoWrite", "TaskCreate", "TaskUpdate", "TaskList", "TaskGet":
		return true
	}
	return false
}

// toolUse reports a tool use: its `tool_call`, or a refinement when the
// same id came before without a result; a plan tool goes to the session.
func (r *Replayer) toolUse(raw json.RawMessage, role string) []json.RawMessage {
	var u struct {
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	if json.Unmarshal(raw, &u) != nil {
		return nil
	}
	if planTool(u.Name) {
		return r.session(raw, role)
	}
	use := toolcall.ToolUse{ID: u.ID, Name: u.Name, Input: u.Input}
	_, seen := r.uses[u.ID]
	r.uses[u.ID] = use
	if seen {
		return r.filtered(nil, r.render.Refinement(use))
	}
	return r.filtered(nil, r.render.ToolCall(use))
}

// filtered appends u unless the session's AIR `_meta` key filter leaves
// nothing of it (the replay goes through the reference's one send path).
func (r *Replayer) filtered(out []json.RawMessage, u toolcall.Update) []json.RawMessage {
	if r.parent != "" {
		if u.Meta == nil {
			u.Meta = &toolcall.Meta{}
		}
		if u.Meta.ClaudeCode == nil {
			u.Meta.ClaudeCode = &toolcall.ClaudeCode{}
		}
		u.Meta.ClaudeCode.ParentToolUseID = r.parent
	}
	if !r.tasks.FilterMeta(&u) {
		return out
	}
	return append(out, u.JSON())
}

// toolResult reports the result of a tool use the replay showed; other
// results (plan tools, unknown uses) go to the session.
func (r *Replayer) toolResult(raw json.RawMessage, role string) []json.RawMessage {
	var res toolcall.Result
	if json.Unmarshal(raw, &res) != nil {
		return nil
	}
	use, ok := r.uses[res.ToolUseID]
	if !ok {
		return r.session(raw, role)
	}
	delete(r.uses, res.ToolUseID)
	var out []json.RawMessage
	for _, u := range r.render.Result(use, res, nil, nil) {
		out = r.filtered(out, u)
	}
	// The transcript has no structured output: the plan is the input's.
	if u, ok := r.render.ApprovedPlan(use, res, nil, r.parent); ok {
		out = append(out, u.JSON())
	}
	return out
}

// session passes a block to the session's tool call state.
func (r *Replayer) session(raw json.RawMessage, role string) []json.RawMessage {
	var b claude.Block
	_ = json.Unmarshal(raw, &b)
	list := []claude.Block{b}
	var updates []toolcall.Update
	if role == "user" {
		updates = r.tasks.User("", list, nil, nil)
	} else {
		updates = r.tasks.Assistant("", list)
	}
	out := make([]json.RawMessage, 0, len(updates))
	for _, u := range updates {
		out = append(out, u.JSON())
	}
	return out
}

func chunkKind(role string) string {
	if role == "assistant" {
		return "agent_message_chunk"
	}
	return "user_message_chunk"
}

// chunk is a message or thought chunk update, with the subagent launch of
// the message being replayed.
func (r *Replayer) chunk(kind string, content any, messageID string) json.RawMessage {
	u := struct {
		Meta          any    `json:"_meta,omitempty"`
		SessionUpdate string `json:"sessionUpdate"`
		Content       any    `json:"content"`
		MessageID     string `json:"messageId,omitempty"`
	}{SessionUpdate: kind, Content: content, MessageID: messageID}
	if r.parent != "" {
		u.Meta = map[string]any{"claudeCode": map[string]any{"parentToolUseId": r.parent}}
	}
	return marshal(u)
}

func textContent(text string) any {
	return struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}{"text", text}
}

// imageContent is an image block as ACP content: base64 data, or a URL.
func imageContent(b block) any {
	c := struct {
		Type     string `json:"type"`
		Data     string `json:"data"`
		MimeType string `json:"mimeType"`
		URI      string `json:"uri,omitempty"`
	}{Type: "image"}
	switch b.Source.Type {
	case "base64":
		c.Data, c.MimeType = b.Source.Data, b.Source.MediaType
	case "url":
		c.URI = b.Source.URL
	}
	return c
}

// stripUserContent removes the transcript markers from the text of a user
// message; false when nothing is left to show.
func stripUserContent(content json.RawMessage) (json.RawMessage, bool) {
	var s string
	if json.Unmarshal(content, &s) == nil {
		t, ok := userText(s)
		if !ok {
			return nil, false
		}
		return marshal(t), true
	}
	var blocks []json.RawMessage
	if json.Unmarshal(content, &blocks) != nil {
		return content, true
	}
	kept := make([]json.RawMessage, 0, len(blocks))
	for _, raw := range blocks {
		var obj map[string]json.RawMessage
		var text string
		if json.Unmarshal(raw, &obj) != nil || string(obj["type"]) != `"text"` || json.Unmarshal(obj["text"], &text) != nil {
			kept = append(kept, raw)
			continue
		}
		t, ok := userText(text)
		if !ok {
			continue
		}
		obj["text"] = marshal(t)
		kept = append(kept, marshal(obj))
	}
	if len(kept) == 0 {
		return nil, false
	}
	return marshal(kept), true
}

var loginRE = lazyre.New(`(?i)\brun /login\b`)

// syntheticLogin reports the CLI's synthetic "run /login" message, which
// the live turn turns into an auth error and the replay skips.
func syntheticLogin(api apiMessage) bool {
	if api.Model != "<synthetic>" {
		return false
	}
	var blocks []block
	if json.Unmarshal(api.Content, &blocks) != nil || len(blocks) != 1 || blocks[0].Type != "text" {
		return false
	}
	text := blocks[0].Text
	if !loginRE.MatchString(text) {
		return false
	}
	return !sessionfailure.HasUsageLimitPrefix(text)
}

// marshal encodes v without HTML escaping.
func marshal(v any) json.RawMessage {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return json.RawMessage(strings.TrimRight(b.String(), "\n"))
}

// UserContent is the content of a stored user message as the replay shows
// it, without the transcript markers of its text; false when nothing is
// left to show.
func UserContent(content json.RawMessage) (json.RawMessage, bool) {
	return stripUserContent(content)
}
