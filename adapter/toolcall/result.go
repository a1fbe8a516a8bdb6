package toolcall

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/claude"
)

// isToolResultType reports whether a content block type carries a tool
// result.
func isToolResultType(t string) bool {
	switch t {
	case "tool_result", "tool_search_tool_result", "web_fetch_tool_result", "web_search_tool_result",
		"code_execution_tool_result", "bash_code_execution_tool_result",
		"text_editor_code_execution_tool_result", "mcp_tool_result":
		return true
	}
	return false
}

// User reports the tool_result blocks of a user message. toolUseResult is
// the message-level `tool_use_result`, honoured only when the message has
// exactly one result; toolResultMeta is the `tool_result_meta` list.
func (s *Session) User(parent string, content []claude.Block, toolUseResult, toolResultMeta json.RawMessage) []Update {
	var results []Result
	for _, b := range content {
		if !isToolResultType(b.Type) {
			continue
		}
		// A foreground fork inherits a placeholder result for its own
		// launch: only the launching side completes that call.
		if parent != "" && b.Type == "tool_result" && b.ToolUseID == parent {
			toolUseResult = nil
			continue
		}
		results = append(results, resultOf(b))
	}
	if len(results) != 1 {
		toolUseResult = nil
	}
	meta := nonExecutionByID(toolResultMeta)
	var out []Update
	for _, r := range results {
		out = append(out, s.toolResult(parent, r, toolUseResult, meta[r.ToolUseID])...)
	}
	return out
}

// resultOf is the result a tool result block carries.
func resultOf(b claude.Block) Result {
	return Result{ToolUseID: b.ToolUseID, Content: b.Content, IsError: b.IsError}
}

// nonExecutionByID reads `tool_result_meta`: why a result carries harness
// text instead of tool output.
func nonExecutionByID(raw json.RawMessage) map[string]*ClaudeCode {
	var entries []struct {
		ID               *string `json:"id"`
		NonExecutionKind *string `json:"non_execution_kind"`
		UserFeedback     *string `json:"user_feedback"`
	}
	if json.Unmarshal(raw, &entries) != nil {
		return nil
	}
	byID := map[string]*ClaudeCode{}
	for _, e := range entries {
		if e.ID == nil || e.NonExecutionKind == nil {
			continue
		}
		cc := &ClaudeCode{NonExecutionKind: *e.NonExecutionKind}
		if e.UserFeedback != nil {
			cc.UserFeedback = *e.UserFeedback
		}
		byID[*e.ID] = cc
	}
	return byID
}

// toolResult reports one tool result block.
func (s *Session) toolResult(parent string, r Result, structured json.RawMessage, nonExec *ClaudeCode) []Update {
	id := r.ToolUseID
	r.Cancelled = s.stopped
	wasEmitted := s.emitted[id]
	delete(s.emitted, id)
	tu, known := s.uses[id]
	if !known {
		if !wasEmitted {
			return nil
		}
		// A permission request showed a call whose tool_use never came:
		// resolve it so that it does not stay pending.
		return []Update{{ToolCallID: id, SessionUpdate: kindToolCallUpdate,
			Status: resultStatus(r.IsError), RawOutput: r.Content}}
	}
	delete(s.uses, id)
	var out []Update
	if wasEmitted && !streamsAsToolCall(tu.use.Name) {
		// Only a permission request showed this plan tool as a tool call.
		u := Update{Meta: &Meta{ClaudeCode: &ClaudeCode{ToolName: tu.use.Name}}, ToolCallID: id,
			SessionUpdate: kindToolCallUpdate, Status: resultStatus(r.IsError), RawOutput: r.Content}
		if nonExec != nil {
			u.Meta.ClaudeCode.NonExecutionKind, u.Meta.ClaudeCode.UserFeedback = nonExec.NonExecutionKind, nonExec.UserFeedback
		}
		stampParent(&u, parent)
		out = append(out, u)
	}
	switch {
	case isTaskTool(tu.use.Name):
		if !r.IsError && s.tasks.applyResult(tu.use, r, structured) {
			out = s.send(out, Update{SessionUpdate: kindPlan, Entries: s.tasks.entries()}, parent)
		}
	case tu.use.Name != "TodoWrite":
		updates := s.render.Result(tu.use, r, structured, nonExec)
		s.markBackgrounded(id, updates)
		for _, u := range updates[:len(updates)-1] {
			// The output of a command: the tracker keeps no field of it, but
			// AIR's `_meta` filter drops the keys it already has.
			stampParent(&u, parent)
			if s.render.air() && !s.metaFilter.apply(&u) {
				continue
			}
			out = append(out, u)
		}
		out = s.send(out, updates[len(updates)-1], parent)
		if u, ok := s.render.ApprovedPlan(tu.use, r, structured, parent); ok {
			out = append(out, u)
		}
	}
	_, hookPending := s.hooks[id]
	s.tracker.FinishResult(id, hookPending)
	return out
}
