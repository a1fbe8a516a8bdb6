package claude

import "encoding/json"

// SystemInit starts every turn: the session's tools, model, mode and
// commands as the CLI sees them.
type SystemInit struct {
	Header
	Cwd               string          `json:"cwd"`
	Model             string          `json:"model"`
	PermissionMode    string          `json:"permissionMode"`
	Tools             []string        `json:"tools"`
	MCPServers        json.RawMessage `json:"mcp_servers,omitempty"`
	SlashCommands     []string        `json:"slash_commands"`
	Agents            []string        `json:"agents"`
	Skills            json.RawMessage `json:"skills,omitempty"`
	APIKeySource      string          `json:"apiKeySource"`
	ClaudeCodeVersion string          `json:"claude_code_version"`
	OutputStyle       string          `json:"output_style"`
	FastModeState     string          `json:"fast_mode_state,omitempty"`
	UserMessageUUIDs  []string        `json:"user_message_uuids,omitempty"`
}

// SessionStateChanged is the CLI's run state: idle, running or
// requires_action.
type SessionStateChanged struct {
	Header
	State string `json:"state"`
}

// Status is sent before each API request and on a mode change; Status is
// "requesting", "compacting" or null.
type Status struct {
	Header
	Status         *string `json:"status"`
	PermissionMode string  `json:"permissionMode,omitempty"`
	CompactResult  string  `json:"compact_result,omitempty"`
	CompactError   string  `json:"compact_error,omitempty"`
}

// APIRetry reports a failed API call that will be retried.
type APIRetry struct {
	Header
	Attempt      int             `json:"attempt"`
	MaxRetries   int             `json:"max_retries"`
	RetryDelayMS float64         `json:"retry_delay_ms"`
	ErrorStatus  *int            `json:"error_status"`
	Error        json.RawMessage `json:"error,omitempty"`
}

// CompactBoundary marks a compaction of the conversation.
type CompactBoundary struct {
	Header
	CompactMetadata json.RawMessage `json:"compact_metadata"`
}

// TaskStarted announces a background task (subagent, shell, workflow).
type TaskStarted struct {
	Header
	TaskID         string `json:"task_id"`
	ToolUseID      string `json:"tool_use_id,omitempty"`
	Description    string `json:"description"`
	SubagentType   string `json:"subagent_type,omitempty"`
	TaskType       string `json:"task_type,omitempty"`
	IsBackgrounded bool   `json:"is_backgrounded,omitempty"`
	ParentTaskID   string `json:"parent_task_id,omitempty"`
	Prompt         string `json:"prompt,omitempty"`
}

// TaskProgress reports a task's progress.
type TaskProgress struct {
	Header
	TaskID       string          `json:"task_id"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	Description  string          `json:"description"`
	Usage        json.RawMessage `json:"usage,omitempty"`
	LastToolName string          `json:"last_tool_name,omitempty"`
	Summary      string          `json:"summary,omitempty"`
}

// TaskUpdated patches a task's state.
type TaskUpdated struct {
	Header
	TaskID string          `json:"task_id"`
	Patch  json.RawMessage `json:"patch"`
}

// TaskNotification ends a task: completed, failed or stopped.
type TaskNotification struct {
	Header
	TaskID     string          `json:"task_id"`
	ToolUseID  string          `json:"tool_use_id,omitempty"`
	Status     string          `json:"status"`
	OutputFile string          `json:"output_file,omitempty"`
	Summary    string          `json:"summary,omitempty"`
	Usage      json.RawMessage `json:"usage,omitempty"`
}

// BackgroundTasksChanged replaces the list of background tasks.
type BackgroundTasksChanged struct {
	Header
	Tasks json.RawMessage `json:"tasks"`
}

// Informational is a notice for the user.
type Informational struct {
	Header
	Content   string `json:"content"`
	Level     string `json:"level"`
	ToolUseID string `json:"tool_use_id,omitempty"`
}

// PermissionDenied reports a tool use the CLI denied by itself.
type PermissionDenied struct {
	Header
	ToolName           string `json:"tool_name"`
	ToolUseID          string `json:"tool_use_id"`
	Message            string `json:"message"`
	DecisionReason     string `json:"decision_reason,omitempty"`
	DecisionReasonType string `json:"decision_reason_type,omitempty"`
}

// SessionTitleChanged follows rename_session or title generation.
type SessionTitleChanged struct {
	Header
	Title string `json:"title"`
}

// ThinkingTokens estimates the thinking tokens so far.
type ThinkingTokens struct {
	Header
	EstimatedTokens      int `json:"estimated_tokens"`
	EstimatedTokensDelta int `json:"estimated_tokens_delta"`
}

// CommandsChanged replaces the slash commands.
type CommandsChanged struct {
	Header
	Commands json.RawMessage `json:"commands"`
}

// LocalCommandOutput is the output of a local slash command.
type LocalCommandOutput struct {
	Header
	Content string `json:"content"`
}

// MemoryRecall lists the memories the CLI recalled.
type MemoryRecall struct {
	Header
	Mode     string          `json:"mode"`
	Memories json.RawMessage `json:"memories"`
}

// ModelRefusalFallback reports a refusal answered by a fallback model.
type ModelRefusalFallback struct {
	Header
	OriginalModel string `json:"original_model"`
	FallbackModel string `json:"fallback_model,omitempty"`
	RequestID     string `json:"request_id,omitempty"`
	Content       string `json:"content,omitempty"`
}

// WorkerShuttingDown says the CLI is about to exit.
type WorkerShuttingDown struct {
	Header
	Reason string `json:"reason"`
}

// Notification is a transient notice.
type Notification struct {
	Header
	Key      string `json:"key"`
	Text     string `json:"text"`
	Priority string `json:"priority,omitempty"`
}

// newSystem returns an empty value for a system line's subtype.
func newSystem(subtype string) Message {
	switch subtype {
	case "init":
		return &SystemInit{}
	case "session_state_changed":
		return &SessionStateChanged{}
	case "status":
		return &Status{}
	case "api_retry":
		return &APIRetry{}
	case "compact_boundary":
		return &CompactBoundary{}
	case "task_started":
		return &TaskStarted{}
	case "task_progress":
		return &TaskProgress{}
	case "task_updated":
		return &TaskUpdated{}
	case "task_notification":
		return &TaskNotification{}
	case "background_tasks_changed":
		return &BackgroundTasksChanged{}
	case "informational":
		return &Informational{}
	case "permission_denied":
		return &PermissionDenied{}
	case "session_title_changed":
		return &SessionTitleChanged{}
	case "thinking_tokens":
		return &ThinkingTokens{}
	case "commands_changed":
		return &CommandsChanged{}
	case "local_command_output":
		return &LocalCommandOutput{}
	case "memory_recall":
		return &MemoryRecall{}
	case "model_refusal_fallback":
		return &ModelRefusalFallback{}
	case "worker_shutting_down":
		return &WorkerShuttingDown{}
	case "notification":
		return &Notification{}
	}
	return &Unknown{}
}
