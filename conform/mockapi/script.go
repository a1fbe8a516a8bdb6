package mockapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/airwire/airwire/internal/lookup"
)

// Script is the model script: what the mock model answers. It decodes from
// YAML (ParseYAML, or embedded as a scenario's model: key) and from JSON
// (ParseJSON); unknown keys are errors. Call Validate after decoding it some
// other way.
//
//	turns:
//	  - when: {text: "List the files"}
//	    reply:
//	      - thinking: "The user wants a listing."
//	      - text: "I'll look."
//	      - toolUse: {id: toolu_ls, name: Bash, input: {command: "ls -la", description: "List files"}}
//	  - when: {toolResult: toolu_ls}
//	    reply: [{text: "There are two files."}]
//	  - when: {text: "Write the changelog"}
//	    errors: [{status: 529}]
//	    repeatErrors: true
//	  - when: {text: "count slowly"}
//	    reply: [{text: "one two three"}]
//	    stream: {eventDelay: 200ms}
//	  - when: {text: "Plan a fix"}
//	    capture: {planFile: 'create your plan at (\S+\.md)'}
//	    reply:
//	      - toolUse: {id: toolu_w, name: Write, input: {file_path: "{{planFile}}", content: "1. Fix"}}
//	side:
//	  title: "Fix the build"
//	  default: "ok"
type Script struct {
	// Turns answer main-loop requests. The first turn whose When holds for
	// the request's last user message answers it; a main request that no
	// turn matches gets a 400 invalid_request_error naming the message.
	Turns []Turn `yaml:"turns" json:"turns"`
	// Side answers requests that are not the agent loop (see Side).
	Side Side `yaml:"side,omitempty" json:"side,omitzero"`
	// Models is what GET /v1/models lists, in order (the Models API, as a
	// gateway that serves only these answers it). Empty: the listing is
	// answered 404, as by a gateway that has none.
	Models []string `yaml:"models,omitempty" json:"models,omitempty"`
	// ModelsPage caps a page of that listing below the caller's limit, so
	// that a client must follow has_more and after_id. 0: no cap.
	ModelsPage int `yaml:"modelsPage,omitempty" json:"modelsPage,omitempty"`
}

// Turn is one scripted answer to a main-loop request.
type Turn struct {
	// When selects the requests this turn answers.
	When When `yaml:"when" json:"when"`
	// Reply is the assistant message's content, in order. It may be empty
	// only when Errors is set and RepeatErrors is true.
	Reply []Block `yaml:"reply,omitempty" json:"reply,omitempty"`
	// StopReason is the message's stop_reason: end_turn, tool_use,
	// max_tokens, stop_sequence, pause_turn or refusal. Default: tool_use
	// when Reply holds a toolUse, else end_turn.
	StopReason string `yaml:"stopReason,omitempty" json:"stopReason,omitempty"`
	// Errors answer the first len(Errors) requests this turn matches, in
	// order (the CLI's retries of one request advance through them); the
	// next matching request gets Reply. The counter is per turn and lasts the
	// whole run.
	Errors []APIError `yaml:"errors,omitempty" json:"errors,omitempty"`
	// RepeatErrors answers every matching request after the first
	// len(Errors) with the last error again, so the turn never succeeds (a
	// terminal failure after the CLI's retries).
	RepeatErrors bool `yaml:"repeatErrors,omitempty" json:"repeatErrors,omitempty"`
	// Stream shapes the SSE stream of Reply (slow, hanging, dropped). It is
	// ignored for non-streaming requests.
	Stream Stream `yaml:"stream,omitempty" json:"stream,omitzero"`
	// Usage overrides the token counts reported for Reply.
	Usage Usage `yaml:"usage,omitempty" json:"usage,omitzero"`
	// Capture takes values from the request this turn answers: each entry
	// maps a name to a regular expression whose first group is the value,
	// searched in the last user message's text, then in its system
	// reminders, then in the messages after it (the CLI 2.1.318 puts plan
	// mode's reminder, which names the plan file at a path it makes up, in
	// the role "system" message after the first prompt). A string of this turn's Reply, or of a later
	// turn's, writes the value as {{name}}; other {{…}} stay as they are.
	// A request in which an expression finds nothing is answered 400, as
	// one that no turn matches.
	Capture map[string]string `yaml:"capture,omitempty" json:"capture,omitempty"`
}

// When selects requests by the last message whose role is "user". Every
// field that is set must hold; at least one must be set.
type When struct {
	// Text must be a substring of the message's text blocks, joined with
	// newlines. <system-reminder>…</system-reminder> sections, which the CLI
	// adds on its own, are removed before matching.
	Text string `yaml:"text,omitempty" json:"text,omitempty"`
	// ToolResult must be the tool_use_id of a tool_result block in the
	// message: the turn answers what the model sees after that tool ran.
	ToolResult string `yaml:"toolResult,omitempty" json:"toolResult,omitempty"`
	// Reminder must be a substring of the message's
	// <system-reminder>…</system-reminder> sections: what the CLI adds on its
	// own, e.g. the <task-notification> that starts the turn it begins by
	// itself when a background task ends.
	Reminder string `yaml:"reminder,omitempty" json:"reminder,omitempty"`
}

// Block is one content block of a reply. Exactly one field is set.
type Block struct {
	// Text is a text block; it is streamed as two or more text_delta events.
	Text string `yaml:"text,omitempty" json:"text,omitempty"`
	// Thinking is a thinking block with a deterministic signature, streamed
	// as thinking_delta events and one signature_delta.
	Thinking string `yaml:"thinking,omitempty" json:"thinking,omitempty"`
	// ToolUse is a tool_use block; its input is streamed as two or more
	// input_json_delta events.
	ToolUse *ToolUse `yaml:"toolUse,omitempty" json:"toolUse,omitempty"`
}

// ToolUse is a tool call of the model.
type ToolUse struct {
	// ID is the tool_use id (toolu_…); a later turn's When.ToolResult names
	// it. Required.
	ID string `yaml:"id" json:"id"`
	// Name is the tool's name as the CLI offers it (Bash, Write, Edit, …).
	// Required.
	Name string `yaml:"name" json:"name"`
	// Input is the tool's input object.
	Input map[string]any `yaml:"input,omitempty" json:"input,omitempty"`
}

// APIError is one scripted HTTP error, sent with the real API's body shape
// {"type":"error","error":{"type":…,"message":…}} and a request-id header.
type APIError struct {
	// Status is the HTTP status: 400, 401, 403, 404, 413, 429, 500 or 529.
	Status int `yaml:"status" json:"status"`
	// Type is error.type. Default by status: invalid_request_error (400),
	// authentication_error (401), permission_error (403), not_found_error
	// (404), request_too_large (413), rate_limit_error (429), api_error
	// (500), overloaded_error (529).
	Type string `yaml:"type,omitempty" json:"type,omitempty"`
	// Message is error.message. Default: a short text per type.
	Message string `yaml:"message,omitempty" json:"message,omitempty"`
	// RetryAfter, when set, is sent as the retry-after header, in seconds.
	RetryAfter *int `yaml:"retryAfter,omitempty" json:"retryAfter,omitempty"`
}

// Stream shapes a streamed reply. Events are counted from 1, message_start
// included.
type Stream struct {
	// EventDelay is the pause before each SSE event after the first, e.g.
	// "200ms" (a slow stream, for cancelling mid-stream).
	EventDelay Duration `yaml:"eventDelay,omitempty" json:"eventDelay,omitempty"`
	// FirstEventDelay is the pause before message_start: the model takes a
	// while to answer (e.g. so that a turn the CLI starts on its own
	// begins after the adapter settled the previous one).
	FirstEventDelay Duration `yaml:"firstEventDelay,omitempty" json:"firstEventDelay,omitempty"`
	// DropAfter, when > 0, closes the TCP connection abruptly after that
	// many events: the client sees a truncated stream.
	DropAfter int `yaml:"dropAfter,omitempty" json:"dropAfter,omitempty"`
	// HangAfter, when > 0, stops sending after that many events and holds
	// the stream open until the client closes it.
	HangAfter int `yaml:"hangAfter,omitempty" json:"hangAfter,omitempty"`
	// Hang holds the stream open, until the client closes it, once every
	// content event has been sent except the last content_block_stop: the
	// client has the whole text but the message never ends.
	Hang bool `yaml:"hang,omitempty" json:"hang,omitempty"`
}

// Usage is the token usage reported for a reply. Zero fields take the
// defaults (input 10, output 12, cache 0).
type Usage struct {
	InputTokens         int `yaml:"inputTokens,omitempty" json:"inputTokens,omitempty"`
	OutputTokens        int `yaml:"outputTokens,omitempty" json:"outputTokens,omitempty"`
	CacheReadTokens     int `yaml:"cacheReadTokens,omitempty" json:"cacheReadTokens,omitempty"`
	CacheCreationTokens int `yaml:"cacheCreationTokens,omitempty" json:"cacheCreationTokens,omitempty"`
	// CacheTTL is the lifetime of the cache the reply wrote ("5m" or "1h"):
	// the usage then breaks CacheCreationTokens down in cache_creation.
	CacheTTL string `yaml:"cacheTTL,omitempty" json:"cacheTTL,omitempty"`
}

// Side answers the CLI's requests that are not the agent loop. They never
// consume a turn and always succeed.
type Side struct {
	// Title names the session when the CLI asks for a title (a request with
	// output_config.format asking for {"title": …}); the answer is the JSON
	// text {"title":"<Title>"}. Default: "Mock session".
	Title string `yaml:"title,omitempty" json:"title,omitempty"`
	// TitleError answers the title request with this API error instead
	// (the CLI then titles nothing).
	TitleError *APIError `yaml:"titleError,omitempty" json:"titleError,omitempty"`
	// Suggestion answers a prompt-suggestion request (last user text starts
	// with "[SUGGESTION MODE:"); the CLI turns it into a prompt_suggestion
	// frame. Default: Default.
	Suggestion string `yaml:"suggestion,omitempty" json:"suggestion,omitempty"`
	// Default answers every other side request (no tools offered, e.g. the
	// max_tokens:1 check after set_model). Default: "ok".
	Default string `yaml:"default,omitempty" json:"default,omitempty"`
}

// Duration is a time.Duration written as a Go duration string ("200ms").
type Duration time.Duration

// UnmarshalYAML reads a duration string.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	return d.parse(n.Value)
}

// UnmarshalJSON reads a duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration: want a string such as \"200ms\", got %s", b)
	}
	return d.parse(s)
}

// MarshalJSON writes the duration string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// MarshalYAML writes the duration string.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

func (d *Duration) parse(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil || v < 0 {
		return fmt.Errorf("duration: want a string such as \"200ms\", got %q", s)
	}
	*d = Duration(v)
	return nil
}

// ParseYAML decodes and validates a bare model script. Unknown keys are
// errors.
func ParseYAML(data []byte) (*Script, error) {
	var s Script
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("model script: %w", err)
	}
	return &s, s.Validate()
}

// ParseJSON decodes and validates a model script written as JSON. Unknown
// keys are errors.
func ParseJSON(data []byte) (*Script, error) {
	var s Script
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("model script: %w", err)
	}
	return &s, s.Validate()
}

// ParseFile decodes the model script in data: the top-level model: key of a
// scenario file (other keys are ignored), or else a bare script. JSON is
// YAML, so both forms are accepted.
func ParseFile(data []byte) (*Script, error) {
	var file struct {
		Model *Script        `yaml:"model"`
		Rest  map[string]any `yaml:",inline"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&file); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("model script: %w", err)
	}
	if file.Model == nil {
		return ParseYAML(data)
	}
	return file.Model, file.Model.Validate()
}

// Validate reports the first mistake in the script, naming the turn.
func (s *Script) Validate() error {
	if s.ModelsPage < 0 {
		return fmt.Errorf("model script: modelsPage: %d is negative", s.ModelsPage)
	}
	for i, t := range s.Turns {
		if err := t.validate(); err != nil {
			return fmt.Errorf("model script: turns[%d]: %w", i, err)
		}
	}
	return nil
}

var stopReasons = lookup.Set{
	"end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn",
	"refusal",
}

func (t Turn) validate() error {
	if t.When.Text == "" && t.When.ToolResult == "" && t.When.Reminder == "" {
		return errors.New("when: set text, toolResult or reminder")
	}
	if len(t.Reply) == 0 && !(len(t.Errors) > 0 && t.RepeatErrors) {
		return errors.New("reply: empty (only a turn with errors and repeatErrors: true may omit it)")
	}
	if t.RepeatErrors && len(t.Errors) == 0 {
		return errors.New("repeatErrors: true needs errors")
	}
	if t.StopReason != "" && !stopReasons.Has(t.StopReason) {
		return fmt.Errorf("stopReason: unknown %q", t.StopReason)
	}
	if ttl := t.Usage.CacheTTL; ttl != "" && ttl != "5m" && ttl != "1h" {
		return fmt.Errorf("usage: cacheTTL: %q, want 5m or 1h", ttl)
	}
	for j, b := range t.Reply {
		if err := b.validate(); err != nil {
			return fmt.Errorf("reply[%d]: %w", j, err)
		}
	}
	if err := validateCapture(t.Capture); err != nil {
		return err
	}
	for j, e := range t.Errors {
		if errorType(e.Status) == "" {
			return fmt.Errorf("errors[%d]: status %d: want one of 400, 401, 403, 404, 413, 429, 500, 529", j, e.Status)
		}
	}
	n := 0
	for _, set := range []bool{t.Stream.DropAfter > 0, t.Stream.HangAfter > 0, t.Stream.Hang} {
		if set {
			n++
		}
	}
	if n > 1 || t.Stream.DropAfter < 0 || t.Stream.HangAfter < 0 {
		return errors.New("stream: set at most one of dropAfter, hangAfter and hang, each > 0")
	}
	return nil
}

func (b Block) validate() error {
	n := 0
	for _, set := range []bool{b.Text != "", b.Thinking != "", b.ToolUse != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return errors.New("set exactly one of text, thinking and toolUse (non-empty)")
	}
	if b.ToolUse == nil {
		return nil
	}
	if b.ToolUse.ID == "" || b.ToolUse.Name == "" {
		return errors.New("toolUse: id and name are required")
	}
	if _, err := json.Marshal(b.ToolUse.Input); err != nil {
		return fmt.Errorf("toolUse %s: input is not a JSON object: %v", b.ToolUse.ID, err)
	}
	return nil
}

// stopReason is the turn's stop_reason with the default applied.
func (t Turn) stopReason() string {
	if t.StopReason != "" {
		return t.StopReason
	}
	for _, b := range t.Reply {
		if b.ToolUse != nil {
			return "tool_use"
		}
	}
	return "end_turn"
}

// errorType is the default error.type of each supported status ("" for
// another status).
func errorType(status int) string {
	switch status {
	case 400:
		return "invalid_request_error"
	case 401:
		return "authentication_error"
	case 403:
		return "permission_error"
	case 404:
		return "not_found_error"
	case 413:
		return "request_too_large"
	case 429:
		return "rate_limit_error"
	case 500:
		return "api_error"
	case 529:
		return "overloaded_error"
	}
	return ""
}

var errorMessages = lookup.Map{
	{"invalid_request_error", "Invalid request"},
	{"authentication_error", "invalid x-api-key"},
	{"permission_error", "Your API key does not have permission to use the specified resource."},
	{"not_found_error", "Not found"},
	{"request_too_large", "Request exceeds the maximum allowed number of bytes."},
	{"rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"},
	{"api_error", "Internal server error"},
	{"overloaded_error", "Overloaded"},
}

// withDefaults returns e with Type and Message filled in.
func (e APIError) withDefaults() APIError {
	if e.Type == "" {
		e.Type = errorType(e.Status)
	}
	if e.Message == "" {
		e.Message = errorMessages.Value(e.Type)
	}
	return e
}

// textOrDefault returns s, or def when s is blank.
func textOrDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
