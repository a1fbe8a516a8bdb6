package validate

import (
	"encoding/json"
	"sort"
	"strconv"

	"github.com/airwire/airwire/internal/lookup"
)

// hookCtx is what a key rule sees: the payload, the _meta.jetbrains.air
// object around it, the object that holds _meta, and its ancestors.
type hookCtx struct {
	ptr    string         // pointer of the payload
	val    any            // the payload
	air    map[string]any // the _meta.jetbrains.air object
	parent map[string]any // the object that holds _meta
	anc    []any          // ancestors of parent, root first
}

type airKey struct {
	schema string // AIR schema name; "" when the place's container covers it
	gate   string // client capability needed
	hook   func(c *checker, h hookCtx)
}

// place is one location where the contract defines _meta.jetbrains.air.
type place struct {
	kind       string   // request, notification or result
	methods    []string // JSON-RPC methods (replies: the request's method)
	updates    []string // sessionUpdate kinds for session/update; nil = any
	pattern    []string // segments of the _meta object; "*" matches one segment
	parentType string   // the object holding _meta must have this "type"
	sender     string   // DirAgent or DirEditor
	section    string
	container  string // schema of the whole air object; "" = version 1 check only
	gate       string // capability needed for the whole object
	keys       map[string]airKey
}

var (
	sessionResults = []string{"session/new", "session/load", "session/fork", "session/resume", "session/set_config_option", "session/set_mode"}
	toolUpdates    = []string{"tool_call", "tool_call_update"}
	modeKind       = lookup.Lazy[map[string]airKey]{Build: func() map[string]airKey {
		return map[string]airKey{"kind": {schema: "mode-kind"}}
	}}
	recommended = lookup.Lazy[map[string]airKey]{Build: func() map[string]airKey {
		return map[string]airKey{"recommendedValue": {schema: "recommended-value", gate: "recommendedValue", hook: hookRecommendedValue}}
	}}
	diffPatchKey = lookup.Lazy[map[string]airKey]{Build: func() map[string]airKey {
		return map[string]airKey{"diffPatch": {schema: "diff-patch", gate: "diffPatch", hook: hookDiffPatch}}
	}}
	rowKeys = lookup.Lazy[map[string]airKey]{Build: func() map[string]airKey {
		return map[string]airKey{"archived": {}, "lastPromptAt": {}, "model": {}, "forkedFrom": {}, "state": {}, "lastTurnEndedAt": {}, "cost": {}}
	}}
)

func p(s ...string) []string { return s }

// toolCallKeys are the AIR keys of a tool call report's _meta.
func toolCallKeys() map[string]airKey {
	return map[string]airKey{
		"commandTitle":      {schema: "command-title"},
		"subagent":          {schema: "subagent-marker"},
		"skill":             {schema: "skill"},
		"contextCompaction": {schema: "context-compaction"},
		"asyncTasks":        {schema: "async-tasks-marker", gate: "asyncTasks"},
	}
}

// places is the locator table, built from the contract's "AIR metadata keys"
// table and the sections it links.
var places = lookup.Lazy[[]place]{Build: func() []place {
	return []place{
		{kind: "request", methods: p("initialize"), pattern: p("params", "clientCapabilities", "_meta"), sender: DirEditor,
			section: SectionClientDecl, container: "client-declaration", keys: map[string]airKey{"capabilities": {}}},
		// ACP v2 names the declared capabilities "capabilities".
		{kind: "request", methods: p("initialize"), pattern: p("params", "capabilities", "_meta"), sender: DirEditor,
			section: SectionClientDecl, container: "client-declaration", keys: map[string]airKey{"capabilities": {}}},
		{kind: "result", methods: p("initialize"), pattern: p("result", "_meta"), sender: DirAgent,
			section: SectionAgentDecl, container: "agent-declaration", keys: map[string]airKey{"capabilities": {}, "goal": {}}},
		{kind: "notification", methods: p("session/update"), updates: p("session_info_update"), pattern: p("params", "update", "_meta"), sender: DirAgent,
			section: SectionKeys, keys: map[string]airKey{
				"goal":                  {schema: "goal-snapshot"},
				"agentFileChangeReport": {schema: "file-change-report", gate: "agentFileChangeReport", hook: hookFileChangeReport},
				"sessionFailure":        {schema: "session-failure", gate: "sessionFailure", hook: hookSessionFailure},
				"archived":              {schema: "session-archived", gate: "sessionIndex"},
			}},
		{kind: "notification", methods: p("session/update"), updates: toolUpdates, pattern: p("params", "update", "_meta"), sender: DirAgent,
			section: SectionKeys, keys: toolCallKeys()},
		// An ACP v2 permission request asks about a subject: the tool call,
		// as the patch a tool_call_update carries, with its keys.
		{kind: "request", methods: p("session/request_permission"), pattern: p("params", "subject", "toolCall", "_meta"), sender: DirAgent,
			section: SectionKeys, keys: toolCallKeys()},
		{kind: "request", methods: p("session/request_permission"), pattern: p("params", "subject", "toolCall", "content", "*", "_meta"), parentType: "diff", sender: DirAgent,
			section: SectionDiffPatch, keys: diffPatchKey.Get()},
		{kind: "notification", methods: p("session/update"), updates: toolUpdates, pattern: p("params", "update", "content", "*", "_meta"), parentType: "diff", sender: DirAgent,
			section: SectionDiffPatch, keys: diffPatchKey.Get()},
		{kind: "request", methods: p("session/request_permission"), pattern: p("params", "_meta"), sender: DirAgent,
			section: SectionPermission, keys: map[string]airKey{"permission": {schema: "permission"}}},
		{kind: "request", methods: p("session/request_permission"), pattern: p("params", "toolCall", "content", "*", "_meta"), parentType: "diff", sender: DirAgent,
			section: SectionDiffPatch, keys: diffPatchKey.Get()},
		{kind: "notification", methods: p("session/update"), updates: p("compaction_update"), pattern: p("params", "update", "_meta"), sender: DirAgent,
			section: "Context compaction", keys: map[string]airKey{"contextCompaction": {schema: "context-compaction-update"}}},
		{kind: "notification", methods: p("session/update"), updates: p("available_commands_update"), pattern: p("params", "update", "availableCommands", "*", "_meta"), sender: DirAgent,
			section: SectionKeys, keys: map[string]airKey{"kind": {schema: "skill-kind"}, "skillPath": {schema: "skill-path", hook: hookSkillPath}}},
		{kind: "result", methods: sessionResults, pattern: p("result", "configOptions", "*", "_meta"), sender: DirAgent, section: SectionRecommended, keys: recommended.Get()},
		{kind: "notification", methods: p("session/update"), updates: p("config_option_update"), pattern: p("params", "update", "configOptions", "*", "_meta"), sender: DirAgent, section: SectionRecommended, keys: recommended.Get()},
		{kind: "result", methods: sessionResults, pattern: p("result", "configOptions", "*", "options", "*", "_meta"), sender: DirAgent, section: "Presentation hints", keys: modeKind.Get()},
		{kind: "result", methods: sessionResults, pattern: p("result", "configOptions", "*", "options", "*", "options", "*", "_meta"), sender: DirAgent, section: "Presentation hints", keys: modeKind.Get()},
		{kind: "notification", methods: p("session/update"), updates: p("config_option_update"), pattern: p("params", "update", "configOptions", "*", "options", "*", "_meta"), sender: DirAgent, section: "Presentation hints", keys: modeKind.Get()},
		{kind: "notification", methods: p("session/update"), updates: p("config_option_update"), pattern: p("params", "update", "configOptions", "*", "options", "*", "options", "*", "_meta"), sender: DirAgent, section: "Presentation hints", keys: modeKind.Get()},
		{kind: "result", methods: sessionResults, pattern: p("result", "modes", "availableModes", "*", "_meta"), sender: DirAgent, section: "Presentation hints", keys: modeKind.Get()},
		{kind: "request", methods: p("session/prompt"), pattern: p("params", "_meta"), sender: DirEditor,
			section: "Agent file-change report", keys: map[string]airKey{"agentFileChangeReportRequest": {schema: "file-change-report-request", gate: "agentFileChangeReport"}}},
		{kind: "result", methods: p("session/prompt"), pattern: p("result", "_meta"), sender: DirAgent,
			section: SectionFailure, keys: map[string]airKey{"sessionFailure": {schema: "session-failure", gate: "sessionFailure", hook: hookSessionFailure}}},
		// In ACP v2 the idle state_update that ends a turn carries what v1's
		// PromptResponse does.
		{kind: "notification", methods: p("session/update"), updates: p("state_update"), pattern: p("params", "update", "_meta"), sender: DirAgent,
			section: SectionFailure, keys: map[string]airKey{"sessionFailure": {schema: "session-failure", gate: "sessionFailure", hook: hookSessionFailure}}},
		{kind: "request", methods: p("session/fork"), pattern: p("params", "_meta"), sender: DirEditor,
			section: "Session fork point", keys: map[string]airKey{"fork": {schema: "fork"}}},
		{kind: "request", methods: p("session/list"), pattern: p("params", "_meta"), sender: DirEditor,
			section: SectionSessionIndex, keys: map[string]airKey{"list": {schema: "session-list-options", gate: "sessionIndex"}}},
		{kind: "result", methods: p("session/list"), pattern: p("result", "sessions", "*", "_meta"), sender: DirAgent,
			section: SectionSessionIndex, container: "session-row-meta", gate: "sessionIndex", keys: rowKeys.Get()},
		// The notification schema already validates these rows; the place only
		// admits the keys.
		{kind: "notification", methods: p("_session/list/changes"), pattern: p("params", "sessions", "*", "_meta"), sender: DirAgent,
			section: SectionSessionIndex, keys: rowKeys.Get()},
		{kind: "request", methods: p("elicitation/create"), pattern: p("params", "requestedSchema", "properties", "*", "_meta"), sender: DirAgent,
			section: SectionQuestions, keys: map[string]airKey{"customAnswer": {schema: "custom-answer", hook: hookCustomAnswer}}},
	}
}}

func (pl *place) matches(c *checker, segs []string, parent map[string]any) bool {
	if pl.kind != c.kind || len(pl.pattern) != len(segs) {
		return false
	}
	if !contains(pl.methods, c.method) {
		return false
	}
	if pl.updates != nil && !contains(pl.updates, c.update) {
		return false
	}
	for i, s := range pl.pattern {
		if s != "*" && s != segs[i] {
			return false
		}
	}
	if pl.parentType != "" && parent["type"] != pl.parentType {
		return false
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// metaSite is one _meta object found in a message.
type metaSite struct {
	segs   []string
	meta   map[string]any
	parent map[string]any
	anc    []any
}

// skipped are fields whose content is tool data, not protocol: a _meta
// inside them is not the adapter's.
var skipped = lookup.Lazy[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"rawInput": true, "rawOutput": true}
}}

func findMeta(v any, segs []string, anc []any, out *[]metaSite) {
	switch t := v.(type) {
	case map[string]any:
		if m, ok := t["_meta"].(map[string]any); ok {
			*out = append(*out, metaSite{segs: append(append([]string(nil), segs...), "_meta"), meta: m, parent: t, anc: append([]any(nil), anc...)})
		}
		keys := sortedKeys(t)
		for _, k := range keys {
			if k == "_meta" || skipped.Get()[k] {
				continue
			}
			findMeta(t[k], append(segs, k), append(anc, t), out)
		}
	case []any:
		for i, c := range t {
			findMeta(c, append(segs, strconv.Itoa(i)), append(anc, t), out)
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// locate finds every _meta of the message and checks its AIR payloads,
// shared JetBrains keys and removed keys.
func (c *checker) locate() {
	if c.doc == nil || c.kind == "error" || c.kind == "" { // "": an unmatched response, its place is unknown
		return
	}
	var sites []metaSite
	findMeta(c.doc, nil, nil, &sites)
	for _, s := range sites {
		c.removedKeys(s)
		c.sharedKeys(s)
		jb, ok := s.meta["jetbrains"]
		if !ok {
			continue
		}
		jptr := ptr(append(s.segs, "jetbrains")...)
		if c.fromAgent() && c.v.st.initSeen && !c.v.st.air {
			c.add(jptr, "air-not-declared", SectionCompatibility, SeverityError, "the client did not declare _meta.jetbrains.air, so it gets no _meta.jetbrains at all")
			continue
		}
		jm, ok := jb.(map[string]any)
		if !ok {
			c.add(jptr, "air-shape", SectionKeys, SeverityError, "_meta.jetbrains must be an object")
			continue
		}
		for _, k := range sortedKeys(jm) {
			if k != "air" {
				c.add(ptr(append(s.segs, "jetbrains", k)...), "jetbrains-unknown-key", SectionKeys, SeverityWarning, "jetbrains.%s is not defined by the contract", k)
			}
		}
		if a, ok := jm["air"]; ok {
			c.airObject(s, a)
		}
	}
}

func (c *checker) airObject(s metaSite, a any) {
	aptr := ptr(append(s.segs, "jetbrains", "air")...)
	am, ok := a.(map[string]any)
	if !ok {
		c.add(aptr, "air-shape", SectionKeys, SeverityError, "_meta.jetbrains.air must be an object")
		return
	}
	var pl *place
	for i := range places.Get() {
		if places.Get()[i].matches(c, s.segs, s.parent) {
			pl = &places.Get()[i]
			break
		}
	}
	if pl == nil {
		c.add(aptr, "air-unknown-place", SectionKeys, SeverityError, "the contract defines no AIR payload at %s of %s", ptr(s.segs...), c.where())
		for _, k := range sortedKeys(am) {
			if k == "diffStats" {
				c.add(aptr+"/diffStats", "removed-key", SectionRemoved, SeverityError, "_meta.jetbrains.air.diffStats is no longer sent to any client")
			}
		}
		return
	}
	if pl.sender != c.m.Dir {
		c.add(aptr, "air-direction", pl.section, SeverityError, "only the %s sends AIR metadata at %s of %s", pl.sender, ptr(s.segs...), c.where())
	}
	if pl.gate != "" && c.v.st.initSeen && !c.v.st.caps[pl.gate] {
		c.airGate(aptr, pl.section, "this AIR metadata needs the client capability %s, which the client did not declare", pl.gate)
	}
	if pl.container != "" {
		c.airSchema(pl.container, am, aptr)
	} else {
		v, ok := am["version"]
		topTool := c.toolCall != "" && len(s.segs) == 3 // params/update/_meta of a tool call report
		if ok && isOne(v) && topTool {
			c.v.st.airVersioned[c.toolCall] = true
		}
		switch {
		case !ok && topTool && c.update == "tool_call_update" && c.v.st.airVersioned[c.toolCall]:
			// the unchanged version was left out; the client merges it
		case !ok && c.fromAgent():
			c.add(aptr+"/version", "air-version", SectionKeys, SeverityError, "every payload goes into _meta.jetbrains.air next to version: 1; version is missing")
		case !ok:
			c.add(aptr+"/version", "air-version", SectionKeys, SeverityWarning, "version: 1 is missing next to the payload (the contract's own client examples omit it)")
		case !isOne(v):
			c.add(aptr+"/version", "air-version", SectionKeys, SeverityError, "_meta.jetbrains.air.version must be 1, got %s", idJSON(v))
		}
	}
	for _, k := range sortedKeys(am) {
		if k == "version" {
			continue
		}
		kptr := aptr + "/" + escapeSeg(k)
		if k == "diffStats" {
			c.add(kptr, "removed-key", SectionRemoved, SeverityError, "_meta.jetbrains.air.diffStats is no longer sent to any client")
			continue
		}
		key, ok := pl.keys[k]
		if !ok {
			c.add(kptr, "air-unknown-key", SectionKeys, SeverityError, "%s is not an AIR key at %s of %s", k, ptr(s.segs...), c.where())
			continue
		}
		if key.gate != "" && c.v.st.initSeen && !c.v.st.caps[key.gate] {
			c.airGate(kptr, pl.section, "%s goes only to a client that declared the capability %s", k, key.gate)
		}
		if key.schema != "" {
			c.airSchema(key.schema, am[k], kptr)
		}
		if key.hook != nil { // hooks tolerate any shape
			key.hook(c, hookCtx{ptr: kptr, val: am[k], air: am, parent: s.parent, anc: s.anc})
		}
	}
}

func (c *checker) where() string {
	w := c.method + " " + c.kind
	if c.update != "" {
		w += " " + c.update
	}
	return w
}

func isOne(v any) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	i, err := n.Int64()
	return err == nil && i == 1
}

func escapeSeg(s string) string { return ptr(s)[1:] }

// removedKeys reports the upstream copies of AIR keys that no client gets.
func (c *checker) removedKeys(s metaSite) {
	if !c.fromAgent() {
		return
	}
	base := ptr(s.segs...)
	if _, ok := s.meta["contextCompaction"]; ok {
		c.add(base+"/contextCompaction", "removed-key", SectionRemoved, SeverityError, "_meta.contextCompaction moved to _meta.jetbrains.air.contextCompaction")
	}
	if _, ok := s.meta["goal"]; ok && (c.method == "initialize" && c.kind == "result" || c.update == "session_info_update") {
		c.add(base+"/goal", "removed-key", SectionRemoved, SeverityError, "_meta.goal moved to _meta.jetbrains.air.goal")
	}
	if _, ok := s.meta["kind"]; ok && len(s.segs) >= 3 && (s.segs[len(s.segs)-3] == "availableModes" || s.segs[len(s.segs)-3] == "options") {
		c.add(base+"/kind", "removed-key", SectionRemoved, SeverityError, "mode _meta.kind moved to _meta.jetbrains.air.kind")
	}
	if cc, ok := s.meta["claudeCode"].(map[string]any); ok {
		for _, k := range []string{"title", "subagent", "skill", "skillPath"} {
			if _, ok := cc[k]; ok {
				c.add(base+"/claudeCode/"+k, "removed-key", SectionRemoved, SeverityError, "_meta.claudeCode.%s is sent to no client; AIR reads _meta.jetbrains.air instead", k)
			}
		}
	}
}

// sharedKeys checks the JetBrains shared keys outside the AIR namespace.
func (c *checker) sharedKeys(s metaSite) {
	base := ptr(s.segs...)
	at := func(pattern ...string) bool {
		if len(pattern) != len(s.segs) {
			return false
		}
		for i := range pattern {
			if pattern[i] != "*" && pattern[i] != s.segs[i] {
				return false
			}
		}
		return true
	}
	toolMeta := c.kind == "notification" && contains(toolUpdates, c.update) && at("params", "update", "_meta")
	for _, k := range sortedKeys(s.meta) {
		v := s.meta[k]
		kptr := base + "/" + escapeSeg(k)
		switch {
		case k == "terminal_output_delta" && c.method == "initialize" && c.kind == "request" && (at("params", "clientCapabilities", "_meta") || at("params", "capabilities", "_meta")):
			c.airSchema("terminal-output-delta-capability", v, kptr)
		case k == "terminal_output_delta" && toolMeta:
			c.airSchema("terminal-output-delta", v, kptr)
		case k == "is_mcp_tool_call" && toolMeta:
			c.airSchema("is-mcp-tool-call", v, kptr)
			if c.v.st.initSeen && !c.v.st.air {
				c.add(kptr, "shared-air-only", SectionShared, SeverityError, "is_mcp_tool_call goes only to an AIR client")
			}
		case k == "steering" && c.method == "initialize" && c.kind == "result" && at("result", "_meta"):
			c.airSchema("steering", v, kptr)
		case k == "quota" && (c.method == "session/prompt" && c.kind == "result" && at("result", "_meta") || c.update == "state_update" && at("params", "update", "_meta")):
			c.airSchema("quota", v, kptr)
		case k == "authStatus" && c.method == "initialize" && c.kind == "result" && (at("result", "agentCapabilities", "_meta") || at("result", "capabilities", "_meta")):
			c.airSchema("auth-status", v, kptr)
		case k == "_askUserQuestionCustomAnswer" && c.method == "elicitation/create" && at("params", "requestedSchema", "properties", "*", "_meta"):
			c.airSchema("ask-user-question-custom-answer", v, kptr)
			if c.v.st.initSeen && !c.v.st.air {
				c.add(kptr, "air-not-declared", SectionQuestions, SeverityError, "_askUserQuestionCustomAnswer goes only to an AIR client")
			}
		}
	}
}
