package claude

import (
	"encoding/json"

	"github.com/airwire/airwire/internal/uuid"
)

// ControlRequest is a control request the agent sends the CLI
// (`{"type":"control_request","request_id":…,"request":{"subtype":…}}`).
// The value is the request body without its subtype.
type ControlRequest interface {
	Subtype() string
}

// GetSettings asks for the CLI's effective settings (sent right after
// initialize).
type GetSettings struct{}

// GetContextUsage asks for the context window breakdown; Detail is
// "summary" or "full" ("" sends none).
type GetContextUsage struct {
	Detail string `json:"detail,omitempty"`
}

// GenerateSessionTitle asks the CLI to title the session from the first
// prompt; Persist stores it in the transcript.
type GenerateSessionTitle struct {
	Description string `json:"description"`
	Persist     bool   `json:"persist,omitempty"`
}

// Interrupt stops the running turn (CancelQueued drops queued prompts too).
type Interrupt struct {
	CancelQueued bool `json:"cancel_queued,omitempty"`
}

// SetPermissionMode switches the permission mode.
type SetPermissionMode struct {
	Mode string `json:"mode"`
}

// SetModel switches the model ("" returns to the default).
type SetModel struct {
	Model string `json:"model,omitempty"`
}

// ApplyFlagSettings lays settings over the flag-settings tier
// (`{"effortLevel":"high"}`, `{"fastMode":true}`, …).
type ApplyFlagSettings struct {
	Settings json.RawMessage `json:"settings"`
}

// MCPStatus asks for the MCP servers' states.
type MCPStatus struct{}

// GetUsage asks for the structured usage of the session and the account
// (the SDK's experimental usage call).
type GetUsage struct{}

// MCPReconnect reconnects one MCP server.
type MCPReconnect struct {
	ServerName string `json:"serverName"`
}

// MCPToggle enables or disables one MCP server.
type MCPToggle struct {
	ServerName string `json:"serverName"`
	Enabled    bool   `json:"enabled"`
}

// MCPAuthenticate starts the OAuth sign-in of one MCP server; Claude Code
// answers whether the user must act, and the URL to show.
type MCPAuthenticate struct {
	ServerName string `json:"serverName"`
}

// RenameSession sets the session's title; the reference sends
// Source "host" and the session id.
type RenameSession struct {
	Title     string `json:"title"`
	Source    string `json:"source,omitempty"`
	SessionID string `json:"session_id,omitempty"`
}

// CancelAsyncMessage withdraws a user message Claude Code still holds
// queued; a message it already dequeued still runs ("cancelled": false).
type CancelAsyncMessage struct {
	MessageUUID string `json:"message_uuid"`
}

// StopTask stops one background task.
type StopTask struct {
	TaskID string `json:"task_id"`
}

// RewindFiles rewinds (or with DryRun only measures) the file changes made
// since the user message UserMessageID.
type RewindFiles struct {
	UserMessageID string `json:"user_message_id"`
	DryRun        bool   `json:"dry_run,omitempty"`
}

// Subtype implements ControlRequest.
func (GetSettings) Subtype() string { return "get_settings" }

// Subtype implements ControlRequest.
func (GetContextUsage) Subtype() string { return "get_context_usage" }

// Subtype implements ControlRequest.
func (GenerateSessionTitle) Subtype() string { return "generate_session_title" }

// Subtype implements ControlRequest.
func (Interrupt) Subtype() string { return "interrupt" }

// Subtype implements ControlRequest.
func (SetPermissionMode) Subtype() string { return "set_permission_mode" }

// Subtype implements ControlRequest.
func (SetModel) Subtype() string { return "set_model" }

// Subtype implements ControlRequest.
func (ApplyFlagSettings) Subtype() string { return "apply_flag_settings" }

// Subtype implements ControlRequest.
func (MCPStatus) Subtype() string { return "mcp_status" }

// Subtype implements ControlRequest.
func (GetUsage) Subtype() string { return "get_usage" }

// Subtype implements ControlRequest.
func (MCPReconnect) Subtype() string { return "mcp_reconnect" }

// Subtype implements ControlRequest.
func (MCPToggle) Subtype() string { return "mcp_toggle" }

// Subtype implements ControlRequest.
func (MCPAuthenticate) Subtype() string { return "mcp_authenticate" }

// Subtype implements ControlRequest.
func (RenameSession) Subtype() string { return "rename_session" }

// Subtype implements ControlRequest.
func (StopTask) Subtype() string { return "stop_task" }

// Subtype implements ControlRequest.
func (CancelAsyncMessage) Subtype() string { return "cancel_async_message" }

// Subtype implements ControlRequest.
func (RewindFiles) Subtype() string { return "rewind_files" }

var (
	_ ControlRequest = GetSettings{}
	_ ControlRequest = GetContextUsage{}
	_ ControlRequest = GenerateSessionTitle{}
	_ ControlRequest = Interrupt{}
	_ ControlRequest = SetPermissionMode{}
	_ ControlRequest = SetModel{}
	_ ControlRequest = ApplyFlagSettings{}
	_ ControlRequest = MCPStatus{}
	_ ControlRequest = GetUsage{}
	_ ControlRequest = MCPReconnect{}
	_ ControlRequest = MCPToggle{}
	_ ControlRequest = MCPAuthenticate{}
	_ ControlRequest = RenameSession{}
	_ ControlRequest = StopTask{}
	_ ControlRequest = CancelAsyncMessage{}
	_ ControlRequest = RewindFiles{}
	_ ControlRequest = initializeBody{}
)

// UserInput is a user message written to the CLI's stdin.
type UserInput struct {
	Type    string `json:"type"`
	Message struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	SessionID       string  `json:"session_id"`
	ParentToolUseID *string `json:"parent_tool_use_id"`
	Origin          *Origin `json:"origin,omitempty"`
	// UUID is echoed back by the CLI as user_message_uuid(s).
	UUID string `json:"uuid,omitempty"`
	// Priority is "now", "next" or "later" ("" for none).
	Priority string `json:"priority,omitempty"`
}

// Origin says who wrote a user message.
type Origin struct {
	Kind string `json:"kind"`
	// Raw is the origin as a CLI line wrote it.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON implements json.Unmarshaler: an origin that is not an
// object keeps only its Raw.
func (o *Origin) UnmarshalJSON(b []byte) error {
	type plain Origin
	_ = json.Unmarshal(b, (*plain)(o))
	o.Raw = b
	return nil
}

// NewUserInput is a prompt the user typed, as the reference sends it:
// content blocks, origin human, a fresh uuid, no parent tool use.
func NewUserInput(sessionID string, content json.RawMessage) UserInput {
	u := UserInput{Type: "user", SessionID: sessionID, Origin: &Origin{Kind: "human"}, UUID: uuid.New()}
	u.Message.Role, u.Message.Content = "user", content
	return u
}

// PermissionResult answers can_use_tool. Behavior is "allow" (with
// UpdatedInput, and UpdatedPermissions for "always") or "deny" (with
// Message, and Interrupt to end the turn). ToolUseID is always set.
type PermissionResult struct {
	Behavior               string          `json:"behavior"`
	UpdatedInput           json.RawMessage `json:"updatedInput,omitempty"`
	UpdatedPermissions     json.RawMessage `json:"updatedPermissions,omitempty"`
	Message                string          `json:"message,omitempty"`
	Interrupt              bool            `json:"interrupt,omitempty"`
	ToolUseID              string          `json:"toolUseID"`
	DecisionClassification string          `json:"decisionClassification,omitempty"`
}

// ElicitResult answers elicitation: Action "accept" (with Content),
// "decline" or "cancel".
type ElicitResult struct {
	Action  string          `json:"action"`
	Content json.RawMessage `json:"content,omitempty"`
}

// HookContinue is the hook output that lets the CLI go on.
var HookContinue = json.RawMessage(`{"continue":true}`)
