package toolcall

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/caps"
)

// ToolUse is a tool use as Claude reports it.
type ToolUse struct {
	ID    string
	Name  string
	Input json.RawMessage
}

// UseFacts are the facts of a tool use, read once from its input. The
// renderer decides which ACP field carries each fact (contract: "Tool call
// contract", "Adapter structure").
type UseFacts struct {
	// Title is a short label: not the input and not the output.
	Title string
	Kind  string
	// Locations nil is absent; an empty list is sent as [].
	Locations *[]Location
	// Change is the file change the input makes, as diff content.
	Change []Content
	// FileTextKeys are the input keys whose text the diff holds.
	FileTextKeys []string
	// Display is a copy of input the user reads (a description, a prompt,
	// a plan, a question).
	Display []Content
	// Command says the tool runs a command: its output goes to the
	// terminal channel.
	Command bool
	// PlanFilePath is the plan file of an ExitPlanMode for a planFile
	// client (contract: "Plan file").
	PlanFilePath string
}

// CommandOutput is the output of a command, for the terminal channel.
type CommandOutput struct {
	Output string
	// ExitCode is nil when the result does not say it.
	ExitCode    *int
	Interrupted bool
}

// ResultFacts are the facts of a tool result or of a PostToolUse hook.
type ResultFacts struct {
	// Title is a new title, or "".
	Title string
	// Content is the result to show; nil leaves the content as it was.
	Content *[]Content
	// Locations are the final locations of an edit; nil keeps them.
	Locations *[]Location
	// Command is the output of a command.
	Command *CommandOutput
	// AIRRawOutput, when set, is the `rawOutput` of an AIR client: a
	// pointer to nil sends none (contract: "Tool call contract": the raw
	// tool_result goes to rawOutput only when no other field carries it).
	AIRRawOutput *json.RawMessage
	// PlanFilePath is the plan file a result names (contract: "Plan
	// file").
	PlanFilePath string
}

// Result is a tool_result block as Claude sends it.
type Result struct {
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	// Cancelled: the result ends work a session/cancel stopped
	// (Session.StoppedByCancel), which ACP v2 reports as cancelled.
	Cancelled bool `json:"-"`
}

// UseContext is what a reporter reads besides the input of a tool use.
type UseContext struct {
	Cwd  string
	Caps caps.Client
	// Disk reads the plan file and the skill files (nil: none).
	Disk *Disk
	// Replay is true for the history of a loaded session.
	Replay bool
}

// ResultContext is what a reporter reads to report a tool result.
type ResultContext struct {
	Use    ToolUse
	Result Result
	// Structured is the message-level `tool_use_result`, when known.
	Structured json.RawMessage
	Caps       caps.Client
	Disk       *Disk
}

// Reporter turns the Claude data of one tool family into facts. A
// reporter holds no state and knows nothing about ACP fields.
type Reporter interface {
	ToolUse(in Input, ctx UseContext) UseFacts
}

// ResultReporter reports a successful result. A reporter without it shows
// the result text that the model saw.
type ResultReporter interface {
	ToolResult(ctx ResultContext) ResultFacts
}

// ErrorReporter reports an error result; ok false falls back to the
// fenced error text.
type ErrorReporter interface {
	ErrorResult(ctx ResultContext) (facts ResultFacts, ok bool)
}

// HookReporter reports the PostToolUse `tool_response`: the final change
// of an edit tool.
type HookReporter interface {
	HookResult(toolResponse json.RawMessage, ctx UseContext) ResultFacts
}

// reporterFor is the reporter of a tool: MCP and unknown tools get the
// generic one.
// (A switch, not a package-level map: a map literal is built by init code
// at every start of the binary.)
func reporterFor(name string) Reporter {
	switch name {
	case "Agent", "Task":
		return agentReporter{}
	case "Bash", "PowerShell":
		return bashReporter{}
	case "Read":
		return readReporter{}
	case "Write":
		return writeReporter{}
	case "Edit":
		return editReporter{}
	case "NotebookEdit":
		return notebookReporter{}
	case "Glob":
		return globReporter{}
	case "Grep":
		return grepReporter{}
	case "WebFetch":
		return webFetchReporter{}
	case "WebSearch":
		return webSearchReporter{}
	case "TodoWrite":
		return planToolReporter{"TodoWrite"}
	case "TaskCreate":
		return planToolReporter{"TaskCreate"}
	case "TaskUpdate":
		return planToolReporter{"TaskUpdate"}
	case "TaskList":
		return planToolReporter{"TaskList"}
	case "TaskGet":
		return planToolReporter{"TaskGet"}
	case "ReportFindings":
		return findingsReporter{}
	case "EnterPlanMode":
		return enterPlanReporter{}
	case "ExitPlanMode":
		return exitPlanReporter{}
	case "AskUserQuestion":
		return questionReporter{}
	case "Skill":
		return skillReporter{}
	case "SendMessage":
		return genericReporter{"SendMessage"}
	case "TaskStop":
		return genericReporter{"TaskStop"}
	case "ListAgents":
		return genericReporter{"ListAgents"}
	case "Monitor":
		return genericReporter{"Monitor"}
	}
	return genericReporter{name}
}
