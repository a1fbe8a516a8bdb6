package claude

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// Reply answers one control request of the CLI: with result (marshalled
// as the response body) or, when err is not nil, with an error carrying
// err's text. Call it exactly once, from any goroutine, now or later;
// later calls are ignored. Reply(nil, ErrNoReply) sends nothing.
type Reply func(result any, err error)

// ErrNoReply, given to a Reply, leaves the request unanswered (the SDK's
// `null` from onUserDialog or a permission callback).
var ErrNoReply = errors.New("claude: leave the control request unanswered")

// Handler receives what the CLI sends. HandleMessage and HandleControl are
// called on one goroutine, in the order the CLI wrote the lines; they must
// not wait for a control request to this CLI (reply later instead).
type Handler interface {
	// HandleMessage gets every line that is not a control frame.
	HandleMessage(f *Frame)
	// HandleControl gets the CLI's can_use_tool, elicitation,
	// mcp_message and request_user_dialog requests (hook_callback goes to
	// the registered HookFunc; other subtypes are answered with an error
	// before they reach a handler). ctx ends when the CLI cancels the
	// request (control_cancel_request) or the process ends.
	HandleControl(ctx context.Context, req *IncomingRequest, reply Reply)
	// HandleExit is called once, after the last message, when the CLI has
	// ended: nil for exit code 0, ErrClosed after Close, else *ExitError.
	HandleExit(err error)
}

// IncomingRequest is a control request of the CLI. Request holds the typed
// body: *CanUseTool, *Elicitation, *MCPMessage or *RequestUserDialog.
type IncomingRequest struct {
	ID      string
	Subtype string
	Body    json.RawMessage
	Request any
}

// CanUseTool asks whether a tool may run.
type CanUseTool struct {
	ToolName              string          `json:"tool_name"`
	DisplayName           string          `json:"display_name,omitempty"`
	Input                 json.RawMessage `json:"input"`
	ToolUseID             string          `json:"tool_use_id"`
	Description           string          `json:"description,omitempty"`
	Title                 string          `json:"title,omitempty"`
	PermissionSuggestions json.RawMessage `json:"permission_suggestions,omitempty"`
	BlockedPath           string          `json:"blocked_path,omitempty"`
	DecisionReason        string          `json:"decision_reason,omitempty"`
	DecisionReasonType    string          `json:"decision_reason_type,omitempty"`
	AgentID               string          `json:"agent_id,omitempty"`
	MCPServer             json.RawMessage `json:"mcp_server,omitempty"`
}

// Elicitation is an MCP server's request for user input.
type Elicitation struct {
	MCPServerName   string          `json:"mcp_server_name"`
	Message         string          `json:"message"`
	Mode            string          `json:"mode,omitempty"`
	URL             string          `json:"url,omitempty"`
	ElicitationID   string          `json:"elicitation_id,omitempty"`
	RequestedSchema json.RawMessage `json:"requested_schema,omitempty"`
	Title           string          `json:"title,omitempty"`
	DisplayName     string          `json:"display_name,omitempty"`
	Description     string          `json:"description,omitempty"`
}

// MCPMessage is a JSON-RPC message for an in-process (sdk) MCP server;
// the answer is {"mcp_response": …}.
type MCPMessage struct {
	ServerName string          `json:"server_name"`
	Message    json.RawMessage `json:"message"`
}

// RequestUserDialog asks the host to show a dialog (refusal fallback, …).
type RequestUserDialog struct {
	DialogKind string          `json:"dialog_kind"`
	Payload    json.RawMessage `json:"payload"`
	ToolUseID  string          `json:"tool_use_id,omitempty"`
}

// HookCallback is a hook_callback request: CallbackID names the HookFunc
// registered at initialize.
type HookCallback struct {
	CallbackID string    `json:"callback_id"`
	Input      HookInput `json:"input"`
	ToolUseID  string    `json:"tool_use_id,omitempty"`
}

// HookInput is a hook's input; Raw keeps the event-specific fields.
type HookInput struct {
	HookEventName string          `json:"hook_event_name"`
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	AgentID       string          `json:"agent_id,omitempty"`
	ToolName      string          `json:"tool_name,omitempty"`
	ToolInput     json.RawMessage `json:"tool_input,omitempty"`
	ToolResponse  json.RawMessage `json:"tool_response,omitempty"`
	ToolUseID     string          `json:"tool_use_id,omitempty"`
	// ToModel and Source are a PostModelSwitch's new model and what
	// switched it ("sdk" for the agent's set_model, "command", …).
	ToModel string          `json:"to_model,omitempty"`
	Source  string          `json:"source,omitempty"`
	Raw     json.RawMessage `json:"-"`
}

// UnmarshalJSON implements json.Unmarshaler.
func (h *HookInput) UnmarshalJSON(b []byte) error {
	type plain HookInput
	if err := json.Unmarshal(b, (*plain)(h)); err != nil {
		return err
	}
	h.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// HookFunc runs one hook callback; it answers through reply (HookContinue
// lets the CLI go on). It is called like Handler.HandleControl.
type HookFunc func(ctx context.Context, cb *HookCallback, reply Reply)

// HookMatcher is one matcher of a hook event and the funcs it runs.
type HookMatcher struct {
	// Matcher filters tools ("Edit|Write"); "" matches all.
	Matcher string
	// Timeout in seconds (0 for the CLI's default).
	Timeout int
	Hooks   []HookFunc
}

// HookEvent is a hook event name (PreToolUse, PostToolUse, …) and its
// matchers, in the order they are registered.
type HookEvent struct {
	Event    string
	Matchers []HookMatcher
}

// Initialize is the initialize control request. Nil pointers and empty
// values are left out, as the SDK leaves undefined options out.
type Initialize struct {
	Hooks []HookEvent
	// SystemPrompt replaces the preset (nil keeps it).
	SystemPrompt           []string
	AppendSystemPrompt     string
	ExcludeDynamicSections *bool
	Agents                 json.RawMessage
	JSONSchema             json.RawMessage
	Title                  string
	PromptSuggestions      *bool
	AgentProgressSummaries *bool
	ForwardSubagentText    *bool
	SupportedDialogKinds   []string
	PerTaskStopAffordance  *bool
}

// initializeBody is the initialize request on the wire, hooks numbered.
type initializeBody struct {
	Hooks                  hookPayload     `json:"hooks,omitempty"`
	JSONSchema             json.RawMessage `json:"jsonSchema,omitempty"`
	SystemPrompt           []string        `json:"systemPrompt,omitempty"`
	AppendSystemPrompt     string          `json:"appendSystemPrompt,omitempty"`
	ExcludeDynamicSections *bool           `json:"excludeDynamicSections,omitempty"`
	Agents                 json.RawMessage `json:"agents,omitempty"`
	Title                  string          `json:"title,omitempty"`
	PromptSuggestions      *bool           `json:"promptSuggestions,omitempty"`
	AgentProgressSummaries *bool           `json:"agentProgressSummaries,omitempty"`
	ForwardSubagentText    *bool           `json:"forwardSubagentText,omitempty"`
	SupportedDialogKinds   []string        `json:"supportedDialogKinds,omitempty"`
	PerTaskStopAffordance  *bool           `json:"perTaskStopAffordance,omitempty"`
}

// Subtype implements ControlRequest.
func (initializeBody) Subtype() string { return "initialize" }

// hookPayload is the hooks object: events in order, each a list of
// {matcher?, hookCallbackIds, timeout?}.
type hookPayload []hookEventWire

type hookEventWire struct {
	Event    string
	Matchers []hookMatcherWire
}

type hookMatcherWire struct {
	Matcher         string   `json:"matcher,omitempty"`
	HookCallbackIDs []string `json:"hookCallbackIds"`
	Timeout         int      `json:"timeout,omitempty"`
}

// MarshalJSON implements json.Marshaler.
func (h hookPayload) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range h {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(e.Event)
		v, err := json.Marshal(e.Matchers)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// hookRegistry numbers hook funcs hook_0, hook_1, … in registration order
// (events, then matchers, then funcs), as the SDK does, and finds them
// again for hook_callback.
type hookRegistry struct {
	mu    sync.Mutex
	next  int
	funcs map[string]HookFunc
}

// register assigns ids to every func of events and returns the payload.
// An event without matchers is left out.
func (r *hookRegistry) register(events []HookEvent) hookPayload {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.funcs == nil {
		r.funcs = map[string]HookFunc{}
	}
	var p hookPayload
	for _, e := range events {
		if len(e.Matchers) == 0 {
			continue
		}
		w := hookEventWire{Event: e.Event}
		for _, m := range e.Matchers {
			ids := []string{}
			for _, f := range m.Hooks {
				id := fmt.Sprintf("hook_%d", r.next)
				r.next++
				r.funcs[id] = f
				ids = append(ids, id)
			}
			w.Matchers = append(w.Matchers, hookMatcherWire{Matcher: m.Matcher, HookCallbackIDs: ids, Timeout: m.Timeout})
		}
		p = append(p, w)
	}
	return p
}

func (r *hookRegistry) lookup(id string) HookFunc {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.funcs[id]
}

// body is the wire form of init with its hooks registered in r.
func (init Initialize) body(r *hookRegistry) initializeBody {
	return initializeBody{
		Hooks: r.register(init.Hooks), JSONSchema: init.JSONSchema, SystemPrompt: init.SystemPrompt,
		AppendSystemPrompt: init.AppendSystemPrompt, ExcludeDynamicSections: init.ExcludeDynamicSections,
		Agents: init.Agents, Title: init.Title, PromptSuggestions: init.PromptSuggestions,
		AgentProgressSummaries: init.AgentProgressSummaries, ForwardSubagentText: init.ForwardSubagentText,
		SupportedDialogKinds: init.SupportedDialogKinds, PerTaskStopAffordance: init.PerTaskStopAffordance,
	}
}

// isSilentSubtype tells the requests left unanswered on purpose: they are
// for the machine that serves the session's tools, not for this host (the
// SDK does so).
func isSilentSubtype(subtype string) bool {
	switch subtype {
	case "remote_tool_call", "remote_plumbing_call", "remote_tools_probe", "remote_tools_reannounce":
		return true
	}
	return false
}

// handledBody is the value that the body of a CLI request a Handler answers
// decodes into; nil for another subtype.
func handledBody(subtype string) any {
	switch subtype {
	case "can_use_tool":
		return &CanUseTool{}
	case "elicitation":
		return &Elicitation{}
	case "mcp_message":
		return &MCPMessage{}
	case "request_user_dialog":
		return &RequestUserDialog{}
	}
	return nil
}

// unsupported is the SDK's answer to a subtype it has no handler for.
func unsupported(subtype string) error {
	return errors.New("Unsupported control request subtype: " + subtype)
}
