package scenario

import "time"

// CLIScript is the `cli` section of a scenario: what the fake Claude CLI
// answers and emits. The fake reads it from the file named by
// AIRWIRE_FAKE_CLI_SCRIPT (JSON or YAML).
//
// String values in frames may hold placeholders that the fake fills in at run
// time (see CLIPlaceholders): {{cwd}}, {{home}}, {{config_dir}},
// {{session_id}}, {{transcript_path}}.
type CLIScript struct {
	// Model is the resolved model the fake reports (default DefaultModel).
	Model string `yaml:"model,omitempty" json:"model,omitempty"`
	// Auth replaces the JSON printed by `auth status --json`. With
	// loggedIn:true the command exits 0, otherwise 1.
	Auth map[string]any `yaml:"auth,omitempty" json:"auth,omitempty"`
	// Init is merged (top-level keys replace) over the default initialize
	// response body.
	Init map[string]any `yaml:"init,omitempty" json:"init,omitempty"`
	// Controls overrides the answer to host → CLI control requests, by subtype.
	Controls map[string]ControlOverride `yaml:"controls,omitempty" json:"controls,omitempty"`
	// PromptSuggestion, when set and the host asked for promptSuggestions,
	// makes the fake run the real CLI's prompt-suggestion agent after every
	// successful turn, after idle: the SubagentStop hook of that agent, then
	// prompt_suggestion with this text. It is opt-in because nothing the
	// editor does follows it, so a scenario that wants it waits for its
	// effect (see prompt-suggestion.yaml).
	PromptSuggestion string `yaml:"promptSuggestion,omitempty" json:"promptSuggestion,omitempty"`
	// Start holds frames emitted right after the initialize response. Only
	// emit and system steps are allowed here.
	Start []Step `yaml:"start,omitempty" json:"start,omitempty"`
	// Turns are played one per user message: the first unused turn whose
	// Match and Process fit the message. A message with no fitting turn gets a
	// short default text reply.
	Turns []Turn `yaml:"turns,omitempty" json:"turns,omitempty"`
}

// ControlOverride replaces the fake's built-in answer to one host → CLI
// control request subtype.
type ControlOverride struct {
	// Response is the success body.
	Response map[string]any `yaml:"response,omitempty" json:"response,omitempty"`
	// Error, when set, answers {subtype:error, error}.
	Error string `yaml:"error,omitempty" json:"error,omitempty"`
	// NoReply leaves the request unanswered.
	NoReply bool `yaml:"noReply,omitempty" json:"noReply,omitempty"`
	// Emit holds frames written after the reply.
	Emit []map[string]any `yaml:"emit,omitempty" json:"emit,omitempty"`
}

// Process kinds a turn can be limited to, from the CLI's argv.
const (
	// ProcessNew is a process started without --resume.
	ProcessNew = "new"
	// ProcessResume is a process started with --resume and no --fork-session.
	ProcessResume = "resume"
	// ProcessFork is a process started with --resume and --fork-session.
	ProcessFork = "fork"
)

// Turn is the fake CLI's answer to one user message.
type Turn struct {
	// Match, when set, must be a substring of the user message's text.
	Match string `yaml:"match,omitempty" json:"match,omitempty"`
	// Process, when set, limits the turn to one process kind (new, resume, fork).
	Process string `yaml:"process,omitempty" json:"process,omitempty"`
	// Local marks a local slash command (/compact, /context): the real CLI
	// writes no system/init, no status requesting and no echo before the
	// steps; the echo comes after them in <command-name> form, and the
	// result has num_turns 0 and stop_reason null.
	Local bool `yaml:"local,omitempty" json:"local,omitempty"`
	// Autonomous, when set, is the origin of a turn the CLI starts on its
	// own (e.g. {kind: task-notification, runId: ...} after a background
	// task completed): the turn is not played for a prompt but right after
	// the previous turn of the script (and its Then frames), without
	// command_lifecycle or echo, and its result carries the origin.
	Autonomous map[string]any `yaml:"autonomous,omitempty" json:"autonomous,omitempty"`
	// Steps run in order. A turn without a result step gets a success result
	// at its end; every turn ends with session_state_changed idle.
	Steps []Step `yaml:"steps" json:"steps"`
	// Then are frames (system and emit steps) the CLI writes after the turn
	// ended (after idle and the prompt suggestion), such as a background
	// task's completion: task_updated, task_notification,
	// background_tasks_changed.
	Then []Step `yaml:"then,omitempty" json:"then,omitempty"`
}

// Step is one scripted action of the fake CLI. Exactly one field is set.
type Step struct {
	// Text streams one assistant message holding one text block.
	Text *string `yaml:"text,omitempty" json:"text,omitempty"`
	// Thinking streams one assistant message holding one thinking block.
	Thinking *string `yaml:"thinking,omitempty" json:"thinking,omitempty"`
	// Assistant streams one assistant message with several blocks.
	Assistant *AssistantStep `yaml:"assistant,omitempty" json:"assistant,omitempty"`
	// Tool is a whole tool call: message, hooks, permission, result.
	Tool *ToolStep `yaml:"tool,omitempty" json:"tool,omitempty"`
	// ToolResult emits a user tool_result frame alone.
	ToolResult *ToolResultStep `yaml:"toolResult,omitempty" json:"toolResult,omitempty"`
	// System emits {type:system, ...}; it must name a subtype.
	System map[string]any `yaml:"system,omitempty" json:"system,omitempty"`
	// Emit writes a raw frame; uuid and session_id are added when missing
	// (except for control_* and keep_alive frames).
	Emit map[string]any `yaml:"emit,omitempty" json:"emit,omitempty"`
	// Control sends a CLI → host control request ({subtype, ...}) and waits
	// for the response.
	Control map[string]any `yaml:"control,omitempty" json:"control,omitempty"`
	// Elicitation sends an elicitation control request and waits.
	Elicitation map[string]any `yaml:"elicitation,omitempty" json:"elicitation,omitempty"`
	// Hook sends hook_callback to every callback id the host registered for
	// the event, one at a time, waiting for each response.
	Hook *HookStep `yaml:"hook,omitempty" json:"hook,omitempty"`
	// Result ends the turn with a result frame; its keys override the
	// defaults (subtype success, stop_reason end_turn, zero cost, ...).
	Result map[string]any `yaml:"result,omitempty" json:"result,omitempty"`
	// APIError ends the turn the way the real CLI ends it when the API
	// request fails for good (see APIErrorStep).
	APIError *APIErrorStep `yaml:"apiError,omitempty" json:"apiError,omitempty"`
	// Pause blocks the turn until an event (see PauseStep).
	Pause *PauseStep `yaml:"pause,omitempty" json:"pause,omitempty"`
	// Exit ends the process at once (e.g. transport loss).
	Exit *ExitStep `yaml:"exit,omitempty" json:"exit,omitempty"`
}

// AssistantStep is one streamed API message.
type AssistantStep struct {
	// ID is message.id (default msg_<first tool id> or msg_<n>).
	ID string `yaml:"id,omitempty" json:"id,omitempty"`
	// Content is the message's blocks, in order.
	Content []Block `yaml:"content" json:"content"`
	// StopReason defaults to tool_use when a block is a tool_use, else end_turn.
	StopReason string `yaml:"stopReason,omitempty" json:"stopReason,omitempty"`
	// ParentToolUseID marks a subagent's message.
	ParentToolUseID string `yaml:"parentToolUseId,omitempty" json:"parentToolUseId,omitempty"`
	// NoStream skips the stream_event frames and emits only the consolidated
	// assistant frames.
	NoStream bool `yaml:"noStream,omitempty" json:"noStream,omitempty"`
	// Model replaces the builder's model on this message (e.g. <synthetic>
	// for the CLI's own error messages).
	Model string `yaml:"model,omitempty" json:"model,omitempty"`
	// Error sets assistant.error (e.g. rate_limit, authentication_failed).
	Error string `yaml:"error,omitempty" json:"error,omitempty"`
	// Extra is merged into every assistant frame of the message.
	Extra map[string]any `yaml:"extra,omitempty" json:"extra,omitempty"`
}

// Block is one content block. Exactly one field is set.
type Block struct {
	Text     *string        `yaml:"text,omitempty" json:"text,omitempty"`
	Thinking *string        `yaml:"thinking,omitempty" json:"thinking,omitempty"`
	ToolUse  *ToolUse       `yaml:"toolUse,omitempty" json:"toolUse,omitempty"`
	Raw      map[string]any `yaml:"raw,omitempty" json:"raw,omitempty"`
}

// ToolUse is a tool_use block.
type ToolUse struct {
	ID    string         `yaml:"id" json:"id"`
	Name  string         `yaml:"name" json:"name"`
	Input map[string]any `yaml:"input" json:"input"`
}

// Hook events the fake sends by default around a tool call.
const (
	HookPreToolUse  = "PreToolUse"
	HookPostToolUse = "PostToolUse"
)

// ToolStep expands into a whole tool call (see Builder.Tool): the assistant
// message with the tool_use block, the PreToolUse hook when asked for, the
// can_use_tool round trip when Permission is ask, the PostToolUse hook and
// the user tool_result.
type ToolStep struct {
	// ID is the tool_use id; default toolu_<lowercased name>.
	ID    string         `yaml:"id,omitempty" json:"id,omitempty"`
	Name  string         `yaml:"name" json:"name"`
	Input map[string]any `yaml:"input,omitempty" json:"input,omitempty"`
	// Text streams a text block before the tool_use in the same message.
	Text string `yaml:"text,omitempty" json:"text,omitempty"`
	// ParentToolUseID marks a subagent's tool call.
	ParentToolUseID string `yaml:"parentToolUseId,omitempty" json:"parentToolUseId,omitempty"`
	// Permission is ask (send can_use_tool and obey the answer) or empty
	// (run without asking).
	Permission string `yaml:"permission,omitempty" json:"permission,omitempty"`
	// Suggestions is can_use_tool.permission_suggestions.
	Suggestions []map[string]any `yaml:"suggestions,omitempty" json:"suggestions,omitempty"`
	// BlockedPath is can_use_tool.blocked_path.
	BlockedPath string `yaml:"blockedPath,omitempty" json:"blockedPath,omitempty"`
	// DecisionReason is can_use_tool.decision_reason.
	DecisionReason string `yaml:"decisionReason,omitempty" json:"decisionReason,omitempty"`
	// DecisionReasonType is can_use_tool.decision_reason_type.
	DecisionReasonType string `yaml:"decisionReasonType,omitempty" json:"decisionReasonType,omitempty"`
	// Title, DisplayName and Description are passed on can_use_tool.
	Title       string `yaml:"title,omitempty" json:"title,omitempty"`
	DisplayName string `yaml:"displayName,omitempty" json:"displayName,omitempty"`
	Description string `yaml:"description,omitempty" json:"description,omitempty"`
	// HookToolName is the tool_name the hooks see when it differs from Name
	// (the real CLI names Task "Agent" in its hooks).
	HookToolName string `yaml:"hookToolName,omitempty" json:"hookToolName,omitempty"`
	// PermissionExtra is merged into the can_use_tool request.
	PermissionExtra map[string]any `yaml:"permissionExtra,omitempty" json:"permissionExtra,omitempty"`
	// Hooks lists the hook events sent for this call, in order of the call's
	// life (PreToolUse mid-stream, PostToolUse after the run). Nil means
	// [PreToolUse, PostToolUse], as the real CLI always calls both; an empty
	// list sends none.
	Hooks []string `yaml:"hooks,omitempty" json:"hooks"` // no omitempty: [] must survive the JSON script
	// SequentialHooks sends PostToolUse to one callback after the other
	// instead of to all at once as the real CLI does (for a scenario whose
	// adapter races on concurrent callbacks; say why in the scenario).
	SequentialHooks bool `yaml:"sequentialHooks,omitempty" json:"sequentialHooks,omitempty"`
	// Result is the tool_result content: a string or a list of blocks.
	Result any `yaml:"result,omitempty" json:"result,omitempty"`
	// IsError marks the result as an error (and sends PostToolUseFailure
	// instead of PostToolUse).
	IsError bool `yaml:"isError,omitempty" json:"isError,omitempty"`
	// ToolUseResult is the structured tool_use_result of the user frame.
	ToolUseResult any `yaml:"toolUseResult,omitempty" json:"toolUseResult,omitempty"`
	// BeforeResult are steps played after the tool ran and before its
	// tool_result (e.g. the task_started of a background command, which the
	// real CLI writes before the result).
	BeforeResult []Step `yaml:"beforeResult,omitempty" json:"beforeResult,omitempty"`
	// WriteFile writes a file (path relative to cwd) before the result, as the
	// real tool would.
	WriteFile *FileWrite `yaml:"writeFile,omitempty" json:"writeFile,omitempty"`
}

// FileWrite is a file the fake writes while running a tool.
type FileWrite struct {
	Path    string `yaml:"path" json:"path"`
	Content string `yaml:"content" json:"content"`
}

// ToolResultStep is a user tool_result frame on its own (late results,
// subagent results).
type ToolResultStep struct {
	ToolUseID       string `yaml:"toolUseId" json:"toolUseId"`
	Result          any    `yaml:"result,omitempty" json:"result,omitempty"`
	IsError         bool   `yaml:"isError,omitempty" json:"isError,omitempty"`
	ToolUseResult   any    `yaml:"toolUseResult,omitempty" json:"toolUseResult,omitempty"`
	ParentToolUseID string `yaml:"parentToolUseId,omitempty" json:"parentToolUseId,omitempty"`
	// Extra is merged into the user frame (e.g. tool_result_meta with a
	// non_execution_kind for a refused tool).
	Extra map[string]any `yaml:"extra,omitempty" json:"extra,omitempty"`
}

// APIErrorStep is the real CLI's end of a turn whose API request failed
// after its retries: a synthetic assistant message (model <synthetic>, no
// stream events) carrying error and is_api_error_message with the CLI's
// text, then a result with subtype success, is_error, stop_reason
// stop_sequence and terminal_reason api_error; the turn's command_lifecycle
// ends cancelled. Retries (system api_retry steps) that open the turn are
// written before the prompt's echo, as the real CLI writes them.
type APIErrorStep struct {
	// Status is the HTTP status (api_error_status), e.g. 529.
	Status int `yaml:"status" json:"status"`
	// Error is assistant.error (server_error, rate_limit,
	// authentication_failed, ...); default server_error.
	Error string `yaml:"error,omitempty" json:"error,omitempty"`
	// Text is the message text; default the CLI's text for a 5xx.
	Text string `yaml:"text,omitempty" json:"text,omitempty"`
}

// HookStep is a hook_callback round trip.
type HookStep struct {
	// Event is the hook event name (PostToolUse, SubagentStart, PostCompact, ...).
	Event string `yaml:"event" json:"event"`
	// ToolUseID is sent as hook_callback.tool_use_id and input.tool_use_id.
	ToolUseID string `yaml:"toolUseId,omitempty" json:"toolUseId,omitempty"`
	// Input is merged over the common hook input (session_id,
	// transcript_path, cwd, permission_mode, hook_event_name).
	Input map[string]any `yaml:"input,omitempty" json:"input,omitempty"`
}

// Pause events.
const (
	// PauseInterrupt waits for the host's interrupt; the turn then ends as
	// interrupted.
	PauseInterrupt = "interrupt"
	// PausePrompt waits until another user message has been queued.
	PausePrompt = "prompt"
	// PauseControlPrefix + subtype waits for that host control request, e.g.
	// "control:stop_task".
	PauseControlPrefix = "control:"
)

// PauseStep blocks the turn until Until happens.
type PauseStep struct {
	Until string `yaml:"until" json:"until"`
	// Next (control:<subtype> only) waits for a request that arrives after
	// the step before the pause was played: one the host sends in answer to
	// that step, not one it sent earlier. The real CLI's next model request
	// takes long enough for such an answer to come back first; the fake's
	// pace does not.
	Next bool `yaml:"next,omitempty" json:"next,omitempty"`
	// AtMost bounds the wait (a Go duration, "2s"); when it passes the turn
	// goes on, so a host that never sends the request is only slowed down.
	// Empty waits as long as the turn lasts.
	AtMost string `yaml:"atMost,omitempty" json:"atMost,omitempty"`
}

// Bound is AtMost as a duration; 0 means none (the loader has checked it).
func (p *PauseStep) Bound() time.Duration {
	d, _ := time.ParseDuration(p.AtMost)
	return d
}

// ExitStep ends the fake CLI process.
type ExitStep struct {
	Code   int    `yaml:"code,omitempty" json:"code,omitempty"`
	Stderr string `yaml:"stderr,omitempty" json:"stderr,omitempty"`
}
