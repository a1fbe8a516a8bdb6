package toolcall

import "encoding/json"

// Beat is a `tool_progress` frame: a tool call still runs.
type Beat struct {
	ToolUseID       string          `json:"tool_use_id"`
	ToolName        *string         `json:"tool_name"`
	ParentToolUseID *string         `json:"parent_tool_use_id"`
	Elapsed         json.RawMessage `json:"elapsed_time_seconds"`
	SubagentType    json.RawMessage `json:"subagent_type"`
	SubagentRetry   json.RawMessage `json:"subagent_retry"`
	// SubagentParent is the Agent tool call of the subagent the beat runs
	// in, when the turn loop knows it (a live background subagent).
	SubagentParent string `json:"-"`
}

// Progress reports a progress beat. A beat under an id the client does not
// know goes to the parent tool call; a beat of no known call sends nothing
// (contract: "Tool call contract"). The tracker sends `in_progress` once.
func (s *Session) Progress(b Beat) []Update {
	id := b.ToolUseID
	if !s.emitted[id] {
		if b.ParentToolUseID == nil {
			return nil
		}
		id = *b.ParentToolUseID
	}
	if !s.emitted[id] {
		return nil
	}
	response := map[string]json.RawMessage{"elapsedTimeSeconds": b.Elapsed}
	if b.SubagentType != nil {
		response["subagentType"] = b.SubagentType
	}
	if b.SubagentRetry != nil {
		response["subagentRetry"] = b.SubagentRetry
	}
	cc := &ClaudeCode{ParentToolUseID: b.SubagentParent, ToolResponse: encode(response)}
	if b.ToolName != nil {
		cc.ToolName = *b.ToolName
	}
	u := Update{Meta: &Meta{ClaudeCode: cc}, ToolCallID: id, SessionUpdate: kindToolCallUpdate, Status: "in_progress"}
	return s.send(nil, u, "")
}

// Denial is a `system/permission_denied` frame: a rule, the classifier or
// a mode refused a tool call before it ran.
type Denial struct {
	ToolUseID          string  `json:"tool_use_id"`
	ToolName           string  `json:"tool_name"`
	DecisionReasonType *string `json:"decision_reason_type"`
	DecisionReason     *string `json:"decision_reason"`
	Message            *string `json:"message"`
	// Parent is the Agent tool call of the subagent that was refused, when
	// the turn loop knows it from the frame's agent_id.
	Parent string `json:"-"`
}

// Denied reports a denial of a tool call the client was told of: failed,
// with the reason as content and the upstream `toolResponse` (contract:
// "Claude tools and ACP fields").
func (s *Session) Denied(d Denial) []Update {
	if !s.emitted[d.ToolUseID] {
		return nil
	}
	reason := "undefined"
	if d.DecisionReason != nil {
		reason = *d.DecisionReason
	} else if d.Message != nil {
		reason = *d.Message
	}
	response := struct {
		DecisionReasonType *string `json:"decisionReasonType,omitempty"`
		DecisionReason     *string `json:"decisionReason,omitempty"`
		Message            *string `json:"message,omitempty"`
	}{d.DecisionReasonType, d.DecisionReason, d.Message}
	if s.render.air() || s.render.Caps.V2 {
		// The content shows the reason: AIR (and ACP v2, whose client stores
		// `_meta` as AIR does) keeps only its type, and the message when it
		// says more (contract: "Tool call contract").
		response.DecisionReason = nil
		if d.DecisionReason == nil || d.Message == nil || *d.Message == *d.DecisionReason {
			response.Message = nil
		}
	}
	u := Update{
		Meta:       &Meta{ClaudeCode: &ClaudeCode{ToolName: d.ToolName, ToolResponse: encode(response)}},
		ToolCallID: d.ToolUseID, SessionUpdate: kindToolCallUpdate, Status: "failed",
		Content: list(textContent("Permission denied: " + reason)),
	}
	return s.send(nil, u, d.Parent)
}
