// Package caps holds the one ClientCapabilities value the agent builds at
// `initialize`. Every choice that depends on the client (plain ACP, Zed,
// JetBrains AIR) reads it, and nothing else looks at the raw declaration
// (contract: "Adapter structure", "Negotiation", "Zed conventions").
package caps

import (
	"encoding/json"
	"math"
	"slices"
)

// AIR capability names a client can declare (contract: "Capabilities").
const (
	DiffPatch              = "diffPatch"
	SessionFailure         = "sessionFailure"
	RecommendedValue       = "recommendedValue"
	AsyncTasks             = "asyncTasks"
	AgentFileChangeReport  = "agentFileChangeReport"
	NativeSubagentSessions = "nativeSubagentSessions"
	PlanFile               = "planFile"
	SessionIndex           = "sessionIndex"
	RawInputRendering      = "rawInputRendering"
)

// Client is what the editor declared in initialize.params.clientCapabilities,
// read once.
type Client struct {
	// Raw is the declaration as sent (nil when absent).
	Raw json.RawMessage

	ReadTextFile  bool // fs.readTextFile
	WriteTextFile bool // fs.writeTextFile
	Terminal      bool // terminal
	FormElicit    bool // elicitation.form
	URLElicit     bool // elicitation.url
	AuthTerminal  bool // auth.terminal
	// Subagents is `subagents: {}`, the draft ACP subagent RFD: native
	// subagent sessions (contract: "Native subagent sessions").
	Subagents bool

	// ACP session capabilities (under `session`).
	Compaction     bool // session.compaction: compaction_update instead of a tool call
	Notices        bool // session.notices: notice updates instead of transcript lines
	BooleanOptions bool // session.configOptions.boolean: on/off options as booleans

	// Plan is `plan` (any value but null, as the reference reads it): the
	// client takes `plan_update` with the draft's markdown plans (an
	// approved ExitPlanMode plan).
	Plan bool

	// Zed conventions (contract: "Zed conventions").
	TerminalOutput      bool // _meta.terminal_output: the terminal channel
	TerminalOutputDelta bool // _meta.terminal_output_delta (AIR appends)
	TerminalAuth        bool // _meta["terminal-auth"]

	// AIR is the JetBrains AIR declaration (contract: "Client declaration").
	AIR AIR

	// V2 is a client that negotiated the draft ACP v2: its permission
	// requests carry their own title and description.
	V2 bool
}

// AIR is the `_meta.jetbrains.air` declaration.
type AIR struct {
	// Client is true when the client declared `_meta.jetbrains.air` at all:
	// it is then an AIR client, whatever its capability list holds.
	Client bool
	// Version is the declared version when it is valid (a finite integer ≥ 1).
	Version int
	// Capabilities holds the declared names; empty when the declaration is
	// malformed ("A malformed declaration enables no capability").
	Capabilities []string
}

// Has reports whether the AIR client declared the capability name exactly.
func (a AIR) Has(name string) bool { return slices.Contains(a.Capabilities, name) }

// TerminalChannel reports whether command output goes through the Zed
// terminal channel (terminal_output or terminal_output_delta).
func (c Client) TerminalChannel() bool { return c.TerminalOutput || c.TerminalOutputDelta }

type wireCaps struct {
	FS struct {
		ReadTextFile  bool `json:"readTextFile"`
		WriteTextFile bool `json:"writeTextFile"`
	} `json:"fs"`
	Terminal    bool `json:"terminal"`
	Elicitation struct {
		Form json.RawMessage `json:"form"`
		URL  json.RawMessage `json:"url"`
	} `json:"elicitation"`
	Auth struct {
		Terminal bool `json:"terminal"`
	} `json:"auth"`
	Subagents json.RawMessage `json:"subagents"`
	Plan      json.RawMessage `json:"plan"`
	Session   struct {
		Compaction    json.RawMessage `json:"compaction"`
		Notices       json.RawMessage `json:"notices"`
		ConfigOptions struct {
			Boolean json.RawMessage `json:"boolean"`
		} `json:"configOptions"`
	} `json:"session"`
	Meta map[string]json.RawMessage `json:"_meta"`
}

// Parse reads a clientCapabilities value. A part of the wrong type reads
// as not declared; Parse never fails, because a client that declares
// something odd still gets a working plain agent.
func Parse(raw json.RawMessage) Client {
	c := Client{Raw: raw}
	var w wireCaps
	if len(raw) == 0 || json.Unmarshal(raw, &w) != nil {
		tolerant(raw, &w)
	}
	c.ReadTextFile, c.WriteTextFile = w.FS.ReadTextFile, w.FS.WriteTextFile
	c.Terminal = w.Terminal
	c.FormElicit = isObject(w.Elicitation.Form)
	c.URLElicit = isObject(w.Elicitation.URL)
	c.AuthTerminal = w.Auth.Terminal
	c.Subagents = isObject(w.Subagents)
	c.Compaction, c.Notices = isObject(w.Session.Compaction), isObject(w.Session.Notices)
	c.BooleanOptions = present(w.Session.ConfigOptions.Boolean)
	c.Plan = present(w.Plan)
	c.TerminalOutput = isTrue(w.Meta["terminal_output"])
	c.TerminalOutputDelta = isTrue(w.Meta["terminal_output_delta"])
	c.TerminalAuth = isTrue(w.Meta["terminal-auth"])
	c.AIR = parseAIR(w.Meta["jetbrains"])
	return c
}

// tolerant decodes the parts one by one, so that one ill-typed part does
// not hide the others.
func tolerant(raw json.RawMessage, w *wireCaps) {
	var parts map[string]json.RawMessage
	if json.Unmarshal(raw, &parts) != nil {
		return
	}
	_ = json.Unmarshal(parts["fs"], &w.FS)
	_ = json.Unmarshal(parts["terminal"], &w.Terminal)
	_ = json.Unmarshal(parts["elicitation"], &w.Elicitation)
	_ = json.Unmarshal(parts["auth"], &w.Auth)
	_ = json.Unmarshal(parts["session"], &w.Session)
	w.Subagents = parts["subagents"]
	_ = json.Unmarshal(parts["_meta"], &w.Meta)
}

func parseAIR(jetbrains json.RawMessage) AIR {
	var jb map[string]json.RawMessage
	if json.Unmarshal(jetbrains, &jb) != nil || jb == nil {
		return AIR{}
	}
	raw, ok := jb["air"]
	if !ok || !isObject(raw) {
		return AIR{}
	}
	a := AIR{Client: true}
	var decl struct {
		Version      json.RawMessage `json:"version"`
		Capabilities json.RawMessage `json:"capabilities"`
	}
	_ = json.Unmarshal(raw, &decl)
	var v float64
	if json.Unmarshal(decl.Version, &v) != nil || v < 1 || v != math.Trunc(v) || math.IsInf(v, 0) {
		return a
	}
	var list []json.RawMessage
	if json.Unmarshal(decl.Capabilities, &list) != nil || list == nil {
		return a
	}
	a.Version = int(v)
	for _, item := range list {
		var s string
		if json.Unmarshal(item, &s) == nil {
			a.Capabilities = append(a.Capabilities, s)
		}
	}
	return a
}

func isTrue(raw json.RawMessage) bool {
	var b bool
	return json.Unmarshal(raw, &b) == nil && b
}

// present: a value that is there and not null (the reference's `!= null`).
func present(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

func isObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}
