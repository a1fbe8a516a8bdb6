package toolcall

import (
	"bytes"
	"encoding/json"
)

// Update is one `session/update` params.update object that this package
// produces: a `tool_call`, a `tool_call_update` or a `plan`. A nil pointer
// field is absent from the JSON; a pointer to an empty list is `[]`.
type Update struct {
	Meta          *Meta           `json:"_meta,omitempty"`
	ToolCallID    string          `json:"toolCallId,omitempty"`
	SessionUpdate string          `json:"sessionUpdate"`
	Name          string          `json:"name,omitempty"`
	RawInput      json.RawMessage `json:"rawInput,omitempty"`
	Status        string          `json:"status,omitempty"`
	Title         *string         `json:"title,omitempty"`
	Kind          string          `json:"kind,omitempty"`
	Content       *[]Content      `json:"content,omitempty"`
	Locations     *[]Location     `json:"locations,omitempty"`
	RawOutput     json.RawMessage `json:"rawOutput,omitempty"`
	Entries       *[]PlanEntry    `json:"entries,omitempty"`
	Plan          *MarkdownPlan   `json:"plan,omitempty"`

	// final marks the tool's final change (the PostToolUse hook), which
	// replaces a pinned approval patch.
	final bool
}

// Session update kinds this package sends.
const (
	kindToolCall       = "tool_call"
	kindToolCallUpdate = "tool_call_update"
	kindPlan           = "plan"
	kindPlanUpdate     = "plan_update"
)

// Meta is the `_meta` of a tool call report: the upstream `claudeCode`
// keys, the Zed terminal channel (contract: "Zed conventions"), and for an
// AIR client the JetBrains keys (contract: "AIR metadata keys", "JetBrains
// shared keys").
type Meta struct {
	ClaudeCode          *ClaudeCode   `json:"claudeCode,omitempty"`
	IsMCPToolCall       bool          `json:"is_mcp_tool_call,omitempty"`
	JetBrains           *JetBrains    `json:"jetbrains,omitempty"`
	TerminalInfo        *TerminalRef  `json:"terminal_info,omitempty"`
	TerminalOutput      *TerminalData `json:"terminal_output,omitempty"`
	TerminalOutputDelta *TerminalData `json:"terminal_output_delta,omitempty"`
	TerminalExit        *TerminalExit `json:"terminal_exit,omitempty"`
}

// ClaudeCode is `_meta.claudeCode`.
type ClaudeCode struct {
	ToolName         string          `json:"toolName,omitempty"`
	ParentToolUseID  string          `json:"parentToolUseId,omitempty"`
	ToolResponse     json.RawMessage `json:"toolResponse,omitempty"`
	NonExecutionKind string          `json:"nonExecutionKind,omitempty"`
	UserFeedback     string          `json:"userFeedback,omitempty"`
}

// TerminalRef is `_meta.terminal_info`.
type TerminalRef struct {
	TerminalID string `json:"terminal_id"`
}

// TerminalData is `_meta.terminal_output`.
type TerminalData struct {
	TerminalID string `json:"terminal_id"`
	Data       string `json:"data"`
}

// TerminalExit is `_meta.terminal_exit`. ExitCode nil is JSON null.
type TerminalExit struct {
	TerminalID string  `json:"terminal_id"`
	ExitCode   *int    `json:"exit_code"`
	Signal     *string `json:"signal"`
}

// Location is an ACP tool call location.
type Location struct {
	Path string `json:"path"`
	Line *int   `json:"line,omitempty"`
}

// Content is one ACP tool call content item, as JSON.
type Content = json.RawMessage

// PlanEntry is one entry of a `plan` update.
type PlanEntry struct {
	Content  string `json:"content"`
	Status   string `json:"status"`
	Priority string `json:"priority"`
}

// JSON encodes the update as the reference does: no HTML escaping.
func (u Update) JSON() json.RawMessage { return encode(u) }

// encode marshals v without HTML escaping and without the trailing newline.
func encode(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return json.RawMessage("null")
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// stampParent attributes a report to the Agent/Task tool call of the
// subagent that made it (`_meta.claudeCode.parentToolUseId`).
func stampParent(u *Update, parent string) {
	if parent == "" {
		return
	}
	if u.Meta == nil {
		u.Meta = &Meta{}
	}
	if u.Meta.ClaudeCode == nil {
		u.Meta.ClaudeCode = &ClaudeCode{}
	}
	u.Meta.ClaudeCode.ParentToolUseID = parent
}

func ptr[T any](v T) *T { return &v }

// list returns a pointer to a list that is never JSON null.
func list[T any](items ...T) *[]T {
	if items == nil {
		items = []T{}
	}
	return &items
}
