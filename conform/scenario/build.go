package scenario

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// DefaultModel is the resolved model the fake CLI reports unless the script
// names another.
const DefaultModel = "claude-opus-5-5"

// ActionKind is what the fake CLI does for one Action.
type ActionKind int

const (
	// ActEmit writes Frame to stdout (uuid, session_id and timestamp are
	// added at run time where the CLI writes them).
	ActEmit ActionKind = iota
	// ActRequest sends Frame as a CLI → host control_request and waits for
	// the response. For can_use_tool, Allow or Deny runs next, by the answer.
	ActRequest
	// ActHook sends hook_callback for Hook.Event to each registered callback.
	ActHook
	// ActResult writes the turn's result frame, with Frame as overrides.
	ActResult
	// ActPause waits for Pause (see PauseStep).
	ActPause
	// ActWriteFile writes File under the cwd.
	ActWriteFile
	// ActExit ends the process with Exit.
	ActExit
)

// Action is one primitive step of the fake CLI, produced by a Builder.
type Action struct {
	Kind  ActionKind
	Frame map[string]any
	Hook  *HookStep
	Pause *PauseStep
	File  *FileWrite
	Exit  *ExitStep
	// Allow and Deny are the branches of a can_use_tool request; a deny
	// that asks to interrupt runs DenyInterrupt instead of Deny when set.
	Allow         []Action
	Deny          []Action
	DenyInterrupt []Action
	// Tool names the tool of a can_use_tool request (for permission_denials).
	Tool *ToolUse
	// Parallel sends the hook to every registered callback at once and then
	// waits for all answers (the CLI's PostToolUse).
	Parallel bool
}

// Builder expands script steps into actions. It keeps the counters that make
// message ids deterministic and remembers whether the next assistant message
// starts a new API request (so a status:requesting frame goes first, as the
// real CLI writes before every request).
type Builder struct {
	// Model is written on every message.
	Model string
	msgN  int
	// needRequest is true after a tool result: the next message is a new
	// API call.
	needRequest bool
}

// NewBuilder returns a Builder for model (DefaultModel when empty).
func NewBuilder(model string) *Builder {
	if model == "" {
		model = DefaultModel
	}
	return &Builder{Model: model}
}

// Turn expands a turn's steps. The caller writes the turn's opening frames
// (session_state_changed running, system/init, the first status) and its
// closing ones (result when Steps has none, idle).
func (b *Builder) Turn(t Turn) []Action {
	b.needRequest = false
	var out []Action
	for _, s := range t.Steps {
		out = append(out, b.Step(s)...)
	}
	return out
}

// HasResult reports whether the turn writes its own result.
func (t Turn) HasResult() bool {
	for _, s := range t.Steps {
		if s.Result != nil || s.Exit != nil || s.APIError != nil {
			return true
		}
	}
	return false
}

// Step expands one step.
func (b *Builder) Step(s Step) []Action {
	switch {
	case s.Text != nil:
		t := *s.Text
		return b.Message(AssistantStep{Content: []Block{{Text: &t}}})
	case s.Thinking != nil:
		t := *s.Thinking
		return b.Message(AssistantStep{Content: []Block{{Thinking: &t}}})
	case s.Assistant != nil:
		return b.Message(*s.Assistant)
	case s.Tool != nil:
		return b.Tool(*s.Tool)
	case s.ToolResult != nil:
		r := s.ToolResult
		b.needRequest = true
		f := toolResultFrame(r.ToolUseID, r.Result, r.IsError, r.ToolUseResult, r.ParentToolUseID)
		for k, v := range r.Extra {
			f[k] = v
		}
		return []Action{{Kind: ActEmit, Frame: f}}
	case s.System != nil:
		f := copyMap(s.System)
		f["type"] = "system"
		return []Action{{Kind: ActEmit, Frame: f}}
	case s.Emit != nil:
		return []Action{{Kind: ActEmit, Frame: copyMap(s.Emit)}}
	case s.Control != nil:
		return []Action{{Kind: ActRequest, Frame: copyMap(s.Control)}}
	case s.Elicitation != nil:
		f := copyMap(s.Elicitation)
		f["subtype"] = "elicitation"
		return []Action{{Kind: ActRequest, Frame: f}}
	case s.Hook != nil:
		h := *s.Hook
		return []Action{{Kind: ActHook, Hook: &h}}
	case s.Result != nil:
		return []Action{{Kind: ActResult, Frame: copyMap(s.Result)}}
	case s.APIError != nil:
		return b.APIError(*s.APIError)
	case s.Pause != nil:
		p := *s.Pause
		return []Action{{Kind: ActPause, Pause: &p}}
	case s.Exit != nil:
		e := *s.Exit
		return []Action{{Kind: ActExit, Exit: &e}}
	}
	return nil
}

// Message expands one assistant API message: for each block its
// content_block_start and deltas, then the consolidated assistant frame for
// that block, then content_block_stop (the order the CLI writes), framed by
// message_start and message_delta/message_stop. A message that opens a new
// API request is preceded by system/status requesting.
func (b *Builder) Message(a AssistantStep) []Action {
	b.msgN++
	id := a.ID
	if id == "" {
		id = fmt.Sprintf("msg_%03d", b.msgN)
		for _, blk := range a.Content {
			if blk.ToolUse != nil {
				id = "msg_" + blk.ToolUse.ID
				break
			}
		}
	}
	stop := a.StopReason
	if stop == "" {
		stop = "end_turn"
		for _, blk := range a.Content {
			if blk.ToolUse != nil {
				stop = "tool_use"
			}
		}
	}
	var parent any
	if a.ParentToolUseID != "" {
		parent = a.ParentToolUseID
	}
	model := b.Model
	if a.Model != "" {
		model = a.Model
	}
	var out []Action
	emit := func(f map[string]any) { out = append(out, Action{Kind: ActEmit, Frame: f}) }
	// Every stream event names its API message; message_start also carries
	// the CLI's timing and thinking display (real CLI 2.1.318).
	event := func(ev map[string]any) {
		f := map[string]any{"type": "stream_event", "event": ev, "parent_tool_use_id": parent, "api_message_id": id}
		if ev["type"] == "message_start" {
			f["ttft_ms"] = 20
			f["thinking_display"] = "updates"
		}
		emit(f)
	}
	if b.needRequest && a.ParentToolUseID == "" {
		emit(map[string]any{"type": "system", "subtype": "status", "status": "requesting"})
		b.needRequest = false
	}
	if !a.NoStream {
		event(map[string]any{"type": "message_start", "message": assistantMessage(id, model, []any{}, nil)})
	}
	for i, blk := range a.Content {
		full := blockJSON(blk)
		if !a.NoStream {
			event(map[string]any{"type": "content_block_start", "index": i, "content_block": blockStart(full)})
			for _, d := range blockDeltas(blk) {
				event(map[string]any{"type": "content_block_delta", "index": i, "delta": d})
			}
		}
		f := map[string]any{"type": "assistant", "message": assistantMessage(id, model, []any{full}, nil),
			"parent_tool_use_id": parent, "request_id": "req_" + strings.TrimPrefix(id, "msg_")}
		if a.Error != "" {
			f["error"] = a.Error
		}
		for k, v := range a.Extra {
			f[k] = v
		}
		emit(f)
		if !a.NoStream {
			event(map[string]any{"type": "content_block_stop", "index": i})
		}
	}
	if !a.NoStream {
		event(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
			"usage": map[string]any{"output_tokens": 12}})
		event(map[string]any{"type": "message_stop"})
	}
	return out
}

// Tool expands a whole tool call, in the order the real CLI 2.1.318 writes
// it (cli-capture, real runs with the reference's hooks):
//
//  1. the assistant message with Text (optional) and the tool_use block; the
//     PreToolUse hook is called mid-stream, right after the consolidated
//     assistant frame of the tool_use block and before its
//     content_block_stop;
//  2. with Permission ask: session_state_changed requires_action, the
//     can_use_tool request, then session_state_changed running; on deny the
//     tool does not run and its result is the deny message (is_error) with
//     the CLI's tool_result_meta (permission-rule and a reject decision for
//     a plain deny, user-rejected for a deny that interrupts);
//  3. the file write of WriteFile;
//  4. the PostToolUse hook (PostToolUseFailure when IsError) with the
//     tool_response, sent to every registered callback at once;
//  5. the user tool_result.
//
// Hooks nil means [PreToolUse, PostToolUse], as the real CLI always calls
// both; a script's list replaces it (an empty list sends none).
func (b *Builder) Tool(t ToolStep) []Action {
	id := t.ID
	if id == "" {
		id = ToolID(t.Name)
	}
	input := orEmpty(t.Input)
	var blocks []Block
	if t.Text != "" {
		txt := t.Text
		blocks = append(blocks, Block{Text: &txt})
	}
	tu := &ToolUse{ID: id, Name: t.Name, Input: input}
	blocks = append(blocks, Block{ToolUse: tu})
	out := b.Message(AssistantStep{Content: blocks, ParentToolUseID: t.ParentToolUseID})

	hooks := t.Hooks
	if hooks == nil {
		hooks = []string{HookPreToolUse, HookPostToolUse}
	}
	hookName := firstNonEmpty(t.HookToolName, t.Name)
	baseHook := map[string]any{"tool_name": hookName, "tool_input": input, "tool_use_id": id}
	if slices.Contains(hooks, HookPreToolUse) {
		pre := Action{Kind: ActHook, Hook: &HookStep{Event: HookPreToolUse, ToolUseID: id, Input: copyMap(baseHook)}}
		out = insertBeforeBlockStop(out, len(blocks)-1, pre)
	}
	run := b.toolRun(t, id, hooks, baseHook)
	if t.Permission == "ask" {
		out = append(out, toolPermission(t, id, input, tu, run)...)
	} else {
		out = append(out, run...)
	}
	b.needRequest = true
	return out
}

// toolRun is what a tool's run does (Tool's steps 3 to 5): the file write,
// the PostToolUse (or PostToolUseFailure) hook with baseHook's fields when
// hooks has it, the steps before the result, and the user tool_result.
func (b *Builder) toolRun(t ToolStep, id string, hooks []string, baseHook map[string]any) []Action {
	var run []Action
	if t.WriteFile != nil {
		fw := *t.WriteFile
		run = append(run, Action{Kind: ActWriteFile, File: &fw})
	}
	post := HookPostToolUse
	if t.IsError {
		post = "PostToolUseFailure"
	}
	if slices.Contains(hooks, HookPostToolUse) || slices.Contains(hooks, "PostToolUseFailure") {
		in := copyMap(baseHook)
		if t.IsError {
			in["error"] = resultText(t.Result)
		} else if t.ToolUseResult != nil {
			in["tool_response"] = t.ToolUseResult
		} else {
			in["tool_response"] = resultContent(t.Result)
		}
		run = append(run, Action{Kind: ActHook, Parallel: !t.SequentialHooks, Hook: &HookStep{Event: post, ToolUseID: id, Input: in}})
	}
	for _, st := range t.BeforeResult {
		run = append(run, b.Step(st)...)
	}
	result := toolResultFrame(id, t.Result, t.IsError, t.ToolUseResult, t.ParentToolUseID)
	if t.Permission == "ask" {
		// The CLI records how the permission was decided on the result.
		result["tool_result_meta"] = []any{map[string]any{"id": id,
			"permission_decision": map[string]any{"decision": "accept", "source": "user_temporary"}}}
	}
	return append(run, Action{Kind: ActEmit, Frame: result})
}

// toolPermission is Tool's step 2: the state change, the can_use_tool
// request, and what follows each answer (run on allow; the deny message
// as the result, with the CLI's tool_result_meta, on deny).
func toolPermission(t ToolStep, id string, input map[string]any, tu *ToolUse, run []Action) []Action {
	running := Action{Kind: ActEmit, Frame: stateFrame("running")}
	denyText := "{{" + VarDenyMessage + "}}"
	if t.Name == "ExitPlanMode" {
		// The CLI answers a refused plan with its standard rejection
		// text, whatever message the host's deny carried.
		denyText = RejectMessage
	}
	denied := toolResultFrame(id, denyText, true, nil, t.ParentToolUseID)
	denied["tool_result_meta"] = []any{map[string]any{"id": id, "non_execution_kind": "permission-rule",
		"permission_decision": map[string]any{"decision": "reject", "source": "user_reject"}}}
	stopped := toolResultFrame(id, "{{"+VarDenyMessage+"}}", true, nil, t.ParentToolUseID)
	stopped["tool_result_meta"] = []any{map[string]any{"id": id, "non_execution_kind": "user-rejected"}}
	return []Action{
		{Kind: ActEmit, Frame: stateFrame("requires_action")},
		{Kind: ActRequest, Frame: canUseTool(t, id, input), Tool: tu, Allow: append([]Action{running}, run...),
			Deny:          []Action{running, {Kind: ActEmit, Frame: denied}},
			DenyInterrupt: []Action{running, {Kind: ActEmit, Frame: stopped}}},
	}
}

// canUseTool is the can_use_tool request of a tool step that asks.
func canUseTool(t ToolStep, id string, input map[string]any) map[string]any {
	req := map[string]any{"subtype": "can_use_tool", "tool_name": t.Name, "input": input, "tool_use_id": id,
		"display_name": firstNonEmpty(t.DisplayName, t.Name)}
	for k, v := range map[string]string{"title": t.Title, "description": t.Description, "blocked_path": t.BlockedPath,
		"decision_reason": t.DecisionReason, "decision_reason_type": t.DecisionReasonType, "agent_id": t.ParentToolUseID} {
		if v != "" {
			req[k] = v
		}
	}
	if t.Suggestions != nil {
		s := make([]any, len(t.Suggestions))
		for i, m := range t.Suggestions {
			s[i] = m
		}
		req["permission_suggestions"] = s
	}
	for k, v := range t.PermissionExtra {
		req[k] = v
	}
	return req
}

// APIError expands an APIErrorStep: the synthetic assistant message and the
// result (see APIErrorStep).
func (b *Builder) APIError(e APIErrorStep) []Action {
	kind := firstNonEmpty(e.Error, "server_error")
	text := e.Text
	if text == "" {
		text = fmt.Sprintf("API Error: %d %s. This is a server-side issue, usually temporary — try again in a moment.", e.Status, httpStatusText(e.Status))
	}
	out := b.Message(AssistantStep{Model: "<synthetic>", NoStream: true, Error: kind,
		Extra: map[string]any{"is_api_error_message": true}, Content: []Block{{Text: &text}}})
	return append(out, Action{Kind: ActResult, Frame: map[string]any{
		"subtype": "success", "is_error": true, "result": text, "stop_reason": "stop_sequence",
		"terminal_reason": "api_error", "api_error_status": e.Status,
	}})
}

func httpStatusText(code int) string {
	switch code {
	case 529:
		return "Overloaded"
	case 500:
		return "Internal Server Error"
	case 502:
		return "Bad Gateway"
	case 503:
		return "Service Unavailable"
	case 429:
		return "Too Many Requests"
	}
	return "Error"
}

// RejectMessage is the CLI's standard text for a tool use the user refused
// (a cancel while its permission request is open, an ExitPlanMode reject).
const RejectMessage = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed."

// CancelledToolResult is the tool_result the CLI writes for a tool whose
// permission request was withdrawn by an interrupt.
func CancelledToolResult(id, parent string) map[string]any {
	f := toolResultFrame(id, RejectMessage, true, nil, parent)
	f["tool_result_meta"] = []any{map[string]any{"id": id, "non_execution_kind": "user-rejected"}}
	return f
}

// insertBeforeBlockStop puts a before the content_block_stop stream event of
// block index idx (at the end when the message is not streamed).
func insertBeforeBlockStop(acts []Action, idx int, a Action) []Action {
	for i, x := range acts {
		if x.Kind != ActEmit || x.Frame["type"] != "stream_event" {
			continue
		}
		ev, _ := x.Frame["event"].(map[string]any)
		if ev["type"] == "content_block_stop" && ev["index"] == idx {
			out := append([]Action{}, acts[:i]...)
			out = append(out, a)
			return append(out, acts[i:]...)
		}
	}
	return append(acts, a)
}

func stateFrame(state string) map[string]any {
	// With CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS=1 (the reference sets it)
	// the real CLI sends exactly these fields (uuid and session_id are added
	// at run time); no sdk_host_only.
	return map[string]any{"type": "system", "subtype": "session_state_changed", "state": state}
}

// StateFrame is the session_state_changed frame for state (idle, running,
// requires_action).
func StateFrame(state string) map[string]any { return stateFrame(state) }

func toolResultFrame(id string, result any, isError bool, toolUseResult any, parent string) map[string]any {
	res := map[string]any{"tool_use_id": id, "type": "tool_result", "content": resultContent(result)}
	if isError {
		res["is_error"] = true
	}
	f := map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{res}}}
	if parent != "" {
		f["parent_tool_use_id"] = parent
	} else {
		f["parent_tool_use_id"] = nil
	}
	if toolUseResult != nil {
		f["tool_use_result"] = toolUseResult
	} else if isError {
		f["tool_use_result"] = "Error: " + resultText(result)
	}
	return f
}

func resultText(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	default:
		b, _ := json.Marshal(t)
		return string(b)
	}
}

// assistantMessage is the BetaMessage of an assistant frame; stop is nil on
// streamed frames (the real stop_reason comes in message_delta and result).
func assistantMessage(id, model string, content []any, stop any) map[string]any {
	return map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": content,
		"stop_reason": stop, "stop_sequence": nil,
		"usage":              map[string]any{"input_tokens": 10, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
		"context_management": nil,
	}
}

func blockJSON(b Block) map[string]any {
	switch {
	case b.Text != nil:
		return map[string]any{"type": "text", "text": *b.Text}
	case b.Thinking != nil:
		return map[string]any{"type": "thinking", "thinking": *b.Thinking, "signature": "sig"}
	case b.ToolUse != nil:
		return map[string]any{"type": "tool_use", "id": b.ToolUse.ID, "name": b.ToolUse.Name, "input": orEmpty(b.ToolUse.Input)}
	default:
		return copyMap(b.Raw)
	}
}

func blockStart(full map[string]any) map[string]any {
	switch full["type"] {
	case "text":
		return map[string]any{"type": "text", "text": ""}
	case "thinking":
		return map[string]any{"type": "thinking", "thinking": "", "signature": ""}
	case "tool_use":
		return map[string]any{"type": "tool_use", "id": full["id"], "name": full["name"], "input": map[string]any{}}
	default:
		return full
	}
}

// blockDeltas splits a block's payload the way a stream does: text and
// thinking in two halves, tool input one top-level field at a time, so a
// client sees partial input grow.
func blockDeltas(b Block) []map[string]any {
	switch {
	case b.Text != nil:
		var out []map[string]any
		for _, part := range halves(*b.Text) {
			out = append(out, map[string]any{"type": "text_delta", "text": part})
		}
		return out
	case b.Thinking != nil:
		var out []map[string]any
		for _, part := range halves(*b.Thinking) {
			out = append(out, map[string]any{"type": "thinking_delta", "thinking": part})
		}
		return append(out, map[string]any{"type": "signature_delta", "signature": "sig"})
	case b.ToolUse != nil:
		var out []map[string]any
		for _, part := range inputChunks(orEmpty(b.ToolUse.Input)) {
			out = append(out, map[string]any{"type": "input_json_delta", "partial_json": part})
		}
		return out
	}
	return nil
}

func halves(s string) []string {
	r := []rune(s)
	if len(r) < 2 {
		return []string{s}
	}
	return []string{string(r[:len(r)/2]), string(r[len(r)/2:])}
}

// inputChunks is the JSON of input, cut before each top-level field after
// the first. Keys are in sorted order (encoding/json's map order).
func inputChunks(input map[string]any) []string {
	if len(input) == 0 {
		return []string{"{}"}
	}
	keys := make([]string, 0, len(input))
	for k := range input {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for i, k := range keys {
		kb, _ := json.Marshal(k)
		vb, _ := json.Marshal(input[k])
		sep := ","
		if i == 0 {
			sep = "{"
		}
		out = append(out, sep+string(kb)+":"+string(vb))
	}
	out[len(out)-1] += "}"
	return out
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
