package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Frame is one CLI stdout line that is not a control frame, decoded once
// for everything the agent reads of it on its way to the editor: the
// fields every line shares, a stream event with its delta, the Detail of
// the other lines (a message with its content blocks, a result, a system
// line's and a task's fields), and the parts passed on as written (Raw and
// the json.RawMessage fields, slices of the line). A field of a JSON type
// the Go field cannot hold is left zero, the rest of the line still read.
type Frame struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	UUID      string `json:"uuid"`
	SessionID string `json:"session_id"`
	// Parent is the Agent tool call the line belongs to (a subagent's).
	Parent *string `json:"parent_tool_use_id"`
	Event  Event   `json:"event"`
	// Detail is never nil: a streamed content block event, the bulk of a
	// turn, shares one empty Detail that nothing writes (noDetail), so
	// that its frame stays small.
	*Detail
	// Raw is the whole line as the CLI wrote it.
	Raw json.RawMessage `json:"-"`
}

// Detail is what the agent reads of a line besides the fields every line
// shares and a stream event.
type Detail struct {
	IsReplay bool    `json:"isReplay"`
	Origin   *Origin `json:"origin"`
	// Error is an assistant line's error marker.
	Error string `json:"error"`
	// Level and Content are a system notice's.
	Level                 string   `json:"level"`
	Content               string   `json:"content"`
	TerminalSlashCommands []string `json:"terminal_slash_commands"`
	// MCPServers is an init line's status of each MCP server.
	MCPServers      []MCPServerStatus `json:"mcp_servers"`
	Commands        []Command         `json:"commands"`
	Message         LineMessage       `json:"message"`
	ToolUseResult   ToolUseResult     `json:"tool_use_result"`
	ToolResultMeta  json.RawMessage   `json:"tool_result_meta"`
	RateLimitInfo   json.RawMessage   `json:"rate_limit_info"`
	CompactMetadata *CompactMetadata  `json:"compact_metadata"`
	// A tool_progress beat's and a system/permission_denied's.
	ToolUseID          string          `json:"tool_use_id"`
	ToolName           *string         `json:"tool_name"`
	Elapsed            json.RawMessage `json:"elapsed_time_seconds"`
	SubagentType       json.RawMessage `json:"subagent_type"`
	SubagentRetry      json.RawMessage `json:"subagent_retry"`
	DecisionReasonType *string         `json:"decision_reason_type"`
	DecisionReason     *string         `json:"decision_reason"`
	// A result line's: how the turn ended, its text, its usage and cost.
	IsError      bool       `json:"is_error"`
	Result       string     `json:"result"`
	Errors       []string   `json:"errors"`
	NumTurns     int        `json:"num_turns"`
	StopReason   string     `json:"stop_reason"`
	TotalCostUSD *float64   `json:"total_cost_usd"`
	Usage        *Usage     `json:"usage"`
	ModelUsage   ModelUsage `json:"modelUsage"`
	// FastModeState and FastModeDisabledReason are Fast mode as an init
	// or result line reports it.
	FastModeState          string `json:"fast_mode_state"`
	FastModeDisabledReason string `json:"fast_mode_disabled_reason"`
	System
}

// noDetail is the Detail of every frame of the fast stream-event path: it
// stays zero (TestOneDecodePerCLILine).
var noDetail Detail

// LineMessage is a line's message: an API message object (assistant and
// user lines), or a string (Text, in some system lines).
type LineMessage struct {
	Text  *string `json:"-"`
	ID    string  `json:"id"`
	Model string  `json:"model"`
	Role  string  `json:"role"`
	// Content holds the content blocks when content is an array;
	// ContentRaw is content as written (an array or a string).
	Content    []Block         `json:"-"`
	ContentRaw json.RawMessage `json:"content"`
	StopReason *string         `json:"stop_reason"`
	Usage      *Usage          `json:"usage"`
}

// Block is what the agent reads of a content block itself.
type Block struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Thinking string `json:"thinking"`
	// ID, Name and Input are a tool use's (Input as written).
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
	// ToolUseID, Content (as written) and IsError are a tool_result's.
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// Usage is an API usage object, or a task's usage (the last three); any
// count may be null or absent.
type Usage struct {
	InputTokens              *float64 `json:"input_tokens"`
	OutputTokens             *float64 `json:"output_tokens"`
	CacheReadInputTokens     *float64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens *float64 `json:"cache_creation_input_tokens"`
	TotalTokens              *float64 `json:"total_tokens"`
	ToolUses                 *float64 `json:"tool_uses"`
	DurationMs               *float64 `json:"duration_ms"`
	// CacheCreation breaks the cache written down by its lifetime.
	CacheCreation *struct {
		Hour    *float64 `json:"ephemeral_1h_input_tokens"`
		FiveMin *float64 `json:"ephemeral_5m_input_tokens"`
	} `json:"cache_creation"`
}

// CacheTTL is the lifetime of the prompt cache the request wrote: "1h",
// "5m", or "" when the usage does not say.
func (u *Usage) CacheTTL() string {
	if u == nil || u.CacheCreation == nil {
		return ""
	}
	switch c := u.CacheCreation; {
	case c.Hour != nil && *c.Hour > 0:
		return "1h"
	case c.FiveMin != nil && *c.FiveMin > 0:
		return "5m"
	}
	return ""
}

// Event is a stream_event's API event; Raw is all of it.
type Event struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message struct {
		ID    string `json:"id"`
		Model string `json:"model"`
		Usage *Usage `json:"usage"`
	} `json:"message"`
	// ContentBlock is a content_block_start's block; Content and
	// Delta.Content are a compaction block's text.
	ContentBlock struct {
		Type    string  `json:"type"`
		Content *string `json:"content"`
		// ID, Name and Input are a started tool use's.
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"content_block"`
	Delta struct {
		Type     string  `json:"type"`
		Text     string  `json:"text"`
		Thinking string  `json:"thinking"`
		Content  *string `json:"content"`
		// PartialJSON is a streamed tool input's next piece.
		PartialJSON string `json:"partial_json"`
	} `json:"delta"`
	Usage *Usage          `json:"usage"`
	Raw   json.RawMessage `json:"-"`
}

// System is what the agent reads of the system lines of its own subtypes:
// a memory recall, a model refusal fallback, an API retry, a task's and
// the session state's lifecycle.
type System struct {
	Mode     string   `json:"mode"`
	Memories []Memory `json:"memories"`

	OriginalModel         string `json:"original_model"`
	FallbackModel         string `json:"fallback_model"`
	Direction             string `json:"direction"`
	Scope                 string `json:"scope"`
	APIRefusalCategory    string `json:"api_refusal_category"`
	APIRefusalExplanation string `json:"api_refusal_explanation"`

	Attempt     int  `json:"attempt"`
	MaxRetries  int  `json:"max_retries"`
	ErrorStatus *int `json:"error_status"`
	NoResponse  *struct {
		WaitedMs    float64 `json:"waited_ms"`
		RetryWaitMs float64 `json:"retry_wait_ms"`
	} `json:"no_response"`

	Status        *string `json:"status"`
	CompactResult string  `json:"compact_result"`
	CompactError  string  `json:"compact_error"`

	State string `json:"state"`
	// ElicitationID is an elicitation_complete line's URL elicitation:
	// its MCP server reported it done.
	ElicitationID string `json:"elicitation_id"`
	// CommandUUID is a command_lifecycle line's command: the prompt uuid.
	CommandUUID string `json:"command_uuid"`
	Task

	// Goal is an active_goal line's value (nil: cleared); Suggestion a
	// prompt_suggestion's text.
	Goal       *Goal  `json:"value"`
	Suggestion string `json:"suggestion"`
}

// Goal is the goal of an active_goal line; Malformed when its value
// is not a goal object.
type Goal struct {
	Condition  string
	Iterations int
	SetAt      int64
	LastReason *string
	Malformed  bool
}

// UnmarshalJSON implements json.Unmarshaler.
func (g *Goal) UnmarshalJSON(b []byte) error {
	var v struct {
		Condition  string  `json:"condition"`
		Iterations int     `json:"iterations"`
		SetAt      int64   `json:"set_at"`
		LastReason *string `json:"last_reason"`
	}
	err := json.Unmarshal(b, &v)
	*g = Goal{v.Condition, v.Iterations, v.SetAt, v.LastReason, err != nil}
	return nil
}

// Command is a slash command of a commands_changed line (and of the
// initialize response).
type Command struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	ArgumentHint json.RawMessage `json:"argumentHint"`
	Builtin      bool            `json:"builtin"`
}

// CompactMetadata is a compact_boundary's account of the compaction.
type CompactMetadata struct {
	Trigger    string   `json:"trigger"`
	PreTokens  *float64 `json:"pre_tokens"`
	PostTokens *float64 `json:"post_tokens"`
	DurationMs *float64 `json:"duration_ms"`
}

// Memory is a recalled memory: its file, and its text when synthesized.
type Memory struct {
	Path    string `json:"path"`
	Content any    `json:"content"`
}

// Task is what the agent reads of a task lifecycle line (task_started,
// task_progress, task_updated, task_notification, background_tasks_changed);
// a task_notification's status is System.Status, a task_progress's usage
// the frame's Usage.
type Task struct {
	TaskID         string  `json:"task_id"`
	TaskType       *string `json:"task_type"`
	Description    string  `json:"description"`
	IsBackgrounded *bool   `json:"is_backgrounded"`
	WorkflowName   string  `json:"workflow_name"`
	SkipTranscript *bool   `json:"skip_transcript"`
	Prompt         string  `json:"prompt"`
	Summary        string  `json:"summary"`
	LastToolName   string  `json:"last_tool_name"`
	OutputFile     string  `json:"output_file"`
	Reason         string  `json:"reason"`
	// Patch is a task_updated's change.
	Patch *TaskPatch `json:"patch"`
	// Tasks is a background_tasks_changed's level signal.
	Tasks []TaskRef `json:"tasks"`
}

// TaskPatch is the change a task_updated reports.
type TaskPatch struct {
	Status         string `json:"status"`
	Description    string `json:"description"`
	IsBackgrounded *bool  `json:"is_backgrounded"`
	Error          string `json:"error"`
	OutputFile     string `json:"output_file"`
}

// TaskRef is a task of a background_tasks_changed level signal.
type TaskRef struct {
	TaskID      string  `json:"task_id"`
	TaskType    *string `json:"task_type"`
	Description string  `json:"description"`
	// Ambient marks housekeeping Claude Code started on its own.
	Ambient bool `json:"ambient"`
	// ParentTaskID is the task of the subagent that runs this task.
	ParentTaskID string `json:"parent_task_id"`
}

// Type is the task's type ("" when unknown).
func (t TaskRef) Type() string {
	if t.TaskType == nil {
		return ""
	}
	return *t.TaskType
}

// ToolUseResult is a user line's tool_use_result: Raw as written, passed
// on, and what the agent reads of it itself: the background task it names,
// the agent a successful SendMessage resumed, and the task a Monitor or
// Workflow call started.
type ToolUseResult struct {
	Raw              json.RawMessage
	BackgroundTaskID string
	TaskID           string
	Success          bool
	ResumedAgentID   string
}

// UnmarshalJSON implements json.Unmarshaler: only a result that names a
// background task, a resumed agent or a started task is read beyond its
// Raw.
func (r *ToolUseResult) UnmarshalJSON(b []byte) error {
	r.Raw = b
	if bytes.Contains(b, []byte(`"backgroundTaskId"`)) || bytes.Contains(b, []byte(`"resumedAgentId"`)) ||
		bytes.Contains(b, []byte(`"taskId"`)) {
		var v struct {
			BackgroundTaskID string `json:"backgroundTaskId"`
			Success          bool   `json:"success"`
			ResumedAgentID   string `json:"resumedAgentId"`
			TaskID           any    `json:"taskId"`
		}
		_ = json.Unmarshal(b, &v)
		r.BackgroundTaskID, r.Success, r.ResumedAgentID = v.BackgroundTaskID, v.Success, v.ResumedAgentID
		r.TaskID, _ = v.TaskID.(string)
	}
	return nil
}

// SubagentTypeName is the line's subagent_type when it is a string.
func (f *Frame) SubagentTypeName() (name string, ok bool) {
	if len(f.SubagentType) == 0 || f.SubagentType[0] != '"' {
		return "", false
	}
	return name, json.Unmarshal(f.SubagentType, &name) == nil
}

// ModelUsage is a result's usage per model, in the CLI's key order.
type ModelUsage struct {
	Keys []string
	By   map[string]ModelUsageRow
}

// ModelUsageRow is one model's usage of a result; any count may be null
// or absent.
type ModelUsageRow struct {
	Input         *float64 `json:"inputTokens"`
	Output        *float64 `json:"outputTokens"`
	CacheRead     *float64 `json:"cacheReadInputTokens"`
	CacheWrite    *float64 `json:"cacheCreationInputTokens"`
	ContextWindow *float64 `json:"contextWindow"`
}

// UnmarshalJSON implements json.Unmarshaler: a modelUsage that is not an
// object of usage objects is left empty.
func (m *ModelUsage) UnmarshalJSON(b []byte) error {
	var by map[string]ModelUsageRow
	if json.Unmarshal(b, &by) != nil || by == nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		m.Keys = append(m.Keys, tok.(string))
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	m.By = by
	return nil
}

// UnmarshalJSON implements json.Unmarshaler: a string message is Text.
func (m *LineMessage) UnmarshalJSON(b []byte) error {
	switch b[0] {
	case '"':
		var s string
		if json.Unmarshal(b, &s) == nil {
			m.Text = &s
		}
		return nil
	case '{':
		type plain LineMessage
		err := json.Unmarshal(b, (*plain)(m))
		if len(m.ContentRaw) > 0 && m.ContentRaw[0] == '[' {
			_ = json.Unmarshal(m.ContentRaw, &m.Content)
		}
		return typeErrorOnly(err)
	}
	return nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (e *Event) UnmarshalJSON(b []byte) error {
	type plain Event
	err := json.Unmarshal(b, (*plain)(e))
	e.Raw = b
	return typeErrorOnly(err)
}

// typeErrorOnly drops a value of the wrong JSON type, which leaves its
// field zero; the line is valid JSON, so no other error is possible.
func typeErrorOnly(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return nil
	}
	return err
}

// ErrNoType is the DecodeFrame error of a JSON object without a string
// type.
var ErrNoType = errors.New("stream-json line has no type")

// DecodeFrame reads a CLI line that is not a control frame, once: every
// line the agent gets from a Process goes through it (tests swap it to
// count decodes). The Frame keeps line as its Raw and slices of it: the
// caller hands line over and never changes it.
var DecodeFrame = decodeFrame

func decodeFrame(line []byte) (*Frame, error) {
	if f, ok := decodeStreamEvent(line); ok {
		return f, nil
	}
	return decodeFrameJSON(line)
}

// decodeFrameJSON is DecodeFrame with encoding/json.
func decodeFrameJSON(line []byte) (*Frame, error) {
	both := &struct {
		f Frame
		d Detail
	}{} // one allocation for the frame and its detail
	f := &both.f
	f.Raw, f.Detail = line, &both.d
	if err := typeErrorOnly(json.Unmarshal(line, f)); err != nil {
		return nil, fmt.Errorf("stream-json line: %w", err)
	}
	if f.Type == "" {
		return nil, ErrNoType
	}
	return f, nil
}

// MCPServerStatus is one MCP server of an init line: its name and its
// status (connected, failed, needs-auth, pending, disabled).
type MCPServerStatus struct {
	Name   string `json:"name"`
	Status string `json:"status"`
}
