package validate

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/airwire/airwire/internal/lazyre"
	"github.com/airwire/airwire/internal/lookup"
)

// extUpdates are the AIR session update kinds that ACP v1 does not define.
// (A table, not a map literal: those are built by init code at every start
// of the binary.)
var extUpdates = [...]extUpdate{
	{"async_task_spawned", "async-task-spawned", SectionAsyncTasks},
	{"async_task_progress", "async-task-progress", SectionAsyncTasks},
	{"async_task_state_update", "async-task-state-update", SectionAsyncTasks},
	{"subagent_spawned", "subagent-spawned", SectionSubagents},
	{"subagent_state_update", "subagent-state-update", SectionSubagents},
}

// extUpdate is the schema and section of an extension update kind.
type extUpdate struct{ kind, schema, section string }

// extUpdateOf is the row of kind in extUpdates.
func extUpdateOf(kind string) (extUpdate, bool) {
	for _, e := range extUpdates {
		if e.kind == kind {
			return e, true
		}
	}
	return extUpdate{}, false
}

func (c *checker) sessionUpdate(params any) {
	upd := field(params, "update")
	c.update, _ = field(upd, "sessionUpdate").(string)
	sid, _ := field(params, "sessionId").(string)
	st := &c.v.st
	if ext, ok := extUpdateOf(c.update); ok {
		if !c.fromAgent() {
			c.add("/method", "acp-method-side", SectionACP, SeverityError, "only the agent sends session/update")
		}
		if sid == "" {
			c.add("/params/sessionId", "acp:#/$defs/SessionNotification", SectionACP, SeverityError, "sessionId is required")
		}
		if st.initSeen {
			gate, ok := "asyncTasks", st.caps["asyncTasks"]
			if ext.section == SectionSubagents {
				gate, ok = "nativeSubagentSessions", st.caps["nativeSubagentSessions"] || st.subagentsCanonical
			}
			if !st.air && ext.section == SectionAsyncTasks || !ok {
				c.airGate("/params/update/sessionUpdate", ext.section, "%s goes only to a client that declared %s", c.update, gate)
			}
		}
		c.airSchema(ext.schema, upd, "/params/update")
	} else {
		c.checkMethod("session/update", "notification", params, "/params")
	}
	if id, ok := field(upd, "toolCallId").(string); ok && contains(toolUpdates, c.update) {
		c.toolCall = sid + "\x00" + id
	}
	if !c.fromAgent() || sid == "" {
		return
	}
	if st.initSeen && !st.sessions[sid] {
		c.add("/params/sessionId", "session-update-before-session", SectionACP, SeverityError,
			"session/update for session %s before its session/new, session/load, session/resume or session/fork response (or a subagent announcement)", sid)
	}
	if st.closed[sid] {
		// CloseSessionRequest: the agent frees everything of the session.
		c.add("/params/sessionId", "session-update-after-close", SectionACP, SeverityError,
			"session/update for session %s after the agent answered its session/close (a session/load or session/resume opens it again)", sid)
	}
	switch c.update {
	case "tool_call", "tool_call_update":
		// v2 has no tool_call: its first tool_call_update announces the call.
		if id, ok := field(upd, "toolCallId").(string); ok && (c.update == "tool_call" || st.v2) {
			st.toolCalls[sid+"\x00"+id] = true
		}
	case "state_update":
		c.turnEndV2(sid, upd)
	case "subagent_spawned":
		if child, ok := field(upd, "subagentSessionId").(string); ok {
			st.sessions[child] = true
		}
	case "subagent_update":
		if child, ok := field(upd, "sessionId").(string); ok {
			st.sessions[child] = true
		}
	}
}

func (c *checker) onInitializeRequest(params any) {
	st := &c.v.st
	st.reset()
	st.initSeen = true
	st.v2 = field(params, "protocolVersion") == json.Number("2")
	caps := field(params, "clientCapabilities")
	_, st.subagentsCanonical = field(caps, "subagents").(map[string]any)
	if st.v2 {
		// v2 names them capabilities, and subagent sessions are its baseline.
		caps, st.subagentsCanonical = field(params, "capabilities"), true
	}
	st.clientCaps = caps
	decl, ok := path(caps, "_meta", "jetbrains", "air").(map[string]any)
	if !ok {
		return
	}
	st.air = true
	if st.declMalformed = declarationProblem(decl); st.declMalformed != "" {
		return // a malformed declaration enables no capability
	}
	list, _ := decl["capabilities"].([]any)
	for i, x := range list {
		if s, ok := x.(string); ok {
			st.caps[s] = true
			if !ClientCapabilities.Get()[s] {
				c.add(st.capsPtr("/params")+"/_meta/jetbrains/air/capabilities/"+strconv.Itoa(i), "air-capability-unknown", SectionClientDecl, SeverityWarning,
					"%s is not a capability of the contract (the agent ignores it)", s)
			}
		}
	}
}

var sessionIndexFamily = []string{"sessionIndex", "sessionArchive", "sessionRename", "sessionListSubscribe"}

// AgentCapabilities are the capability names of the contract's
// "Capabilities" table that an agent may advertise.
var AgentCapabilities = lookup.Lazy[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		"diffPatch": true, "sessionFailure": true, "recommendedValue": true, "asyncTasks": true, "agentFileChangeReport": true,
		"nativeSubagentSessions": true, "planFile": true, "sessionIndex": true, "sessionArchive": true, "sessionRename": true,
		"sessionListSubscribe": true,
	}
}}

// ClientCapabilities are the capability names a client may declare: the
// advertised ones that the client declares, plus rawInputRendering and
// planContentDelta (which the adapter ignores).
var ClientCapabilities = lookup.Lazy[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		"diffPatch": true, "sessionFailure": true, "recommendedValue": true, "asyncTasks": true, "agentFileChangeReport": true,
		"nativeSubagentSessions": true, "planFile": true, "sessionIndex": true, "rawInputRendering": true, "planContentDelta": true,
	}
}}

func (c *checker) onInitializeResponse(result any) {
	st := &c.v.st
	st.agentCaps, st.agentInitSeen = field(result, "agentCapabilities"), true
	if st.v2 {
		st.agentCaps = field(result, "capabilities")
	}
	if !st.initSeen || !st.air {
		return
	}
	decl, ok := path(result, "_meta", "jetbrains", "air").(map[string]any)
	if !ok {
		c.add("/result/_meta/jetbrains/air", "agent-declaration-missing", SectionAgentDecl, SeverityError, "the initialize response of an AIR client carries the agent declaration")
		return
	}
	list, _ := decl["capabilities"].([]any)
	adv := map[string]bool{}
	for i, x := range list {
		if s, ok := x.(string); ok {
			adv[s] = true
			if !AgentCapabilities.Get()[s] {
				c.add("/result/_meta/jetbrains/air/capabilities/"+strconv.Itoa(i), "air-capability-unknown", SectionAgentDecl, SeverityWarning,
					"%s is not a capability of the contract's Capabilities table", s)
			}
		}
	}
	for _, k := range sessionIndexFamily {
		switch {
		case adv[k] && !st.caps["sessionIndex"]:
			c.add("/result/_meta/jetbrains/air/capabilities", "session-index-advertised", SectionAgentDecl, SeverityError,
				"%s is advertised only to a client that declared sessionIndex", k)
		case !adv[k] && adv["sessionIndex"]:
			c.add("/result/_meta/jetbrains/air/capabilities", "session-index-advertised", SectionAgentDecl, SeverityError,
				"the agent advertises %s exactly when it advertises sessionIndex", k)
		}
	}
}

// PermissionOptionIDs is the fixed option id set of "Permission presentation".
var PermissionOptionIDs = lookup.Lazy[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		"allow-once": true, "allow-with-updates": true, "allow-skill-exact": true, "allow-skill-prefix": true,
		"exit-plan-auto": true, "exit-plan-bypass": true, "exit-plan-accept-edits": true, "exit-plan-default": true,
		"exit-plan-clear-auto": true, "exit-plan-clear-bypass": true, "exit-plan-clear-accept-edits": true, "reject": true,
	}
}}

// kindRank is the group of a permission option kind in the request's
// order: allow_once, allow_always, then the reject options; with
// `defaultToNo` ("Permission presentation > Request": "The reject options
// come first") the reject options, then allow_once, allow_always. -1 for
// another kind.
func kindRank(kind string, defaultToNo bool) int {
	switch kind {
	case "allow_once":
		return b2i(defaultToNo)
	case "allow_always":
		return 1 + b2i(defaultToNo)
	case "reject_once", "reject_always":
		if defaultToNo {
			return 0
		}
		return 2
	}
	return -1
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (c *checker) permissionRequest(params any) {
	if !c.fromAgent() {
		return
	}
	st := &c.v.st
	sid, _ := field(params, "sessionId").(string)
	tc := permissionToolCallID(params)
	if st.initSeen && sid != "" && tc != "" && !st.toolCalls[sid+"\x00"+tc] {
		ptr := "/params/toolCall/toolCallId"
		if st.v2 {
			ptr = "/params/subject/toolCall/toolCallId"
		}
		c.add(ptr, "permission-after-tool-call", SectionPermission, SeverityError,
			"the tool_call %s must go out before its session/request_permission", tc)
	}
	c.permissionAskRule(params)
	opts, _ := field(params, "options").([]any)
	defaultToNo := path(params, "_meta", "jetbrains", "air", "permission", "defaultToNo") == true
	order := "allow_once, then allow_always, then reject"
	if defaultToNo {
		order = "reject first (defaultToNo), then allow_once, then allow_always"
	}
	last := -1
	for i, o := range opts {
		id, _ := field(o, "optionId").(string)
		kind, _ := field(o, "kind").(string)
		base := "/params/options/" + strconv.Itoa(i)
		if !PermissionOptionIDs.Get()[id] {
			c.add(base+"/optionId", "permission-option-id", SectionPermission, SeverityError, "option id %q is not in the fixed set", id)
		}
		if r := kindRank(kind, defaultToNo); r >= 0 {
			if r < last {
				c.add(base+"/kind", "permission-option-order", SectionPermission, SeverityError, "options are grouped %s; %s comes after a later group", order, kind)
			}
			if r > last {
				last = r
			}
		}
	}
}

func (c *checker) permissionResponse(reqParams, result any) {
	if c.fromAgent() {
		return
	}
	outcome := field(result, "outcome")
	if field(outcome, "outcome") != "selected" {
		return
	}
	id, _ := field(outcome, "optionId").(string)
	opts, _ := field(reqParams, "options").([]any)
	for _, o := range opts {
		if field(o, "optionId") == id {
			return
		}
	}
	c.add("/result/outcome/optionId", "permission-answer-offered", SectionPermission, SeverityError, "the client must return an option id of the request unchanged; %q was not offered", id)
}

func (c *checker) elicitationResponse(reqParams, result any) {
	if c.fromAgent() || field(result, "action") != "accept" {
		return
	}
	props, ok := path(reqParams, "requestedSchema", "properties").(map[string]any)
	if !ok {
		return
	}
	content, _ := field(result, "content").(map[string]any)
	for _, k := range sortedKeys(content) {
		if _, ok := props[k]; !ok {
			c.add("/result/content/"+escapeSeg(k), "elicitation-answer-fields", SectionQuestions, SeverityError, "answer field %s is not a property of the requested schema", k)
		}
	}
	req, _ := path(reqParams, "requestedSchema", "required").([]any)
	for _, r := range req {
		if s, ok := r.(string); ok {
			if _, ok := content[s]; !ok {
				c.add("/result/content", "elicitation-answer-fields", SectionQuestions, SeverityError, "accepted answer lacks the required field %s", s)
			}
		}
	}
}

// hookSessionFailure runs the cross-message rules of "Session failure" on
// one sessionFailure record: revisions rise per id, and a turn keeps one id
// for its retry warnings and its terminal failure.
func hookSessionFailure(c *checker, h hookCtx) {
	hookFailureRevision(c, h)
	hookFailureTurnIdentity(c, h)
	hookFailureTitle(c, h)
}

// retryTitle is the title of an SDK api_retry warning ("Session failure",
// "Categories and actions"): "Retrying Claude, attempt <n> of <max>." or
// "Reconnecting to Claude, attempt <n> of <max>.". Only the start is
// matched: the reference appends a no-response note to it.
var retryTitle = lazyre.New(`^(Retrying|Reconnecting to) Claude, attempt [0-9]+ of [0-9]+\.`)

// isRetryWarning reports whether a sessionFailure record is the warning of an
// SDK api_retry. By the table of "Session failure", "Categories and actions",
// a session failure warning is either an API retry (the category of the
// failure kind, never unknown: an unknown kind becomes service) or the model
// fallback notice (unknown). The retry title identifies it too.
func isRetryWarning(rec any) bool {
	if field(rec, "severity") != "warning" {
		return false
	}
	title, _ := field(rec, "title").(string)
	cat, _ := field(rec, "category").(string)
	return cat != "unknown" || retryTitle.MatchString(title)
}

// hookFailureTurnIdentity checks the identity rule of "Session failure",
// "Categories and actions": "An SDK api_retry reuses the id of the active
// turn failure" and "A later terminal failure updates that record with a
// higher revision". Within one prompt turn of one session (a session/prompt
// request of the editor up to its response):
//   - the first retry warning (a session_info_update, see isRetryWarning)
//     makes its id the active turn failure of the turn;
//   - every later retry warning of the turn carries that id;
//   - the turn-terminal failure (the sessionFailure on the PromptResponse,
//     "Delivery") carries that id too, instead of a new record.
//
// That the revisions then rise is session-failure-revision, per id. Records
// outside a prompt turn (replay, background, a retry between turns) have no
// active turn failure and are not checked here; neither are notices,
// non-retry records in a session_info_update, nor a terminal failure of a
// turn without retry warnings. With queued prompts the oldest open prompt of
// the session is the running turn. The contract states the rule as what the
// adapter does, with no SHOULD or MAY, like the revision rule: an error.
func hookFailureTurnIdentity(c *checker, h hookCtx) {
	id, _ := field(h.val, "id").(string)
	if id == "" || !c.fromAgent() {
		return
	}
	switch {
	case c.kind == "result" && c.method == "session/prompt", c.update == "state_update":
		t := c.turn
		if t == nil || t.failureID == "" || id == t.failureID {
			return
		}
		c.add(h.ptr+"/id", "session-failure-turn-identity", SectionFailure, SeverityError,
			"the terminal failure of the turn updates the record of its retry warnings (%s) with a higher revision; it publishes a new record %s instead (Categories and actions)", t.failureID, id)
	case c.update == "session_info_update" && isRetryWarning(h.val):
		sid, _ := path(c.doc, "params", "sessionId").(string)
		open := c.v.st.turns[sid]
		if len(open) == 0 {
			return // no prompt turn: no active turn failure
		}
		t := open[0]
		switch {
		case t.failureID == "":
			t.failureID = id
		case id != t.failureID:
			c.add(h.ptr+"/id", "session-failure-turn-identity", SectionFailure, SeverityError,
				"an api_retry warning reuses the id of the active turn failure %s; it publishes a new record %s instead (Categories and actions)", t.failureID, id)
		}
	}
}

func hookFailureRevision(c *checker, h hookCtx) {
	id, _ := field(h.val, "id").(string)
	n, _ := field(h.val, "revision").(json.Number)
	rev, err := n.Int64()
	if id == "" || err != nil {
		return
	}
	if prev, ok := c.v.st.failureRev[id]; ok && rev <= prev {
		c.add(h.ptr+"/revision", "session-failure-revision", SectionFailure, SeverityError, "revision %d of %s does not rise above %d", rev, id, prev)
		return
	}
	c.v.st.failureRev[id] = rev
}

func hookRecommendedValue(c *checker, h hookCtx) {
	want, _ := h.val.(string)
	var values []string
	var collect func(list any)
	collect = func(list any) {
		arr, _ := list.([]any)
		for _, o := range arr {
			if v, ok := field(o, "value").(string); ok {
				values = append(values, v)
			}
			collect(field(o, "options"))
		}
	}
	collect(h.parent["options"])
	if !contains(values, want) {
		c.add(h.ptr, "recommended-value-option", SectionRecommended, SeverityError, "recommendedValue %q names no option value of this selector", want)
	}
}

func hookSkillPath(c *checker, h hookCtx) {
	if h.air["kind"] != "skill" {
		c.add(h.ptr, "skill-path-with-kind", SectionKeys, SeverityError, "skillPath goes together with kind: skill")
	}
}

func hookCustomAnswer(c *checker, h hookCtx) {
	q, _ := field(h.val, "questionId").(string)
	if len(h.anc) == 0 {
		return
	}
	props, _ := h.anc[len(h.anc)-1].(map[string]any)
	if _, ok := props[q]; !ok {
		c.add(h.ptr+"/questionId", "custom-answer-question", SectionQuestions, SeverityError, "questionId %q names no field of the requested schema", q)
	}
}

func hookDiffPatch(c *checker, h hookCtx) {
	if v, ok := h.parent["oldText"]; !ok || v != nil {
		c.add(strings.TrimSuffix(h.ptr, "/_meta/jetbrains/air/diffPatch")+"/oldText", "diff-patch-placeholders", SectionDiffPatch, SeverityError, "a block with diffPatch has oldText: null")
	}
	if v, ok := h.parent["newText"]; !ok || v != "" {
		c.add(strings.TrimSuffix(h.ptr, "/_meta/jetbrains/air/diffPatch")+"/newText", "diff-patch-placeholders", SectionDiffPatch, SeverityError, `a block with diffPatch has newText: ""`)
	}
	text, _ := field(h.val, "text").(string)
	p, _ := h.parent["path"].(string)
	for _, problem := range CheckPatchText(text, p) {
		c.add(h.ptr+"/text", "diff-patch-text", SectionDiffPatch, SeverityError, "%s", problem)
	}
}

// capsPtr is the pointer of the declared capabilities in an initialize
// request (base "/params") or response ("/result"): clientCapabilities and
// agentCapabilities in v1, capabilities in v2.
func (s *state) capsPtr(base string) string {
	switch {
	case s.v2:
		return base + "/capabilities"
	case base == "/result":
		return base + "/agentCapabilities"
	}
	return base + "/clientCapabilities"
}

// turnEndV2 ends the running prompt turn of session sid at an idle
// state_update with a stop reason, in a v2 connection: v2 answers
// session/prompt when the prompt is taken in and reports the end of its turn
// so (an idle without a stop reason repeats the state and ends nothing).
// What v1 checks at the PromptResponse is checked here.
func (c *checker) turnEndV2(sid string, upd any) {
	st := &c.v.st
	reason, _ := field(upd, "stopReason").(string)
	if !st.v2 || !c.fromAgent() || field(upd, "state") != "idle" || reason == "" || len(st.turns[sid]) == 0 {
		return
	}
	c.turn = st.turns[sid][0]
	st.turns[sid] = st.turns[sid][1:]
	c.fileChangeTurnEnd(c.turn)
}
