package scenario

import (
	"math"
	"slices"
	"strconv"
)

// Client is the editor side of a scenario: how the session is opened, the
// steps the editor takes in order, and how it answers the agent's requests.
//
// Strings in params, prompts and answers may hold placeholders, replaced by
// the driver before sending (see ClientPlaceholders):
//
//	{{sessionId}}           the session opened by Session (or the last saved one)
//	{{cwd}}, {{home}}       the run's temp workspace and HOME
//	{{mcpServer}}           a stdio MCP server with one tool, for the real CLI
//	                        to call (`airwire conform mcp-server --help`)
//	{{modelApi}}            the base URL of the run's model API (a model
//	                        scenario's): an editor's gateway to route to
//	{{saved.NAME.PATH}}     a value from the result saved by a step with save: NAME,
//	                        e.g. {{saved.fork.sessionId}}
type Client struct {
	// Session says how the run opens its session before Steps.
	Session SessionSetup `yaml:"session,omitempty" json:"session,omitempty"`
	// Steps run in order after the session is open.
	Steps []ClientStep `yaml:"steps" json:"steps"`
	// Answers says how to answer each kind of agent → client request.
	Answers Answers `yaml:"answers,omitempty" json:"answers,omitempty"`
}

// Session open methods.
const (
	// SessionNew sends session/new (the default without a transcript).
	SessionNew = "new"
	// SessionLoad sends session/load for Transcript.SessionID (the default
	// with a transcript).
	SessionLoad = "load"
	// SessionResume sends session/resume for Transcript.SessionID.
	SessionResume = "resume"
	// SessionNone opens nothing; the steps do (e.g. only session/list).
	SessionNone = "none"
)

// SessionSetup is the request that opens the scenario's session.
type SessionSetup struct {
	// Method is new, load, resume or none. Empty means load when the scenario
	// has a transcript, new otherwise.
	Method string `yaml:"method,omitempty" json:"method,omitempty"`
	// Meta is sent as params._meta.
	Meta map[string]any `yaml:"meta,omitempty" json:"meta,omitempty"`
	// MCPServers is params.mcpServers (default []).
	MCPServers []any `yaml:"mcpServers,omitempty" json:"mcpServers,omitempty"`
	// AdditionalDirectories is params.additionalDirectories, relative to cwd.
	AdditionalDirectories []string `yaml:"additionalDirectories,omitempty" json:"additionalDirectories,omitempty"`
}

// OpenMethod resolves the empty default of Session.Method.
func (s *Scenario) OpenMethod() string {
	if s.Client.Session.Method != "" {
		return s.Client.Session.Method
	}
	if s.Transcript != nil {
		return SessionLoad
	}
	return SessionNew
}

// ClientStep is one editor action. Exactly one field is set.
type ClientStep struct {
	// Prompt sends session/prompt.
	Prompt *Prompt `yaml:"prompt,omitempty" json:"prompt,omitempty"`
	// Request sends any other request with exact params.
	Request *Request `yaml:"request,omitempty" json:"request,omitempty"`
	// Notify sends a notification (e.g. session/cancel) with exact params.
	Notify *Notify `yaml:"notify,omitempty" json:"notify,omitempty"`
	// WaitFor blocks until the agent has sent a matching message.
	WaitFor *WaitFor `yaml:"waitFor,omitempty" json:"waitFor,omitempty"`
	// AwaitAll blocks until every async request has its response.
	AwaitAll bool `yaml:"awaitAll,omitempty" json:"awaitAll,omitempty"`
	// AwaitPostTurn blocks, in a model scenario's run, until the CLI has
	// done its work after the last turn (its prompt suggestion), as the
	// driver does before each prompt, and the agent is quiet: a request
	// sent next then never races that work's hook callbacks.
	AwaitPostTurn bool `yaml:"awaitPostTurn,omitempty" json:"awaitPostTurn,omitempty"`
	// Shutdown ends the editor's side as an editor that quits does: once
	// the run is where the end of the steps would leave it (async requests
	// answered, the CLI's post-turn work done, the agent quiet), the driver
	// closes the agent's stdin. Only waitFor steps may follow; they wait for
	// what the agent sends before it exits (the end of a task still open).
	Shutdown bool `yaml:"shutdown,omitempty" json:"shutdown,omitempty"`
}

// Prompt is a session/prompt request. Content is built in this order: Text,
// Images, Resources, Links, Blocks.
type Prompt struct {
	// Text becomes a {type:text} block.
	Text string `yaml:"text,omitempty" json:"text,omitempty"`
	// Images become {type:image} blocks.
	Images []Image `yaml:"images,omitempty" json:"images,omitempty"`
	// Resources become embedded {type:resource} blocks.
	Resources []Resource `yaml:"resources,omitempty" json:"resources,omitempty"`
	// Links become {type:resource_link} blocks.
	Links []Link `yaml:"links,omitempty" json:"links,omitempty"`
	// Blocks are raw ACP content blocks appended last.
	Blocks []map[string]any `yaml:"blocks,omitempty" json:"blocks,omitempty"`
	// Meta is sent as params._meta (e.g. the agentFileChangeReportRequest).
	Meta map[string]any `yaml:"meta,omitempty" json:"meta,omitempty"`
	// SessionID targets another session than {{sessionId}} (placeholders allowed).
	SessionID string `yaml:"sessionId,omitempty" json:"sessionId,omitempty"`
	// Async sends the prompt and goes on with the next step at once; AwaitAll
	// or the end of the run collects the response.
	Async bool `yaml:"async,omitempty" json:"async,omitempty"`
	// ExpectError is the JSON-RPC error code the prompt must fail with (e.g.
	// -32603 for a failed turn of a client without sessionFailure). Zero
	// means a PromptResponse is expected.
	ExpectError int `yaml:"expectError,omitempty" json:"expectError,omitempty"`
	// StopReason, when set, is the stopReason the PromptResponse must carry
	// (end_turn, cancelled, max_tokens, refusal, ...).
	StopReason string `yaml:"stopReason,omitempty" json:"stopReason,omitempty"`
}

// Image is an image content block.
type Image struct {
	MimeType string `yaml:"mimeType" json:"mimeType"`
	// Data is base64.
	Data string `yaml:"data,omitempty" json:"data,omitempty"`
	URI  string `yaml:"uri,omitempty" json:"uri,omitempty"`
}

// Resource is an embedded resource block; exactly one of Text and Blob is set.
type Resource struct {
	URI      string `yaml:"uri" json:"uri"`
	MimeType string `yaml:"mimeType,omitempty" json:"mimeType,omitempty"`
	Text     string `yaml:"text,omitempty" json:"text,omitempty"`
	Blob     string `yaml:"blob,omitempty" json:"blob,omitempty"`
}

// Link is a resource_link block.
type Link struct {
	URI      string `yaml:"uri" json:"uri"`
	Name     string `yaml:"name" json:"name"`
	MimeType string `yaml:"mimeType,omitempty" json:"mimeType,omitempty"`
}

// Request is a client → agent request with exact params.
type Request struct {
	Method string         `yaml:"method" json:"method"`
	Params map[string]any `yaml:"params,omitempty" json:"params,omitempty"`
	// Async goes on with the next step before the response.
	Async bool `yaml:"async,omitempty" json:"async,omitempty"`
	// Save stores the result under this name for {{saved.NAME.…}}.
	Save string `yaml:"save,omitempty" json:"save,omitempty"`
	// ExpectError is the JSON-RPC error code the agent must answer with; a
	// success then fails the run. Zero means a success is expected.
	ExpectError int `yaml:"expectError,omitempty" json:"expectError,omitempty"`
	// ExpectAnyError requires an error of any code (the golden pins the
	// code), for a request whose code a declared deviation lets differ.
	ExpectAnyError bool `yaml:"expectAnyError,omitempty" json:"expectAnyError,omitempty"`
	// Repeat sends the request this many times in a row (default once, at
	// most MaxRepeat), as that many steps: each has its own id and the same
	// params, waits for its response (unless Async) and must end as the
	// step expects; Save keeps the last result. For a limit, e.g. 128
	// subscriptions before the one that is refused.
	Repeat int `yaml:"repeat,omitempty" json:"repeat,omitempty"`
}

// MaxRepeat bounds Request.Repeat: every repetition is two golden lines.
const MaxRepeat = 256

// Times is how many times the request is sent: Repeat, at least once.
func (r *Request) Times() int { return max(r.Repeat, 1) }

// AnyError is the expected error code of a request with ExpectAnyError.
const AnyError = math.MinInt32

// Expected is the error code r must be answered with: ExpectError, AnyError,
// or zero for a success.
func (r *Request) Expected() int {
	if r.ExpectAnyError {
		return AnyError
	}
	return r.ExpectError
}

// Notify is a client → agent notification.
type Notify struct {
	Method string         `yaml:"method" json:"method"`
	Params map[string]any `yaml:"params,omitempty" json:"params,omitempty"`
}

// WaitFor matches one agent → client message. Exactly one of its fields
// names the message; Count (default 1) says how many must have arrived since
// the start of the run.
type WaitFor struct {
	// SessionUpdate is a session/update whose update.sessionUpdate equals it.
	SessionUpdate string `yaml:"sessionUpdate,omitempty" json:"sessionUpdate,omitempty"`
	// Request is an agent → client request method, e.g. session/request_permission.
	Request string `yaml:"request,omitempty" json:"request,omitempty"`
	// Notification is an agent → client notification method, e.g. _session/list/changes.
	Notification string `yaml:"notification,omitempty" json:"notification,omitempty"`
	Count        int    `yaml:"count,omitempty" json:"count,omitempty"`
	// Save stores the matched message's params under this name for
	// {{saved.NAME.…}} (e.g. an id the real CLI made up:
	// {{saved.task.update.asyncTaskId}}).
	Save string `yaml:"save,omitempty" json:"save,omitempty"`
	// Profiles limits the wait to the runs of these profiles (every run
	// when empty): a message only some clients get (an AIR client's prompt
	// suggestion) is waited for in their runs only.
	Profiles []Profile `yaml:"profiles,omitempty" json:"profiles,omitempty"`
}

// In reports whether the wait applies to a run of profile p.
func (w *WaitFor) In(p Profile) bool {
	return len(w.Profiles) == 0 || slices.Contains(w.Profiles, p)
}

// Answers says how the client answers agent → client requests. Each list is
// used in order, one entry per request; the last entry repeats. With an empty
// Permission list the client picks allow_once; with an empty Elicitation list
// it accepts with the first enum or oneOf const of each property.
type Answers struct {
	Permission  []PermissionAnswer  `yaml:"permission,omitempty" json:"permission,omitempty"`
	Elicitation []ElicitationAnswer `yaml:"elicitation,omitempty" json:"elicitation,omitempty"`
	FS          FSAnswers           `yaml:"fs,omitempty" json:"fs,omitempty"`
	Terminal    TerminalAnswers     `yaml:"terminal,omitempty" json:"terminal,omitempty"`
}

// Permission option kinds (ACP PermissionOptionKind).
const (
	KindAllowOnce    = "allow_once"
	KindAllowAlways  = "allow_always"
	KindRejectOnce   = "reject_once"
	KindRejectAlways = "reject_always"
)

// PermissionAnswer answers one session/request_permission. Exactly one of
// OptionID, Kind, Cancelled, CancelTurn and CancelAtOnce is set.
type PermissionAnswer struct {
	// OptionID picks the option with this optionId (e.g. allow-once, reject).
	OptionID string `yaml:"optionId,omitempty" json:"optionId,omitempty"`
	// Kind picks the first option of this kind, falling back to the same
	// prefix (allow_/reject_), then to the first option.
	Kind string `yaml:"kind,omitempty" json:"kind,omitempty"`
	// Cancelled answers {outcome:{outcome:"cancelled"}}.
	Cancelled bool `yaml:"cancelled,omitempty" json:"cancelled,omitempty"`
	// CancelTurn first sends session/cancel for the session, then answers
	// cancelled (cancel mid-permission).
	CancelTurn bool `yaml:"cancelTurn,omitempty" json:"cancelTurn,omitempty"`
	// CancelAtOnce answers cancelled and, in the same instant, sends
	// session/cancel for the session, without waiting for the agent to
	// react: what an editor's stop button does (Zed answers every open
	// permission request cancelled as it sends session/cancel).
	CancelAtOnce bool `yaml:"cancelAtOnce,omitempty" json:"cancelAtOnce,omitempty"`
	// CloseAtOnce sends session/close for the session and, in the same
	// instant, answers cancelled: an editor closing the session (its tab)
	// while the request is open settles the request as it goes.
	CloseAtOnce bool `yaml:"closeAtOnce,omitempty" json:"closeAtOnce,omitempty"`
}

// ElicitationAnswer answers one elicitation/create.
type ElicitationAnswer struct {
	// Action is accept, decline or cancel.
	Action string `yaml:"action" json:"action"`
	// Content is the accepted form content (accept only). Empty with accept
	// means the first enum/oneOf const of each property.
	Content map[string]any `yaml:"content,omitempty" json:"content,omitempty"`
}

// FSAnswers serves fs/read_text_file and fs/write_text_file.
type FSAnswers struct {
	// Read maps a path relative to cwd to the text returned. A path not listed
	// is read from the workspace; a missing file is answered with -32002.
	Read map[string]string `yaml:"read,omitempty" json:"read,omitempty"`
	// WriteError, when non-zero, answers every write with this error code;
	// otherwise the write goes to the workspace and returns {}.
	WriteError int `yaml:"writeError,omitempty" json:"writeError,omitempty"`
}

// TerminalAnswers serves terminal/create, output, wait_for_exit, kill and
// release. The command is never run.
type TerminalAnswers struct {
	// Output is what terminal/output returns.
	Output string `yaml:"output,omitempty" json:"output,omitempty"`
	// ExitCode is the exit status reported by wait_for_exit and output.
	ExitCode int `yaml:"exitCode,omitempty" json:"exitCode,omitempty"`
	// Truncated is terminal/output's truncated flag.
	Truncated bool `yaml:"truncated,omitempty" json:"truncated,omitempty"`
}

// Content builds the ACP content blocks of the prompt, in the documented
// order: text, images, resources, links, raw blocks.
func (p *Prompt) Content() []any {
	var out []any
	if p.Text != "" {
		out = append(out, map[string]any{"type": "text", "text": p.Text})
	}
	for _, im := range p.Images {
		b := map[string]any{"type": "image", "mimeType": im.MimeType}
		if im.Data != "" {
			b["data"] = im.Data
		}
		if im.URI != "" {
			b["uri"] = im.URI
		}
		out = append(out, b)
	}
	for _, r := range p.Resources {
		res := map[string]any{"uri": r.URI}
		if r.MimeType != "" {
			res["mimeType"] = r.MimeType
		}
		if r.Text != "" {
			res["text"] = r.Text
		} else {
			res["blob"] = r.Blob
		}
		out = append(out, map[string]any{"type": "resource", "resource": res})
	}
	for _, l := range p.Links {
		b := map[string]any{"type": "resource_link", "uri": l.URI, "name": l.Name}
		if l.MimeType != "" {
			b["mimeType"] = l.MimeType
		}
		out = append(out, b)
	}
	for _, b := range p.Blocks {
		out = append(out, b)
	}
	return out
}

// SavedVars flattens a saved result into {{saved.NAME.PATH}} variables:
// every string, number and boolean leaf under its dotted path (array
// elements by index).
func SavedVars(name string, result any) map[string]string {
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch t := v.(type) {
		case map[string]any:
			for k, e := range t {
				walk(prefix+"."+k, e)
			}
		case []any:
			for i, e := range t {
				walk(prefix+"."+strconv.Itoa(i), e)
			}
		case string:
			out[prefix] = t
		case float64:
			out[prefix] = strconv.FormatFloat(t, 'f', -1, 64)
		case bool:
			out[prefix] = strconv.FormatBool(t)
		}
	}
	walk("saved."+name, result)
	return out
}
