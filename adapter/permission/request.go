package permission

import (
	"encoding/json"
	"fmt"
)

// Request is the body of the CLI's can_use_tool control request
// (`{"type":"control_request","request":{"subtype":"can_use_tool",...}}`),
// with the fields the SDK hands to canUseTool.
type Request struct {
	ToolName    string          `json:"tool_name"`
	DisplayName string          `json:"display_name,omitempty"`
	Input       json.RawMessage `json:"input"`
	// Suggestions are the SDK's PermissionUpdate[] (permission_suggestions).
	Suggestions             json.RawMessage `json:"permission_suggestions,omitempty"`
	BlockedPath             string          `json:"blocked_path,omitempty"`
	DecisionReason          string          `json:"decision_reason,omitempty"`
	DefaultToNo             bool            `json:"default_to_no,omitempty"`
	SuppressAlwaysAllowRule bool            `json:"suppress_always_allow_rule,omitempty"`
	ToolUseID               string          `json:"tool_use_id"`
	AgentID                 string          `json:"agent_id,omitempty"`
	// MatchedAskRule is present when a configured ask rule forced the prompt.
	MatchedAskRule json.RawMessage `json:"matched_ask_rule,omitempty"`
	MCPServer      *MCPServer      `json:"mcp_server,omitempty"`
}

// MCPServer names the MCP server of an mcp__* tool and where its definition
// came from.
type MCPServer struct {
	Name   string `json:"name"`
	Source string `json:"source"`
}

// ParseRequest decodes the `request` object of a can_use_tool control
// request.
func ParseRequest(raw json.RawMessage) (Request, error) {
	var r Request
	if err := json.Unmarshal(raw, &r); err != nil {
		return Request{}, fmt.Errorf("permission: can_use_tool request: %w", err)
	}
	if len(r.Input) == 0 || string(r.Input) == "null" {
		r.Input = json.RawMessage(`{}`)
	}
	return r, nil
}

// input returns the tool input as an ordered object (empty when the input is
// no object).
func (r Request) input() *object {
	if o, ok := parseObject(r.Input); ok {
		return o
	}
	return newObject()
}

// inputString is the string field key of the input, trimmed; "" when it is
// absent, blank or no string.
func (r Request) inputString(key string) string {
	return plainString(stringOf(r.input().get(key)))
}

// forcedAsk reports that the prompt must not offer a persistent choice: a
// configured ask rule forced it, or the CLI says its rule would grant more
// than this action (Durable SDK suggestions: matchedAskRule).
func (r Request) forcedAsk() bool {
	return (len(r.MatchedAskRule) > 0 && string(r.MatchedAskRule) != "null") || r.SuppressAlwaysAllowRule
}
