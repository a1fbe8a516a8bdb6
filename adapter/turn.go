package adapter

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"
)

// translator turns one session's CLI messages into ACP updates. It runs on
// the CLI Conn's dispatch goroutine only, so it needs no lock.
type translator struct {
	s *Session

	// messageID is the API message id of the stream under way (from its
	// message_start): every chunk of that message carries it.
	messageID string
	// streamed holds, per content block index of the current message, the
	// text already sent as chunks, so the consolidated assistant message
	// sends only the tail that was not streamed.
	streamed map[int]*strings.Builder
}

func newTranslator(s *Session) *translator {
	return &translator{s: s, streamed: map[int]*strings.Builder{}}
}

// message handles one CLI line that is not a control request.
func (t *translator) message(kind string, line json.RawMessage) {
	switch kind {
	case "stream_event":
		t.streamEvent(line)
	case "assistant":
		t.assistant(line)
	case "system":
		t.system(line)
	case "result":
		t.result(line)
	}
}

type streamLine struct {
	ParentToolUseID *string `json:"parent_tool_use_id"`
	Event           struct {
		Type    string `json:"type"`
		Index   int    `json:"index"`
		Message struct {
			ID    string `json:"id"`
			Model string `json:"model"`
		} `json:"message"`
		Delta struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			Thinking string `json:"thinking"`
		} `json:"delta"`
	} `json:"event"`
}

func (t *translator) streamEvent(line json.RawMessage) {
	var m streamLine
	if json.Unmarshal(line, &m) != nil || m.ParentToolUseID != nil {
		return
	}
	switch m.Event.Type {
	case "message_start":
		t.messageID = m.Event.Message.ID
		clear(t.streamed)
	case "content_block_delta":
		switch m.Event.Delta.Type {
		case "text_delta":
			t.chunk("agent_message_chunk", m.Event.Index, m.Event.Delta.Text)
		case "thinking_delta":
			t.chunk("agent_thought_chunk", m.Event.Index, m.Event.Delta.Thinking)
		}
	}
}

// chunk sends streamed text of block index and remembers it.
func (t *translator) chunk(kind string, index int, text string) {
	if text == "" {
		return
	}
	b := t.streamed[index]
	if b == nil {
		b = &strings.Builder{}
		t.streamed[index] = b
	}
	b.WriteString(text)
	t.s.notify(textUpdate(kind, text, t.messageID))
}

func textUpdate(kind, text, messageID string) map[string]any {
	u := map[string]any{"sessionUpdate": kind, "content": map[string]any{"type": "text", "text": text}}
	if messageID != "" {
		u["messageId"] = messageID
	}
	return u
}

type assistantLine struct {
	ParentToolUseID *string `json:"parent_tool_use_id"`
	Message         struct {
		ID      string `json:"id"`
		Content []struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			Thinking string `json:"thinking"`
		} `json:"content"`
	} `json:"message"`
}

// assistant handles a consolidated message: each text or thinking block
// goes out only for the part the stream did not already send (contract
// "Tool call contract": streamed text is not sent again in full). The CLI
// sends one consolidated message per content block, in block order.
func (t *translator) assistant(line json.RawMessage) {
	var m assistantLine
	if json.Unmarshal(line, &m) != nil || m.ParentToolUseID != nil {
		return
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
		if tail := t.unstreamedTail(text); tail != "" {
			t.s.notify(textUpdate(kind, tail, m.Message.ID))
		}
	}
}

// unstreamedTail returns the part of a consolidated block's text that no
// streamed block of the current message already sent.
func (t *translator) unstreamedTail(text string) string {
	for i, b := range t.streamed {
		if sent := b.String(); strings.HasPrefix(text, sent) {
			delete(t.streamed, i)
			return text[len(sent):]
		}
	}
	return text
}

type systemLine struct {
	Subtype string `json:"subtype"`
	Level   string `json:"level"`
	Content string `json:"content"`
}

func (t *translator) system(line json.RawMessage) {
	var m systemLine
	if json.Unmarshal(line, &m) != nil {
		return
	}
	switch m.Subtype {
	case "informational":
		t.informational(m)
	}
}

// informational shows a free-form notice of the CLI as a transcript line
// with its level folded into the text (clients without session notices).
func (t *translator) informational(m systemLine) {
	text := m.Content
	if m.Level != "info" {
		text = "**" + sentenceCase(m.Level) + ":** " + m.Content
	}
	u := textUpdate("agent_message_chunk", text, "")
	u["_meta"] = map[string]any{"claudeCode": map[string]any{"kind": "informational", "level": m.Level}}
	t.s.notify(u)
}

func sentenceCase(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

type resultLine struct {
	Subtype    string `json:"subtype"`
	StopReason string `json:"stop_reason"`
	IsError    bool   `json:"is_error"`
}

// result ends the active turn.
func (t *translator) result(line json.RawMessage) {
	var m resultLine
	if json.Unmarshal(line, &m) != nil {
		return
	}
	stop := "end_turn"
	if at := t.s.activeTurn(); at != nil && at.cancelled {
		stop = "cancelled"
	}
	t.s.finish(map[string]any{"stopReason": stop}, nil)
}

// hook answers a hook_callback of the CLI: the agent's hooks only observe.
func (t *translator) hook(json.RawMessage) (any, error) {
	return map[string]any{"continue": true}, nil
}
