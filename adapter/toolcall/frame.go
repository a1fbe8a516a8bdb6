package toolcall

import "encoding/json"

// cliFrame is the part of a CLI stdout frame that tool calls read.
type cliFrame struct {
	Type            string          `json:"type"`
	Event           json.RawMessage `json:"event"`
	ParentToolUseID *string         `json:"parent_tool_use_id"`
	Message         struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	ToolUseResult  json.RawMessage `json:"tool_use_result"`
	ToolResultMeta json.RawMessage `json:"tool_result_meta"`
	Request        struct {
		Subtype   string `json:"subtype"`
		ToolUseID string `json:"tool_use_id"`
		Input     struct {
			HookEventName string          `json:"hook_event_name"`
			ToolResponse  json.RawMessage `json:"tool_response"`
		} `json:"input"`
	} `json:"request"`
}

// Frame reports one CLI stdout frame: a `stream_event`, an `assistant` or
// `user` message, or a PostToolUse `hook_callback` control request. Any
// other frame reports nothing. It is the same as calling StreamEvent,
// Assistant, User or PostToolUse with the frame's parts.
func (s *Session) Frame(raw json.RawMessage) []Update {
	var f cliFrame
	if json.Unmarshal(raw, &f) != nil {
		return nil
	}
	parent := ""
	if f.ParentToolUseID != nil {
		parent = *f.ParentToolUseID
	}
	switch f.Type {
	case "stream_event":
		return s.StreamEvent(parent, f.Event)
	case "assistant":
		return s.Assistant(parent, f.Message.Content)
	case "user":
		return s.User(parent, f.Message.Content, f.ToolUseResult, f.ToolResultMeta)
	case "control_request":
		if f.Request.Subtype == "hook_callback" && f.Request.Input.HookEventName == "PostToolUse" {
			return s.PostToolUse(f.Request.ToolUseID, f.Request.Input.ToolResponse)
		}
	}
	return nil
}
