package toolcall

import (
	"encoding/json"
	"strings"
	"unicode"

	"github.com/airwire/airwire/adapter/caps"
)

// Renderer turns tool facts into the fields of ACP `tool_call` and
// `tool_call_update` reports for one client. It reads the client's
// choices from caps.Client only (contract: "Adapter structure", "Tool call
// contract"). It holds no state: the Tracker drops what a client already
// holds.
type Renderer struct {
	Caps caps.Client
	Cwd  string
	// Disk reads the files the AIR rendering shows (nil: none).
	Disk *Disk
	// Replay is true for the history of a loaded session: no preview,
	// no hook ("Diff patch": a Write of a loaded history shows the
	// standard diff).
	Replay bool
}

// Facts are the facts of a tool use.
func (r Renderer) Facts(use ToolUse) UseFacts {
	return reporterFor(use.Name).ToolUse(parseInput(use.Input), r.useContext())
}

func (r Renderer) useContext() UseContext {
	return UseContext{Cwd: r.Cwd, Caps: r.Caps, Disk: r.Disk, Replay: r.Replay}
}

// hasTerminal: a command gets a display terminal on a terminal channel
// client (contract: "Zed conventions").
func (r Renderer) hasTerminal(f UseFacts) bool { return f.Command && r.Caps.TerminalChannel() }

// toolUseContent is the content of a tool use: the terminal marker of a
// command, the change of an edit, and a display copy of the input when no
// terminal shows the command.
func (r Renderer) toolUseContent(id string, f UseFacts) *[]Content {
	items := []Content{}
	terminal := r.hasTerminal(f)
	if terminal {
		items = append(items, terminalContent(id))
	}
	items = append(items, f.Change...)
	if !terminal && !r.rawInputRendering() {
		items = append(items, f.Display...)
	}
	return &items
}

// toolMeta is `_meta` of a tool use report: the upstream tool name, and
// for AIR the tool flags under `jetbrains.air`.
func (r Renderer) toolMeta(use ToolUse) *Meta {
	m := &Meta{ClaudeCode: &ClaudeCode{ToolName: use.Name}}
	r.airToolMeta(use, m)
	return m
}

// ToolCall is the first report of a tool call whose input is complete. A
// client that is not AIR gets the input as it stands (contract: "Claude
// tools and ACP fields").
func (r Renderer) ToolCall(use ToolUse) Update {
	f := r.Facts(use)
	meta := r.toolMeta(use)
	if r.hasTerminal(f) {
		meta.TerminalInfo = &TerminalRef{TerminalID: use.ID}
	}
	// Only AIR gets the MCP flag ("JetBrains shared keys").
	meta.IsMCPToolCall = r.air() && isMCPTool(use.Name)
	return Update{
		Meta: meta, ToolCallID: use.ID, SessionUpdate: kindToolCall, Name: use.Name,
		RawInput: r.rawInput(f, use.Input), Status: "pending", Title: ptr(f.Title), Kind: f.Kind,
		Content: r.toolUseContent(use.ID, f), Locations: f.Locations,
	}
}

// StreamedToolCall is the first report of a tool use whose input still
// streams: AIR gets `rawInput` once it is complete ("Tool call contract"),
// every other client gets the empty input of the stream start.
func (r Renderer) StreamedToolCall(use ToolUse) Update {
	u := r.ToolCall(use)
	if r.air() {
		u.RawInput = nil
	}
	return u
}

// Refinement is the report of a tool call whose input is complete now.
func (r Renderer) Refinement(use ToolUse) Update {
	f := r.Facts(use)
	return Update{
		Meta: r.toolMeta(use), ToolCallID: use.ID, SessionUpdate: kindToolCallUpdate,
		RawInput: r.rawInput(f, use.Input), Title: ptr(f.Title), Kind: f.Kind,
		Content: r.toolUseContent(use.ID, f), Locations: f.Locations,
	}
}

// PartialRefinement is the report of a tool call from the complete
// top-level fields of its streaming input. It has no content: content from
// a partial input misleads. AIR gets no rawInput before it is complete.
func (r Renderer) PartialRefinement(use ToolUse, partial json.RawMessage) Update {
	in := ToolUse{ID: use.ID, Name: use.Name, Input: partial}
	f := r.Facts(in)
	u := Update{
		Meta: r.toolMeta(in), ToolCallID: use.ID, SessionUpdate: kindToolCallUpdate,
		RawInput: partial, Title: ptr(f.Title), Kind: f.Kind, Locations: f.Locations,
	}
	if r.air() {
		u.RawInput = nil
	}
	return u
}

// resultFacts are the facts of a tool result: the reporter's, or the
// result text (fenced for an error).
func (r Renderer) resultFacts(use ToolUse, result Result, structured json.RawMessage) ResultFacts {
	rep := reporterFor(use.Name)
	ctx := ResultContext{Use: use, Result: result, Structured: structured, Caps: r.Caps, Disk: r.Disk}
	if result.IsError && hasErrorText(result.Content) {
		if er, ok := rep.(ErrorReporter); ok {
			if f, ok := er.ErrorResult(ctx); ok {
				return f
			}
		}
		return ResultFacts{Content: contentItems(result.Content, true)}
	}
	if rr, ok := rep.(ResultReporter); ok {
		return rr.ToolResult(ctx)
	}
	return ResultFacts{Content: contentItems(result.Content, result.IsError)}
}

// hasErrorText reports whether a result content is a non-empty string or list.
func hasErrorText(content json.RawMessage) bool {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s != ""
	}
	var l []json.RawMessage
	return json.Unmarshal(content, &l) == nil && len(l) > 0
}

// Result is the reports of a tool result: a command sends its output in
// an update of its own first, then the exit and the status. `rawOutput`
// repeats the raw tool_result unless the terminal carried it.
func (r Renderer) Result(use ToolUse, result Result, structured json.RawMessage, nonExec *ClaudeCode) []Update {
	f := r.resultFacts(use, result, structured)
	final := Update{
		Meta:       &Meta{ClaudeCode: &ClaudeCode{ToolName: use.Name}},
		ToolCallID: use.ID, SessionUpdate: kindToolCallUpdate,
		Status:  r.resultStatus(result, nonExec, f.Command),
		Content: f.Content, Locations: f.Locations, final: true,
	}
	if nonExec != nil {
		final.Meta.ClaudeCode.NonExecutionKind = nonExec.NonExecutionKind
		final.Meta.ClaudeCode.UserFeedback = nonExec.UserFeedback
	}
	if f.Title != "" {
		final.Title = ptr(f.Title)
	}
	var updates []Update
	terminalID := use.ID
	if terminalID == "" {
		terminalID = result.ToolUseID
	}
	terminal := f.Command != nil && r.Caps.TerminalChannel() && terminalID != ""
	switch {
	case terminal:
		updates = append(updates, r.terminalOutput(use.ID, terminalID, f.Command.Output))
		final.Meta.TerminalExit = &TerminalExit{TerminalID: terminalID, ExitCode: f.Command.ExitCode}
		if r.air() {
			// AIR keeps its content and always gets an exit number.
			final.Meta.TerminalExit.ExitCode = airExitCode(result.IsError, f.Command)
		} else {
			final.Content = list(terminalContent(terminalID))
		}
	case f.Command != nil:
		if strings.TrimSpace(f.Command.Output) != "" {
			out := strings.TrimRightFunc(f.Command.Output, unicode.IsSpace)
			final.Content = list(textContent("```console\n" + out + "\n```"))
		}
		final.RawOutput = exitPlanRawOutput(use.Name, result.Content)
	default:
		final.RawOutput = exitPlanRawOutput(use.Name, result.Content)
	}
	if r.air() {
		r.airResult(use, result, f, &final, terminal)
	}
	return append(updates, final)
}

// terminalOutput is the update that carries a command's output on the
// terminal channel: appended (terminal_output_delta) for a client that
// declared it, else terminal_output.
func (r Renderer) terminalOutput(toolCallID, terminalID, output string) Update {
	data := &TerminalData{TerminalID: terminalID, Data: output}
	m := &Meta{TerminalOutput: data}
	if r.Caps.TerminalOutputDelta && r.air() {
		m = &Meta{TerminalOutputDelta: data}
	}
	return Update{Meta: m, ToolCallID: toolCallID, SessionUpdate: kindToolCallUpdate}
}

// resultStatus is the status of a tool result: for an ACP v2 client a run
// Claude Code aborted is cancelled (an interrupted command; an error that
// ends work a session/cancel stopped, or whose non-execution kind is
// interrupted or cancelled), which v1 has no status for.
func (r Renderer) resultStatus(result Result, nonExec *ClaudeCode, cmd *CommandOutput) string {
	if r.Caps.V2 && aborted(result, nonExec, cmd) {
		return "cancelled"
	}
	return resultStatus(result.IsError)
}

func aborted(result Result, nonExec *ClaudeCode, cmd *CommandOutput) bool {
	if cmd != nil && cmd.Interrupted {
		return true
	}
	if !result.IsError {
		return false
	}
	return result.Cancelled || (nonExec != nil && (nonExec.NonExecutionKind == "interrupted" || nonExec.NonExecutionKind == "cancelled"))
}

// resultStatus is the status of a tool result for a v1 client.
func resultStatus(isError bool) string {
	if isError {
		return "failed"
	}
	return "completed"
}

// HookResult is the report of a PostToolUse hook: the final change of an
// edit tool and, for a client that is not AIR nor ACP v2, the whole
// `tool_response` (contract: "Zed conventions").
func (r Renderer) HookResult(use ToolUse, toolResponse json.RawMessage) Update {
	var f ResultFacts
	if hr, ok := reporterFor(use.Name).(HookReporter); ok {
		f = hr.HookResult(toolResponse, r.useContext())
	}
	if r.air() {
		// AIR merges `_meta` keys: it gets only the status and isAsync
		// markers of the tool_response ("Zed conventions").
		return Update{
			Meta:       &Meta{ClaudeCode: &ClaudeCode{ToolName: use.Name, ToolResponse: toolResponseMarkers(toolResponse)}},
			ToolCallID: use.ID, SessionUpdate: kindToolCallUpdate,
			Content: f.Content, Locations: f.Locations, final: true,
		}
	}
	if r.Caps.V2 {
		// A v2 client stores `_meta` as AIR does: it gets the markers only.
		toolResponse = toolResponseMarkers(toolResponse)
	}
	return Update{
		Meta:       &Meta{ClaudeCode: &ClaudeCode{ToolName: use.Name, ToolResponse: toolResponse}},
		ToolCallID: use.ID, SessionUpdate: kindToolCallUpdate,
		Content: f.Content, Locations: f.Locations,
	}
}
