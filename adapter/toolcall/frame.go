package toolcall

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/claude"
)

// cliFrame is the part of a CLI stdout frame that tool calls read.
type cliFrame struct {
	Type            string          `json:"type"`
	Subtype         string          `json:"subtype"`
	Event           json.RawMessage `json:"event"`
	ParentToolUseID *string         `json:"parent_tool_use_id"`
	// Message is an object in a user or assistant message, and a string
	// in some system frames.
	Message        json.RawMessage `json:"message"`
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
// `user` message, a `tool_progress` beat, a `system/permission_denied`, or
// a PostToolUse `hook_callback` control request. Any other frame reports
// nothing. It is the same as calling StreamEvent, Assistant, User,
// Progress, Denied or PostToolUse with the frame's parts; it knows no
// subagent lineage (Beat.SubagentParent, Denial.Parent), which the turn
// loop sets when it calls those itself.
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
		return s.Assistant(parent, messageContent(f.Message))
	case "user":
		return s.User(parent, messageContent(f.Message), f.ToolUseResult, f.ToolResultMeta)
	case "tool_progress":
		var b Beat
		_ = json.Unmarshal(raw, &b)
		return s.Progress(b)
	case "system":
		if f.Subtype == "permission_denied" {
			var d Denial
			_ = json.Unmarshal(raw, &d)
			return s.Denied(d)
		}
	case "control_request":
		if f.Request.Subtype == "hook_callback" && f.Request.Input.HookEventName == "PostToolUse" {
			return s.PostToolUse(f.Request.ToolUseID, f.Request.Input.ToolResponse)
		}
	}
	return nil
}

// messageContent is the content of a message object.
func messageContent(message json.RawMessage) json.RawMessage {
	var m struct {
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(message, &m)
	return m.Content
}

// Line reports one CLI stdout line, as Frame does, from its frame: a
// `stream_event`, an `assistant` or `user` message, a `tool_progress` beat
// or a `system/permission_denied`.
func (s *Session) Line(f *claude.Frame) []Update {
	parent := ""
	if f.Parent != nil {
		parent = *f.Parent
	}
	switch f.Type {
	case "stream_event":
		return s.StreamEvent(parent, f.Event.Raw)
	case "assistant":
		return s.Assistant(parent, f.Message.ContentRaw)
	case "user":
		return s.User(parent, f.Message.ContentRaw, f.ToolUseResult.Raw, f.ToolResultMeta)
	case "tool_progress":
		return s.Progress(Beat{ToolUseID: f.ToolUseID, ToolName: f.ToolName, ParentToolUseID: f.Parent,
			Elapsed: f.Elapsed, SubagentType: f.SubagentType, SubagentRetry: f.SubagentRetry})
	case "system":
		if f.Subtype == "permission_denied" {
			d := Denial{ToolUseID: f.ToolUseID, DecisionReasonType: f.DecisionReasonType,
				DecisionReason: f.DecisionReason, Message: f.Message.Text}
			if f.ToolName != nil {
				d.ToolName = *f.ToolName
			}
			return s.Denied(d)
		}
	}
	return nil
}
