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

// suggestion handles a prompt_suggestion line.
func (s *Session) suggestion(line json.RawMessage) {
	var m struct {
		Suggestion string `json:"suggestion"`
	}
	if json.Unmarshal(line, &m) != nil || !s.tr.suggest.expected {
		return
	}
	s.tr.suggest.expected = false
	text := strings.TrimSpace(m.Suggestion)
	var p *string
	if text != "" {
		p = &text
	}
	s.publishSuggestion(p)
}

// clearSuggestion is what a new prompt does: the prediction is spent.
func (s *Session) clearSuggestion() {
	s.tr.mu.Lock()
	defer s.tr.mu.Unlock()
	s.tr.suggest.expected = false
	s.publishSuggestion(nil)
}

// publishSuggestion sends text (nil clears) unless the client holds it.
func (s *Session) publishSuggestion(text *string) {
	p := &s.tr.suggest
	if (p.published == nil && text == nil) || (p.published != nil && text != nil && *p.published == *text) {
		return
	}
	if !s.agent.clientCaps().AIR.Client {
		return
	}
	p.published = text
	list := []map[string]string{}
	if text != nil {
		list = append(list, map[string]string{"text": *text})
	}
	s.notify(map[string]any{"sessionUpdate": "session_info_update",
		"_meta": map[string]any{"promptSuggestions": map[string]any{"suggestions": list}}})
}
