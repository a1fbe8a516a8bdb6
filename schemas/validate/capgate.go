package validate

import (
	"strconv"
	"strings"

	"github.com/airwire/airwire/internal/lookup"
)

// The ACP schema's own capability gates. Its descriptions say which
// methods, session updates and fields a side may use only when the other
// side (or, for two of them, the sender itself) declared a capability in
// initialize: "Only available if the client advertises the
// `fs.readTextFile` capability", "Agents MUST only send this update when
// the Client advertised the `session.notices` Client capability",
// "Clients MUST only send this when the Agent advertises
// `sessionCapabilities.systemPrompt`", and so on. capgate_internal_test.go
// walks every capability of the pinned schema and requires each one to be
// gated here or listed there with the reason it gates nothing.

// capRef names one declared capability: whose declaration it is
// (DirEditor: the initialize request's clientCapabilities, DirAgent: the
// initialize response's agentCapabilities) and its path in it.
type capRef struct {
	owner string
	path  []string
	// v2: a capability of the ACP v2 draft, whose initialize request and
	// response both name the declaration "capabilities".
	v2 bool
}

func clientCap(path ...string) capRef { return capRef{owner: DirEditor, path: path} }
func agentCap(path ...string) capRef {
	return capRef{owner: DirAgent, path: path}
}

func (r capRef) String() string {
	root := "clientCapabilities."
	switch {
	case r.v2:
		root = "capabilities."
	case r.owner == DirAgent:
		root = "agentCapabilities."
	}
	return root + strings.Join(r.path, ".")
}

func clientCap2(path ...string) capRef { return capRef{owner: DirEditor, path: path, v2: true} }
func agentCap2(path ...string) capRef  { return capRef{owner: DirAgent, path: path, v2: true} }

// gateTable is the capability gates of one ACP version.
type gateTable struct {
	methods, updates                     map[string]capRef
	prompt, mcp, config, authMethods     map[string]capRef
	archive, boolean, addDirs, sysPrompt capRef
	sysOverride                          capRef
}

// gatesV1 are the gates of the v1 schema (the tables below).
var gatesV1 = lookup.Lazy[*gateTable]{Build: func() *gateTable {
	return &gateTable{methods: methodGates.Get(), updates: updateGates.Get(), prompt: promptTypes.Get(), mcp: mcpTypes.Get(),
		config: configTypes.Get(), authMethods: authMethodTypes.Get(),
		archive: agentCap("sessionCapabilities", "archive"), boolean: clientCap("session", "configOptions", "boolean"),
		addDirs: agentCap("sessionCapabilities", "additionalDirectories"), sysPrompt: agentCap("sessionCapabilities", "systemPrompt"),
		sysOverride: agentCap("sessionCapabilities", "systemPrompt", "mode", "override")}
}}

// gatesV2 are the gates of the ACP v2 draft's schema. Its client declares
// only auth, elicitation and _meta: notices, compaction, plans, subagent
// sessions and boolean config options are every v2 client's baseline, and
// so are session/list, session/resume and session/close; the agent's
// session capabilities sit under capabilities.session.
var gatesV2 = lookup.Lazy[*gateTable]{Build: func() *gateTable {
	return &gateTable{
		methods: map[string]capRef{
			"elicitation/complete": clientCap2("elicitation", "url"),
			"session/delete":       agentCap2("session", "delete"),
			"session/fork":         agentCap2("session", "fork"),
			"session/archive":      agentCap2("session", "archive"),
			"session/unarchive":    agentCap2("session", "archive"),
			"session/status":       agentCap2("session", "status"),
			"session/set_title":    agentCap2("session", "title"),
			"auth/status":          agentCap2("auth", "status"),
			"auth/status_update":   agentCap2("auth", "status"),
			"providers/list":       agentCap2("providers"),
			"providers/set":        agentCap2("providers"),
			"providers/disable":    agentCap2("providers"),
		},
		updates: map[string]capRef{},
		prompt: map[string]capRef{"image": agentCap2("session", "prompt", "image"), "audio": agentCap2("session", "prompt", "audio"),
			"resource": agentCap2("session", "prompt", "embeddedContext")},
		mcp:         map[string]capRef{"http": agentCap2("session", "mcp", "http"), "acp": agentCap2("session", "mcp", "acp")},
		config:      map[string]capRef{},
		authMethods: map[string]capRef{"terminal": clientCap2("auth", "terminal")},
		archive:     agentCap2("session", "archive"),
		addDirs:     agentCap2("session", "additionalDirectories"),
		sysPrompt:   agentCap2("session", "systemPrompt"),
		sysOverride: agentCap2("session", "systemPrompt", "mode", "override"),
	}
}}

// gates is the gate table of the connection's version.
func (c *checker) gates() *gateTable {
	if c.v.st.v2 {
		return gatesV2.Get()
	}
	return gatesV1.Get()
}

// methodGates gate a whole request or notification method.
var methodGates = lookup.Lazy[map[string]capRef]{Build: func() map[string]capRef {
	return map[string]capRef{
		"fs/read_text_file":      clientCap("fs", "readTextFile"),
		"fs/write_text_file":     clientCap("fs", "writeTextFile"),
		"terminal/create":        clientCap("terminal"),
		"terminal/output":        clientCap("terminal"),
		"terminal/wait_for_exit": clientCap("terminal"),
		"terminal/kill":          clientCap("terminal"),
		"terminal/release":       clientCap("terminal"),
		// CompleteElicitationNotification: sent when a URL-based elicitation
		// completes, so only to a client that takes URL elicitations.
		"elicitation/complete": clientCap("elicitation", "url"),
		"session/load":         agentCap("loadSession"),
		"session/list":         agentCap("sessionCapabilities", "list"),
		"session/delete":       agentCap("sessionCapabilities", "delete"),
		"session/resume":       agentCap("sessionCapabilities", "resume"),
		"session/close":        agentCap("sessionCapabilities", "close"),
		"session/fork":         agentCap("sessionCapabilities", "fork"),
		"session/archive":      agentCap("sessionCapabilities", "archive"),
		"session/unarchive":    agentCap("sessionCapabilities", "archive"),
		"session/status":       agentCap("sessionCapabilities", "status"),
		"session/set_title":    agentCap("sessionCapabilities", "title"),
		"logout":               agentCap("auth", "logout"),
		"auth/status":          agentCap("auth", "status"),
		// AuthStatusUpdateNotification: "Only sent by agents that advertise the
		// auth.status capability" — the agent's own declaration.
		"auth/status_update": agentCap("auth", "status"),
		"providers/list":     agentCap("providers"),
		"providers/set":      agentCap("providers"),
		"providers/disable":  agentCap("providers"),
	}
}}

// updateGates gate a session/update kind (always sent by the agent).
var updateGates = lookup.Lazy[map[string]capRef]{Build: func() map[string]capRef {
	return map[string]capRef{
		"notice":                   clientCap("session", "notices"),
		"compaction_update":        clientCap("session", "compaction"),
		"compaction_summary_chunk": clientCap("session", "compaction"),
		"plan_update":              clientCap("plan"),
		"plan_removed":             clientCap("plan"),
		"subagent_update":          clientCap("subagents"),
		"session_message":          clientCap("subagents"),
		"session_message_chunk":    clientCap("subagents"),
	}
}}

// typeGates gate the "type" of the elements of an array: prompt content
// blocks by PromptCapabilities, MCP server transports by McpCapabilities,
// boolean config options by the client's configOptions.boolean, terminal
// auth methods by the client's auth.terminal.
var (
	promptTypes = lookup.Lazy[map[string]capRef]{Build: func() map[string]capRef {
		return map[string]capRef{
			"image":    agentCap("promptCapabilities", "image"),
			"audio":    agentCap("promptCapabilities", "audio"),
			"resource": agentCap("promptCapabilities", "embeddedContext"),
		}
	}}
	mcpTypes = lookup.Lazy[map[string]capRef]{Build: func() map[string]capRef {
		return map[string]capRef{
			"http": agentCap("mcpCapabilities", "http"),
			"sse":  agentCap("mcpCapabilities", "sse"),
			"acp":  agentCap("mcpCapabilities", "acp"),
		}
	}}
	configTypes = lookup.Lazy[map[string]capRef]{Build: func() map[string]capRef {
		return map[string]capRef{"boolean": clientCap("session", "configOptions", "boolean")}
	}}
	authMethodTypes = lookup.Lazy[map[string]capRef]{Build: func() map[string]capRef {
		return map[string]capRef{"terminal": clientCap("auth", "terminal")}
	}}
)

// lifecycle are the session lifecycle requests that carry mcpServers,
// additionalDirectories and systemPrompt.
var lifecycle = []string{"session/new", "session/load", "session/resume", "session/fork"}

// configResults are the results that carry configOptions.
var configResults = []string{"session/new", "session/load", "session/resume", "session/fork", "session/set_config_option"}

// declared reports whether the capability is set: true, or an object ({}
// is "supported" in ACP's capability objects). ok is false while the
// owner's declaration has not been seen (a journal that starts late).
func (s *state) declared(r capRef) (set, ok bool) {
	caps, seen := s.clientCaps, s.initSeen
	if r.owner == DirAgent {
		caps, seen = s.agentCaps, s.agentInitSeen
	}
	if !seen {
		return false, false
	}
	v := path(caps, r.path...)
	_, isObj := v.(map[string]any)
	return v == true || isObj, true
}

// gate adds a finding when the capability r is not declared.
func (c *checker) gate(ptr string, r capRef, what string) {
	if set, ok := c.v.st.declared(r); !ok || set {
		return
	}
	who := "the client declared"
	if r.owner == DirAgent {
		who = "the agent advertised"
	}
	c.add(ptr, "acp-capability-gate", SectionACP, SeverityError, "%s is only available when %s %s", what, who, r)
}

// capabilityGates checks the message against the schema's capability gates.
func (c *checker) capabilityGates() {
	params := c.doc["params"]
	switch c.kind {
	case "request", "notification":
		if r, ok := c.gates().methods[c.method]; ok {
			c.gate("/method", r, c.method)
		}
		c.gateParams(params)
	case "result":
		c.gateResult(c.doc["result"])
	}
}

func (c *checker) gateParams(params any) {
	switch {
	case c.method == "session/update":
		if r, ok := c.gates().updates[c.update]; ok {
			c.gate("/params/update/sessionUpdate", r, "session/update "+c.update)
		}
		if c.update == "config_option_update" {
			c.gateTypes("/params/update/configOptions", field(field(params, "update"), "configOptions"), c.gates().config, "a config option")
		}
	case c.method == "session/prompt":
		c.gateTypes("/params/prompt", field(params, "prompt"), c.gates().prompt, "a prompt content block")
	case c.method == "session/list":
		if v := field(params, "archived"); v != nil {
			c.gate("/params/archived", c.gates().archive, "session/list archived")
		}
	case c.method == "session/set_config_option":
		if field(params, "type") == "boolean" && !c.v.st.v2 {
			c.gate("/params/type", c.gates().boolean, `session/set_config_option type "boolean"`)
		}
	case c.method == "elicitation/create":
		v2 := c.v.st.v2
		switch field(params, "mode") {
		case "form":
			c.gate("/params/mode", capRef{owner: DirEditor, path: []string{"elicitation", "form"}, v2: v2}, `elicitation/create mode "form"`)
		case "url":
			c.gate("/params/mode", capRef{owner: DirEditor, path: []string{"elicitation", "url"}, v2: v2}, `elicitation/create mode "url"`)
		}
	case contains(lifecycle, c.method):
		c.gateLifecycle(params)
	}
}

// gateLifecycle checks the fields of a session lifecycle request.
func (c *checker) gateLifecycle(params any) {
	g := c.gates()
	c.gateTypes("/params/mcpServers", field(params, "mcpServers"), g.mcp, "an MCP server")
	if dirs, _ := field(params, "additionalDirectories").([]any); len(dirs) > 0 {
		c.gate("/params/additionalDirectories", g.addDirs, c.method+" additionalDirectories")
	}
	sp := field(params, "systemPrompt")
	if sp == nil {
		return
	}
	c.gate("/params/systemPrompt", g.sysPrompt, c.method+" systemPrompt")
	if field(sp, "mode") == "override" {
		c.gate("/params/systemPrompt/mode", g.sysOverride, `systemPrompt mode "override"`)
	}
}

func (c *checker) gateResult(result any) {
	switch {
	case c.method == "initialize":
		c.gateTypes("/result/authMethods", field(result, "authMethods"), c.gates().authMethods, "an auth method")
	case contains(configResults, c.method):
		c.gateTypes("/result/configOptions", field(result, "configOptions"), c.gates().config, "a config option")
	}
}

// gateTypes checks the "type" of every element of list against gates.
func (c *checker) gateTypes(ptr string, list any, gates map[string]capRef, what string) {
	arr, _ := list.([]any)
	for i, x := range arr {
		t, _ := field(x, "type").(string)
		if r, ok := gates[t]; ok {
			c.gate(ptr+"/"+strconv.Itoa(i)+"/type", r, what+" of type "+strconv.Quote(t))
		}
	}
}
