package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/airwire/airwire/internal/lookup"
	"github.com/airwire/airwire/schemas/acp"
	"github.com/airwire/airwire/schemas/air"
	"github.com/airwire/airwire/schemas/verdict"
)

// Section names used by findings that are not AIR payload schemas.
const (
	SectionACP           = "ACP schema"
	SectionCompatibility = "Compatibility rule"
	SectionKeys          = "AIR metadata keys"
	SectionShared        = "JetBrains shared keys"
	SectionRemoved       = "Removed keys"
	SectionAgentDecl     = "Agent declaration"
	SectionClientDecl    = "Client declaration"
	SectionPermission    = "Permission presentation"
	SectionDiffPatch     = "Diff patch"
	SectionFailure       = "Session failure"
	SectionSubagents     = "Native subagent sessions"
	SectionSessionIndex  = "Session index"
	SectionAsyncTasks    = "Async tasks"
	SectionQuestions     = "Question custom answers"
	SectionRecommended   = "Recommended config values"
	SectionToolCalls     = "Tool call contract"
	// SectionJournal names findings about the journal itself: an entry
	// the format forbids (docs/journal.md, "Entries").
	SectionJournal = "Journal entries"
)

// Validator checks client-lane messages in order. It keeps the conversation
// state the contract rules need (the client declaration, pending requests,
// established sessions, tool calls, failure revisions). It is not safe for
// concurrent use; feed one conversation per Validator.
type Validator struct {
	acp   *acp.Schema
	air   *air.Set
	side  Side
	st    state
	stats Stats
	// v2 is the ACP v2 draft's schema, for a connection whose initialize
	// negotiates protocolVersion 2; loadV2 loads it on first need (by
	// default from acp.V2Dir of the v1 schema's directory), v2Err says why
	// it could not be.
	v2     *acp.Schema
	loadV2 func() (*acp.Schema, error)
	v2Err  error
}

// Option configures a Validator.
type Option func(*Validator)

// WithSide keeps only the findings about messages of one sender.
func WithSide(s Side) Option { return func(v *Validator) { v.side = s } }

// WithV2 gives the ACP v2 draft's schema, which checks the messages of a
// connection whose initialize negotiates protocolVersion 2. Without it, the
// Validator loads the schema of acp.V2Dir beside a's directory when a v2
// connection needs it.
func WithV2(s *acp.Schema) Option { return func(v *Validator) { v.v2, v.loadV2 = s, nil } }

// New builds a Validator over a loaded ACP schema (v1) and the AIR schemas.
func New(a *acp.Schema, s *air.Set, opts ...Option) *Validator {
	v := &Validator{acp: a, air: s}
	if a != nil && a.File != "" {
		dir := acp.V2Dir(filepath.Dir(a.File))
		v.loadV2 = func() (*acp.Schema, error) { return LoadV2Dir(dir) }
	}
	v.st.reset()
	for _, o := range opts {
		o(v)
	}
	return v
}

// Stats returns the counts so far.
func (v *Validator) Stats() Stats { return v.stats }

type pending struct {
	method string
	params any
	seq    uint64
}

type state struct {
	initSeen bool
	// v2 is true while the connection speaks the ACP v2 draft: the client
	// asked protocolVersion 2 and the agent's answer (once seen) agreed.
	v2  bool
	air bool // the client declared _meta.jetbrains.air
	// clientCaps is the initialize request's clientCapabilities; agentCaps
	// the initialize response's agentCapabilities, once agentInitSeen.
	clientCaps    any
	agentCaps     any
	agentInitSeen bool
	// closed holds the sessions whose session/close the agent answered
	// with a result (until a session/load or session/resume opens them).
	closed             map[string]bool
	caps               map[string]bool
	subagentsCanonical bool
	pending            map[string]*pending
	sessions           map[string]bool
	toolCalls          map[string]bool // session + "\x00" + toolCallId
	// airVersioned holds the tool calls whose _meta.jetbrains.air carried
	// version: 1 once: a tool_call_update may then leave the unchanged
	// version out ("Tool call contract": unchanged jetbrains.air keys are
	// left out, and the client merges them).
	airVersioned map[string]bool
	failureRev   map[string]int64
	// turns holds the open prompt turns of each session, oldest first: a
	// session/prompt request of the editor that has no response yet. The
	// oldest is the running one (with promptQueueing the others wait).
	turns map[string][]*turn
	// client is what the editor's obligations need (client.go).
	client clientState
	// declMalformed says why the client's _meta.jetbrains.air declaration
	// is malformed ("" when it is well formed or absent): it enables no
	// capability (Client declaration).
	declMalformed string
	// askRule holds the tool use ids whose CLI permission request carried
	// matched_ask_rule (the cli lane's can_use_tool).
	askRule map[string]bool
	// lists maps each nextCursor the agent issued to its listing.
	lists map[string]*listing
	// roots are the working directory and additional directories of each
	// session, as its opening request named them.
	roots map[string][]string
	// fcrRequested and fcrReported hold session + "\x00" + requestId of
	// the accepted file-change report requests and of the reports sent.
	fcrRequested map[string]bool
	fcrReported  map[string]bool
}

// turn is one prompt turn, from a session/prompt request to its response.
type turn struct {
	key       string // the pending key of the request
	failureID string // the id of the active turn failure; "" until a retry warning sets it
	// fcrID is the accepted agentFileChangeReportRequest id of the prompt
	// ("" for none), fcrReported whether its report went out.
	fcrID       string
	fcrReported bool
}

func (s *state) reset() {
	*s = state{caps: map[string]bool{}, pending: map[string]*pending{}, sessions: map[string]bool{}, closed: map[string]bool{},
		toolCalls: map[string]bool{}, failureRev: map[string]int64{}, airVersioned: map[string]bool{}, turns: map[string][]*turn{},
		askRule: map[string]bool{}, lists: map[string]*listing{}, roots: map[string][]string{}, fcrRequested: map[string]bool{}, fcrReported: map[string]bool{}}
	s.client.reset()
}

// endTurn removes the prompt turn of the request key from the open turns of
// its session and returns it (nil when the request was not the editor's).
func (s *state) endTurn(params any, key string) *turn {
	sid, _ := field(params, "sessionId").(string)
	open := s.turns[sid]
	for i, t := range open {
		if t.key == key {
			s.turns[sid] = append(open[:i:i], open[i+1:]...)
			return t
		}
	}
	return nil
}

// checker holds the work on one message.
type checker struct {
	v        *Validator
	m        Message
	method   string
	kind     string // request, notification, result or error
	update   string // the sessionUpdate of a session/update
	toolCall string // session + "\x00" + toolCallId of a tool call report
	turn     *turn  // the prompt turn a session/prompt response ends
	doc      map[string]any
	findings []Finding
}

func (c *checker) add(ptr, rule, section string, sev Severity, format string, args ...any) {
	c.findings = append(c.findings, Finding{Seq: c.m.Seq, Lane: c.m.Lane, Dir: c.m.Dir, Method: c.method,
		Pointer: ptr, Rule: rule, Section: section, Severity: sev, Message: fmt.Sprintf(format, args...)})
}

// fromAgent reports whether the message was sent by the agent.
func (c *checker) fromAgent() bool { return c.m.Dir == DirAgent }

// Check validates one message and returns its findings (after the side
// filter). Of the cli lane it only notes the CLI's permission requests
// (permask.go); messages of other lanes are ignored.
func (v *Validator) Check(m Message) []Finding {
	if m.Lane == "" {
		m.Lane = LaneACP
	}
	if m.Lane == LaneCLI {
		v.observeCLI(m)
		return nil
	}
	if m.Lane != LaneACP {
		return nil
	}
	if m.Dir != DirEditor && m.Dir != DirAgent {
		v.stats.Errors++
		return []Finding{{Seq: m.Seq, Lane: m.Lane, Dir: m.Dir, Rule: RuleJournal, Section: SectionJournal,
			Severity: SeverityError, Message: dirText(m.Dir) + "; the message is not checked"}}
	}
	if v.keepsDir(m.Dir) {
		v.stats.Messages++
	}
	c := &checker{v: v, m: m}
	c.run()
	out := c.findings[:0]
	for _, f := range c.findings {
		if !v.keeps(f) {
			continue
		}
		if f.Severity == SeverityError {
			v.stats.Errors++
		} else {
			v.stats.Warnings++
		}
		out = append(out, f)
	}
	return out
}

func idKey(id any) string {
	switch t := id.(type) {
	case string:
		return "s:" + t
	case json.Number:
		return "n:" + t.String()
	case nil:
		return "null"
	}
	b, _ := json.Marshal(id)
	return "x:" + string(b)
}

// idText is the text of an id key without its type prefix ("s:0" and
// "n:0" both give "0").
func idText(key string) string {
	if i := strings.IndexByte(key, ':'); i >= 0 {
		return key[i+1:]
	}
	return key
}

// idJSON prints an id as the JSON it was sent as (0, "0", {"a":1}).
func idJSON(id any) string {
	b, err := json.Marshal(id)
	if err != nil {
		return fmt.Sprint(id)
	}
	return string(b)
}

// idKeyJSON prints the id of a pending key (dir|key) as JSON.
func idKeyJSON(key, dir string) string {
	k := strings.TrimPrefix(key, dir+"|")
	switch {
	case strings.HasPrefix(k, "s:"):
		return idJSON(k[2:])
	case strings.HasPrefix(k, "n:"), strings.HasPrefix(k, "x:"):
		return k[2:]
	}
	return k
}

// pendingKeys lists the pending request keys of requests sent by dir, sorted.
func (s *state) pendingKeys(dir string) []string {
	var keys []string
	for k := range s.pending {
		if strings.HasPrefix(k, dir+"|") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

func validID(id any) bool {
	switch t := id.(type) {
	case string, nil:
		return true
	case json.Number:
		_, err := t.Int64()
		return err == nil
	}
	return false
}

func other(dir string) string {
	if dir == DirAgent {
		return DirEditor
	}
	return DirAgent
}

func (c *checker) run() {
	if len(bytes.TrimSpace(c.m.Msg)) == 0 {
		c.add("", "jsonrpc-envelope", SectionACP, SeverityError, "the message is empty")
		return
	}
	raw, err := acp.Decode(c.m.Msg)
	if err != nil {
		c.add("", "jsonrpc-envelope", SectionACP, SeverityError, "the frame is not JSON: %v", err)
		return
	}
	doc, ok := raw.(map[string]any)
	if !ok {
		c.add("", "jsonrpc-envelope", SectionACP, SeverityError, "a JSON-RPC message must be an object")
		return
	}
	c.doc = doc
	if doc["jsonrpc"] != "2.0" {
		c.add("/jsonrpc", "jsonrpc-envelope", SectionACP, SeverityError, `jsonrpc must be "2.0"`)
	}
	method, hasMethod := doc["method"].(string)
	id, hasID := doc["id"]
	if hasID && !validID(id) {
		c.add("/id", "jsonrpc-envelope", SectionACP, SeverityError, "an id is a string, an integer or null, got %s", idJSON(id))
	}
	_, hasResult := doc["result"]
	_, hasError := doc["error"]
	if hasResult && hasError {
		c.add("", "jsonrpc-envelope", SectionACP, SeverityError, "a response has result or error, not both")
	}
	if _, ok := doc["method"]; ok && !hasMethod {
		c.add("/method", "jsonrpc-envelope", SectionACP, SeverityError, "method must be a string")
	}
	switch {
	case hasMethod && hasID:
		c.method = method
		c.request(method, id, doc["params"])
	case hasMethod:
		c.method = method
		c.notification(method, doc["params"])
	case hasID:
		c.response(id, doc)
	default:
		c.add("", "jsonrpc-envelope", SectionACP, SeverityError, "neither a request, a notification nor a response")
	}
	c.locate()
	c.capabilityGates()
}

func (c *checker) request(method string, id any, params any) {
	c.kind = "request"
	if method == "initialize" && c.m.Dir == DirEditor {
		c.onInitializeRequest(params)
	}
	key := c.m.Dir + "|" + idKey(id)
	if old := c.v.st.pending[key]; old != nil {
		c.duplicateID(id, key, old)
	}
	c.v.st.pending[key] = &pending{method: method, params: params, seq: c.m.Seq}
	delete(c.v.st.client.answered, key)
	c.clientRequest(method, params)
	if method == "session/prompt" && c.m.Dir == DirEditor {
		if sid, ok := field(params, "sessionId").(string); ok {
			c.v.st.turns[sid] = append(c.v.st.turns[sid], &turn{key: key, fcrID: c.acceptedFileChangeRequest(sid, params)})
		}
	}
	c.checkMethod(method, "request", params, "/params")
	switch method {
	case "session/load", "session/resume":
		if sid, ok := field(params, "sessionId").(string); ok {
			c.v.st.sessions[sid] = true // load replays history before it answers
			delete(c.v.st.closed, sid)
			c.v.st.roots[sid] = sessionRoots(params)
		}
	case "session/request_permission":
		c.permissionRequest(params)
	}
}

// duplicateID reports a request whose id the same sender still waits on:
// JSON-RPC 2.0 ids tell responses apart, so the two responses cannot be
// told apart. The older request is forgotten (the later one is pending).
func (c *checker) duplicateID(id any, key string, old *pending) {
	c.add("/id", "jsonrpc-duplicate-id", SectionACP, SeverityError,
		"request id %s is already in flight: the %s request of seq %d has no response yet, so their responses cannot be told apart",
		idJSON(id), old.method, old.seq)
	if old.method == "session/prompt" {
		c.v.st.endTurn(old.params, key)
	}
}

func (c *checker) notification(method string, params any) {
	c.kind = "notification"
	if method == "session/cancel" {
		c.onCancel(params)
	}
	if method == "session/update" {
		c.sessionUpdate(params)
		return
	}
	c.checkMethod(method, "notification", params, "/params")
}

func (c *checker) response(id any, doc map[string]any) {
	key := other(c.m.Dir) + "|" + idKey(id)
	p := c.v.st.pending[key]
	if p == nil {
		c.unmatched(id)
		c.responseEnvelope(doc, "")
		return
	}
	delete(c.v.st.pending, key)
	c.v.st.client.answered[key] = true
	c.method = p.method
	if _, failed := doc["error"]; p.method == "session/prompt" && (!c.v.st.v2 || failed) {
		// A v2 prompt's result says it was taken in; its turn ends with an
		// idle state_update (turnEndV2).
		c.turn = c.v.st.endTurn(p.params, key)
	}
	if !c.responseEnvelope(doc, p.method) {
		return
	}
	result := doc["result"]
	c.kind = "result"
	if p.method == "initialize" && c.v.st.v2 {
		// The agent may answer a lower version: then both speak v1.
		c.v.st.v2 = field(result, "protocolVersion") == json.Number("2")
	}
	c.checkMethod(p.method, "result", result, "/result")
	switch p.method {
	case "initialize":
		c.onInitializeResponse(result)
		c.v.st.client.onGoalDeclaration(result)
	case "session/new", "session/fork":
		if sid, ok := field(result, "sessionId").(string); ok {
			c.v.st.sessions[sid] = true
			c.v.st.roots[sid] = sessionRoots(p.params)
		}
	case "session/close":
		if sid, ok := field(p.params, "sessionId").(string); ok && c.fromAgent() {
			c.v.st.closed[sid] = true
		}
	case "session/request_permission":
		c.permissionResponse(p.params, result)
		c.permissionAfterCancel(key, result)
	case "session/list":
		c.v.st.client.onListResult(p.params, result)
		c.listPage(p.params, result)
	case "session/prompt":
		c.fileChangeTurnEnd(c.turn)
	case "elicitation/create":
		c.elicitationResponse(p.params, result)
	}
}

// responseEnvelope checks what every response has, matched or not (method
// is "" for an unmatched one): result or error, and an error object of the
// schema's shape (an extension method's error is left to it). It reports
// whether the response carries a result to check by method.
func (c *checker) responseEnvelope(doc map[string]any, method string) bool {
	e, isErr := doc["error"]
	if !isErr {
		if _, ok := doc["result"]; !ok {
			c.add("", "jsonrpc-envelope", SectionACP, SeverityError, "a response needs result or error")
			return false
		}
		return true
	}
	c.kind = "error"
	if s := c.schema(); s != nil && !strings.HasPrefix(method, "_") {
		issues, err := s.Error(e)
		c.acpIssues("/error", issues, err)
	}
	return false
}

// schema is the ACP schema of the connection's version: v1, or the v2
// draft once initialize asked for it. nil when the v2 schema cannot be
// loaded: the first message that needs it says so, as an error.
func (c *checker) schema() *acp.Schema {
	v := c.v
	if !v.st.v2 {
		return v.acp
	}
	if v.v2 == nil && v.v2Err == nil {
		if v.loadV2 == nil {
			v.v2Err = errors.New("no schema directory is known for it")
		} else if v.v2, v.v2Err = v.loadV2(); v.v2Err != nil {
			v.v2 = nil
		}
		if v.v2Err != nil {
			c.add("", "acp-v2-schema", SectionACP, SeverityError,
				"the connection negotiates ACP v2 (draft), whose schema is not available (%v): its messages are not checked against the ACP schema", v.v2Err)
		}
	}
	return v.v2
}

// version names the connection's ACP version in findings.
func (s *state) version() string {
	if s.v2 {
		return "ACP v2 (draft)"
	}
	return "ACP v1"
}

// unmatched reports a response that answers no pending request of the
// other side. When a pending request has an id of another JSON type with
// the same text ("0" answering 0) it is an error: JSON-RPC 2.0 answers with
// the request's id itself, so the requester never sees its response.
func (c *checker) unmatched(id any) {
	if key := other(c.m.Dir) + "|" + idKey(id); c.v.st.client.answered[key] {
		c.add("/id", "jsonrpc-answered-twice", SectionACP, SeverityError, "request %s was answered already; a request gets exactly one response", idJSON(id))
		return
	}
	for _, k := range c.v.st.pendingKeys(other(c.m.Dir)) {
		if p := c.v.st.pending[k]; p != nil && idText(strings.TrimPrefix(k, other(c.m.Dir)+"|")) == idText(idKey(id)) {
			c.method = p.method
			c.add("/id", "jsonrpc-response-id-type", SectionACP, SeverityError,
				"response id %s differs in type from the id %s of the pending %s request: the requester waits for its response forever",
				idJSON(id), idKeyJSON(k, other(c.m.Dir)), p.method)
			return
		}
	}
	c.add("/id", "jsonrpc-unmatched-response", SectionACP, SeverityWarning, "response to id %s, which no request of the other side used (or it was answered already)", idJSON(id))
}

// checkMethod validates params (kind request or notification) or a result
// against the ACP schema or, for a known AIR extension method, its AIR schema.
func (c *checker) checkMethod(method, kind string, val any, ptr string) {
	if strings.HasPrefix(method, "_") {
		c.extMethod(method, kind, val, ptr)
		return
	}
	s := c.schema()
	if s == nil {
		return
	}
	m, ok := s.Method(method)
	if !ok {
		c.add("/method", "acp-unknown-method", SectionACP, SeverityError, "%s is not an %s method (extension methods start with _)", method, c.v.st.version())
		return
	}
	var side acp.Side
	switch kind {
	case "request":
		side = m.RequestSide
	case "notification":
		side = m.NotificationSide
	}
	if side == acp.SideAgent && c.m.Dir != DirEditor || side == acp.SideClient && c.m.Dir != DirAgent {
		c.add("/method", "acp-method-side", SectionACP, SeverityError, "%s %s is handled by the %s side, so the %s must not send it", method, kind, side, c.m.Dir)
	}
	var issues []acp.Issue
	var err error
	switch kind {
	case "result":
		issues, err = s.Result(method, val)
	default:
		issues, err = s.Params(method, kind == "notification", val)
	}
	c.acpIssues(ptr, issues, err)
}

func (c *checker) acpIssues(ptr string, issues []acp.Issue, err error) {
	if err != nil {
		c.add(ptr, "acp-internal", SectionACP, SeverityError, "cannot validate: %v", err)
		return
	}
	for _, is := range issues {
		if is.Keyword == "method" {
			c.add(ptr+is.Pointer, "acp-method-kind", SectionACP, SeverityError, "%s", is.Message)
			continue
		}
		if is.Lenient {
			c.add(ptr+is.Pointer, "acp:#/$defs/"+is.Def, SectionACP, SeverityWarning,
				"%s (the field is marked x-deserialize-default-on-error: SDKs drop the value instead of rejecting the message)", is.Message)
			continue
		}
		c.add(ptr+is.Pointer, "acp:#/$defs/"+is.Def, SectionACP, SeverityError, "%s", is.Message)
	}
}

// airSchema validates val with the AIR schema name and reports each violation
// under ptr. It counts one AIR payload.
func (c *checker) airSchema(name string, val any, ptr string) bool {
	if c.v.keepsDir(c.m.Dir) {
		c.v.stats.AIRPayloads++
	}
	s := c.v.air.MustGet(name)
	vs := s.ValidateValue(val)
	for _, v := range vs {
		c.add(ptr+v.Pointer, s.ID, s.Section, SeverityError, "%s", v.Message)
	}
	return len(vs) == 0
}

type extMethod struct {
	params, result, notification string
	section                      string
	gate                         string // client capability needed before the agent sends it
}

// extMethods are the AIR extension methods that have schemas.
var extMethods = lookup.Lazy[map[string]extMethod]{Build: func() map[string]extMethod {
	return map[string]extMethod{
		"_session/rename":           {params: "session-rename-params", result: "session-rename-result", section: SectionSessionIndex},
		"_session/archive":          {params: "session-archive-params", result: "session-archive-result", section: SectionSessionIndex},
		"_session/unarchive":        {params: "session-unarchive-params", result: "session-unarchive-result", section: SectionSessionIndex},
		"_session/list/subscribe":   {params: "session-list-subscribe-params", result: "session-list-subscribe-result", section: SectionSessionIndex},
		"_session/list/unsubscribe": {params: "session-list-unsubscribe-params", result: "session-list-unsubscribe-result", section: SectionSessionIndex},
		"_session/list/changes":     {notification: "session-list-changes", section: SectionSessionIndex, gate: "sessionIndex"},
		"_session/goal":             {params: "session-goal-params", result: "session-goal-result", section: "Goal"},
		"_session/async_task/stop":  {params: "session-async-task-stop-params", result: "session-async-task-stop-result", section: SectionAsyncTasks},
	}
}}

func (c *checker) extMethod(method, kind string, val any, ptr string) {
	e, ok := extMethods.Get()[method]
	if !ok {
		return // another extension: ACP lets it through
	}
	name := map[string]string{"request": e.params, "result": e.result, "notification": e.notification}[kind]
	if name == "" {
		c.add("/method", "air-method-kind", e.section, SeverityError, "%s is not a %s", method, kind)
		return
	}
	if e.gate != "" && c.fromAgent() && c.v.st.initSeen && !c.v.st.caps[e.gate] {
		c.airGate("/method", e.section, "%s goes only to a client that declared %s", method, e.gate)
	}
	c.airSchema(name, val, ptr)
}

// field returns obj[key] when obj is a JSON object.
func field(obj any, key string) any {
	m, _ := obj.(map[string]any)
	return m[key]
}

// path walks nested objects.
func path(obj any, keys ...string) any {
	for _, k := range keys {
		obj = field(obj, k)
	}
	return obj
}

func ptr(segs ...string) string { return verdict.Pointer(segs...) }
