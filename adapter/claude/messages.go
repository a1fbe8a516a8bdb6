package claude

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Message is one line the CLI printed that is not a control frame. The
// concrete type says which (*Assistant, *StreamEvent, *SystemInit, …);
// every one keeps the line as read in Raw, so fields without a Go field
// are never lost.
type Message interface {
	// Head returns the fields every line shares.
	Head() *Header
}

// Header is what every CLI line carries.
type Header struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype,omitempty"`
	UUID      string `json:"uuid,omitempty"`
	SessionID string `json:"session_id,omitempty"`
	// Raw is the whole line as the CLI wrote it.
	Raw json.RawMessage `json:"-"`
}

// Head implements Message.
func (h *Header) Head() *Header { return h }

// Unknown is a line of a type or system subtype this package has no type
// for; Raw holds it.
type Unknown struct{ Header }

// Assistant is one completed content block of a model message (several
// share Message.ID).
type Assistant struct {
	Header
	Message           APIMessage `json:"message"`
	ParentToolUseID   *string    `json:"parent_tool_use_id"`
	Error             string     `json:"error,omitempty"`
	IsAPIErrorMessage bool       `json:"is_api_error_message,omitempty"`
	APIErrorStatus    *int       `json:"api_error_status,omitempty"`
	AgentID           string     `json:"agent_id,omitempty"`
	RequestID         string     `json:"request_id,omitempty"`
	Timestamp         string     `json:"timestamp,omitempty"`
	UserMessageUUIDs  []string   `json:"user_message_uuids,omitempty"`
}

// APIMessage is the model message an assistant line carries.
type APIMessage struct {
	ID         string            `json:"id"`
	Model      string            `json:"model"`
	Role       string            `json:"role"`
	Content    []json.RawMessage `json:"content"`
	StopReason *string           `json:"stop_reason"`
	Usage      json.RawMessage   `json:"usage,omitempty"`
}

// User is a user line: a tool result, a replayed prompt (IsReplay, with
// --replay-user-messages) or a synthetic message.
type User struct {
	Header
	Message struct {
		Role string `json:"role"`
		// Content is a string or an array of content blocks.
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	ParentToolUseID *string         `json:"parent_tool_use_id"`
	IsReplay        bool            `json:"isReplay,omitempty"`
	IsSynthetic     bool            `json:"isSynthetic,omitempty"`
	ToolUseResult   json.RawMessage `json:"tool_use_result,omitempty"`
	ToolResultMeta  json.RawMessage `json:"tool_result_meta,omitempty"`
	Origin          json.RawMessage `json:"origin,omitempty"`
	AgentID         string          `json:"agent_id,omitempty"`
	Timestamp       string          `json:"timestamp,omitempty"`
}

// StreamEvent is one raw API stream event (--include-partial-messages).
type StreamEvent struct {
	Header
	Event           StreamEventBody `json:"event"`
	ParentToolUseID *string         `json:"parent_tool_use_id"`
	APIMessageID    string          `json:"api_message_id,omitempty"`
	TTFTMs          *float64        `json:"ttft_ms,omitempty"`
	UserMessageUUID string          `json:"user_message_uuid,omitempty"`
}

// StreamEventBody is an Anthropic SSE event; Raw keeps all of it.
type StreamEventBody struct {
	Type  string          `json:"type"`
	Index int             `json:"index"`
	Raw   json.RawMessage `json:"-"`
}

// UnmarshalJSON implements json.Unmarshaler.
func (b *StreamEventBody) UnmarshalJSON(data []byte) error {
	type plain StreamEventBody
	if err := json.Unmarshal(data, (*plain)(b)); err != nil {
		return err
	}
	b.Raw = append(json.RawMessage(nil), data...)
	return nil
}

// Result ends a turn: Subtype "success" or error_during_execution,
// error_max_turns, error_max_budget_usd, ….
type Result struct {
	Header
	IsError           bool            `json:"is_error"`
	Result            string          `json:"result,omitempty"`
	Errors            []string        `json:"errors,omitempty"`
	StopReason        *string         `json:"stop_reason"`
	TerminalReason    string          `json:"terminal_reason,omitempty"`
	NumTurns          int             `json:"num_turns"`
	DurationMS        float64         `json:"duration_ms"`
	DurationAPIMS     float64         `json:"duration_api_ms"`
	TotalCostUSD      float64         `json:"total_cost_usd"`
	Usage             json.RawMessage `json:"usage,omitempty"`
	ModelUsage        json.RawMessage `json:"modelUsage,omitempty"`
	PermissionDenials json.RawMessage `json:"permission_denials,omitempty"`
	APIErrorStatus    *int            `json:"api_error_status,omitempty"`
	UserMessageUUID   string          `json:"user_message_uuid,omitempty"`
	UserMessageUUIDs  []string        `json:"user_message_uuids,omitempty"`
}

// PromptSuggestion is the predicted next prompt after a turn.
type PromptSuggestion struct {
	Header
	Suggestion string `json:"suggestion"`
}

// RateLimitEvent reports the account's rate limit state.
type RateLimitEvent struct {
	Header
	RateLimitInfo json.RawMessage `json:"rate_limit_info"`
}

// CommandLifecycle tracks a queued prompt or command (CommandUUID is the
// uuid of the user message).
type CommandLifecycle struct {
	Header
	CommandUUID string `json:"command_uuid"`
	State       string `json:"state"`
}

// ToolProgress is a heartbeat of a running tool.
type ToolProgress struct {
	Header
	ToolUseID          string  `json:"tool_use_id"`
	ToolName           string  `json:"tool_name"`
	ParentToolUseID    *string `json:"parent_tool_use_id"`
	ElapsedTimeSeconds float64 `json:"elapsed_time_seconds"`
	TaskID             string  `json:"task_id,omitempty"`
}

// ToolUseSummary summarizes earlier tool uses.
type ToolUseSummary struct {
	Header
	Summary             string   `json:"summary"`
	PrecedingToolUseIDs []string `json:"preceding_tool_use_ids"`
}

// ActiveGoal is the session goal (Value null when cleared).
type ActiveGoal struct {
	Header
	Value json.RawMessage `json:"value"`
}

// AuthStatus reports a login in progress.
type AuthStatus struct {
	Header
	IsAuthenticating bool     `json:"isAuthenticating"`
	Output           []string `json:"output"`
	Error            string   `json:"error,omitempty"`
}

// KeepAlive is a liveness line.
type KeepAlive struct{ Header }

// ErrNoType is the Decode error of a JSON object without a string type.
var ErrNoType = errors.New("stream-json line has no type")

// Decode reads one CLI stdout line that is not a control frame into its
// Message type. Unknown types and system subtypes decode as *Unknown.
func Decode(line []byte) (Message, error) {
	return decodeJSON(append(json.RawMessage(nil), line...))
}

// decodeJSON is Decode with encoding/json, of a line the caller hands over.
func decodeJSON(line []byte) (Message, error) {
	var h Header
	if err := json.Unmarshal(line, &h); err != nil {
		return nil, fmt.Errorf("stream-json line: %w", err)
	}
	if h.Type == "" {
		return nil, ErrNoType
	}
	m := newMessage(h.Type, h.Subtype)
	if err := json.Unmarshal(line, m); err != nil {
		return nil, fmt.Errorf("stream-json %s line: %w", h.Type, err)
	}
	m.Head().Raw = line
	return m, nil
}

// newMessage returns an empty value of the type for a line's type and
// subtype.
func newMessage(typ, subtype string) Message {
	switch typ {
	case "assistant":
		return &Assistant{}
	case "user":
		return &User{}
	case "stream_event":
		return &StreamEvent{}
	case "result":
		return &Result{}
	case "system":
		return newSystem(subtype)
	case "prompt_suggestion":
		return &PromptSuggestion{}
	case "rate_limit_event":
		return &RateLimitEvent{}
	case "command_lifecycle":
		return &CommandLifecycle{}
	case "tool_progress":
		return &ToolProgress{}
	case "tool_use_summary":
		return &ToolUseSummary{}
	case "active_goal":
		return &ActiveGoal{}
	case "auth_status":
		return &AuthStatus{}
	case "keep_alive":
		return &KeepAlive{}
	}
	return &Unknown{}
}
