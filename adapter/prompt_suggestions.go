package adapter

import (
	"encoding/json"
	"strings"
)

// Prompt suggestions: the CLI predicts the next prompt after a turn's
// result (prompt_suggestion). ACP has no field for it, so it travels as
// session_info_update._meta.promptSuggestions, to AIR clients only, as the
// reference sends it; a prompt clears a published prediction with an empty
// list, and a blank prediction is no prediction.

type promptSuggestion struct {
	expected  bool    // a result opened the window for a prediction
	published *string // the prediction the client holds (nil: none)
}

// resultEnded opens the window: a prompt_suggestion from now on belongs to
// the turn that just ended.
func (p *promptSuggestion) resultEnded() { p.expected = true }

// line handles a prompt_suggestion line: the update to send, if any (air:
// the client is an AIR client).
func (p *promptSuggestion) line(line json.RawMessage, air bool) any {
	var m struct {
		Suggestion string `json:"suggestion"`
	}
	if json.Unmarshal(line, &m) != nil || !p.expected {
		return nil
	}
	p.expected = false
	text := strings.TrimSpace(m.Suggestion)
	var t *string
	if text != "" {
		t = &text
	}
	return p.publish(t, air)
}

// clear is what a new prompt does: the prediction is spent. It returns the
// update to send, if any.
func (p *promptSuggestion) clear(air bool) any {
	p.expected = false
	return p.publish(nil, air)
}

// publish is the update that sends text (nil clears), nil when the client
// holds it already.
func (p *promptSuggestion) publish(text *string, air bool) any {
	if (p.published == nil && text == nil) || (p.published != nil && text != nil && *p.published == *text) {
		return nil
	}
	if !air {
		return nil
	}
	p.published = text
	list := []map[string]string{}
	if text != nil {
		list = append(list, map[string]string{"text": *text})
	}
	return map[string]any{"sessionUpdate": "session_info_update",
		"_meta": map[string]any{"promptSuggestions": map[string]any{"suggestions": list}}}
}
