package history

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/airwire/airwire/adapter/toolcall"
)

// Replay returns, in order, the `session/update` params.update objects
// that `session/load` sends for the stored messages before its response,
// as the reference replays a history to a plain or a Zed client: user and
// agent text and images as `user_message_chunk` and `agent_message_chunk`
// (with the user row's uuid or the assistant message's API id as
// messageId), thinking as `agent_thought_chunk`, and tool uses and results
// as `tool_call`, `tool_call_update` and `plan` through tc (a fresh
// toolcall.Session for the loaded session: the replay rebuilds the
// client's view, its plan included).
func Replay(msgs []Message, tc *toolcall.Session) []json.RawMessage {
	var out []json.RawMessage
	for _, m := range msgs {
		out = append(out, replayMessage(m, tc)...)
	}
	return out
}

// apiMessage is the part of a stored API message the replay reads.
type apiMessage struct {
	ID      string          `json:"id"`
	Role    string          `json:"role"`
	Model   string          `json:"model"`
	Content json.RawMessage `json:"content"`
}

func replayMessage(m Message, tc *toolcall.Session) []json.RawMessage {
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
		return []json.RawMessage{chunk(chunkKind(api.Role), textContent(text), id)}
	}
	var blocks []json.RawMessage
	if json.Unmarshal(content, &blocks) != nil {
		return nil
	}
	var out []json.RawMessage
	for _, b := range blocks {
		out = append(out, replayBlock(b, api.Role, id, tc)...)
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

func replayBlock(raw json.RawMessage, role, id string, tc *toolcall.Session) []json.RawMessage {
	var b block
	if json.Unmarshal(raw, &b) != nil {
		return nil
	}
	switch b.Type {
	case "text":
		if b.Text == "" {
			return nil
		}
		return []json.RawMessage{chunk(chunkKind(role), textContent(b.Text), id)}
	case "image":
		return []json.RawMessage{chunk(chunkKind(role), imageContent(b), id)}
	case "thinking":
		if b.Thinking == "" {
			return nil
		}
		return []json.RawMessage{chunk("agent_thought_chunk", textContent(b.Thinking), id)}
	}
	list := json.RawMessage("[" + string(raw) + "]")
	var updates []toolcall.Update
	if role == "user" {
		updates = tc.User("", list, nil, nil)
	} else {
		updates = tc.Assistant("", list)
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

// chunk is a message or thought chunk update.
func chunk(kind string, content any, messageID string) json.RawMessage {
	u := struct {
		SessionUpdate string `json:"sessionUpdate"`
		Content       any    `json:"content"`
		MessageID     string `json:"messageId,omitempty"`
	}{kind, content, messageID}
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

var loginRE = regexp.MustCompile(`(?i)\brun /login\b`)

// usageLimitPrefixes open the CLI's synthetic usage-limit messages.
var usageLimitPrefixes = []string{
	"You've hit your", "You've reached your", "You're out of usage credits",
	"Your org is out of usage · add funds to continue", "Your org is out of usage · contact your admin",
	"Your seat type doesn't include usage credits", "Your seat type doesn't include usage",
	"Your usage allocation has been disabled by your admin", "Your group's usage limit is set to $0",
	"Fable 5 requires usage credits", "You're out of extra usage", "Your seat type doesn't include extra usage",
}

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
	for _, p := range usageLimitPrefixes {
		if strings.HasPrefix(text, p) {
			return false
		}
	}
	return true
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
