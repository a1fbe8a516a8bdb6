package toolcall

import (
	"encoding/json"
	"strings"

	"github.com/airwire/airwire/adapter/claude"
)

// streamedInput follows the input JSON of one streaming tool_use, to find
// the top-level fields that are complete. It scans each fragment once.
type streamedInput struct {
	id, name    string
	partial     strings.Builder
	inString    bool
	escaped     bool
	objectDepth int
	arrayDepth  int
	// lastComma is the offset of the last top-level comma; sentThrough the
	// comma of the last partial report.
	lastComma, sentThrough int
}

func newStreamedInput(id, name string) *streamedInput {
	return &streamedInput{id: id, name: name, lastComma: -1, sentThrough: -1}
}

// scan adds a fragment and reports whether the input object is complete.
func (s *streamedInput) scan(fragment string) bool {
	offset := s.partial.Len()
	s.partial.WriteString(fragment)
	complete := false
	for i := 0; i < len(fragment); i++ {
		c := fragment[i]
		if s.inString {
			switch {
			case s.escaped:
				s.escaped = false
			case c == '\\':
				s.escaped = true
			case c == '"':
				s.inString = false
			}
			continue
		}
		switch c {
		case '"':
			s.inString = true
		case '{':
			s.objectDepth++
		case '}':
			s.objectDepth--
			complete = complete || s.objectDepth == 0
		case '[':
			s.arrayDepth++
		case ']':
			s.arrayDepth--
		case ',':
			if s.objectDepth == 1 && s.arrayDepth == 0 {
				s.lastComma = offset + i
			}
		}
	}
	return complete
}

// newFields returns the input made of the complete top-level fields when a
// field completed since the last call, else nil.
func (s *streamedInput) newFields() json.RawMessage {
	if s.lastComma <= s.sentThrough {
		return nil
	}
	s.sentThrough = s.lastComma
	candidate := json.RawMessage(s.partial.String()[:s.lastComma] + "}")
	var obj map[string]json.RawMessage
	if json.Unmarshal(candidate, &obj) != nil || obj == nil {
		return nil
	}
	return compact(candidate)
}

// StreamEvent reports one `stream_event` of the stream parent ("" for the
// root session, else the subagent's Agent tool call): the `tool_call` at
// the start of a tool_use block, and a refinement each time a top-level
// input field completes.
func (s *Session) StreamEvent(parent string, ev *claude.Event) []Update {
	switch ev.Type {
	case "content_block_start":
		cb := ev.ContentBlock
		b := toolUseBlock{Type: cb.Type, ID: cb.ID, Name: cb.Name, Input: cb.Input}
		if !isToolUseType(b.Type) {
			return nil
		}
		if s.streams[parent] == nil {
			s.streams[parent] = map[int]*streamedInput{}
		}
		s.streams[parent][ev.Index] = newStreamedInput(b.ID, b.Name)
		return s.toolUse(parent, b, true)
	case "content_block_delta":
		if ev.Delta.Type == "input_json_delta" {
			return s.inputDelta(parent, ev.Index, ev.Delta.PartialJSON)
		}
	case "message_start", "message_stop":
		delete(s.streams, parent)
	case "content_block_stop":
		s.endStream(parent, ev.Index)
	}
	return nil
}

// inputDelta follows a streaming tool input. The complete input comes
// with the consolidated message, so the delta that completes it sends
// nothing.
func (s *Session) inputDelta(parent string, index int, fragment string) []Update {
	in := s.streams[parent][index]
	if in == nil {
		return nil
	}
	if in.scan(fragment) {
		s.endStream(parent, index)
		return nil
	}
	partial := in.newFields()
	if partial == nil || !streamsAsToolCall(in.name) {
		return nil
	}
	return s.send(nil, s.render.PartialRefinement(ToolUse{ID: in.id, Name: in.name}, partial), parent)
}

func (s *Session) endStream(parent string, index int) {
	delete(s.streams[parent], index)
	if len(s.streams[parent]) == 0 {
		delete(s.streams, parent)
	}
}
