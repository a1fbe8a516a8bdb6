package toolcall

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/claude"
)

// hookFrame is what Frame reads of a control request of the CLI.
type hookFrame struct {
	Type    string `json:"type"`
	Request struct {
		Subtype   string `json:"subtype"`
		ToolUseID string `json:"tool_use_id"`
		Input     struct {
			HookEventName string          `json:"hook_event_name"`
			ToolResponse  json.RawMessage `json:"tool_response"`
		} `json:"input"`
	} `json:"request"`
}

// Frame reports one CLI stdout frame given as JSON: a PostToolUse
// `hook_callback` control request, or any line that Line reports (decoded
// with claude.DecodeFrame). Any other frame reports nothing.
func (s *Session) Frame(raw json.RawMessage) []Update {
	var h hookFrame
	if json.Unmarshal(raw, &h) != nil {
		return nil
	}
	if h.Type == "control_request" {
		if h.Request.Subtype == "hook_callback" && h.Request.Input.HookEventName == "PostToolUse" {
			return s.PostToolUse(h.Request.ToolUseID, h.Request.Input.ToolResponse)
		}
		return nil
	}
	f, err := claude.DecodeFrame(raw)
	if err != nil {
		return nil
	}
	return s.Line(f)
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
		return s.StreamEvent(parent, &f.Event)
	case "assistant":
		return s.Assistant(parent, f.Message.Content)
	case "user":
		return s.User(parent, f.Message.Content, f.ToolUseResult.Raw, f.ToolResultMeta)
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
