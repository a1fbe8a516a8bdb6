package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// SessionStart is what the session layer decided for one CLI process of an
// ACP session (session/new, load, resume or fork).
type SessionStart struct {
	// SessionID is the id the CLI is told to use (--session-id). It is
	// passed for a new session and for a fork, not for a plain resume.
	SessionID string
	// Resume is the stored session to continue (--resume).
	Resume string
	// ForkSession makes the CLI copy Resume into SessionID (--fork-session).
	ForkSession bool
	// PermissionMode is the initial mode the reference resolved (explicit,
	// resumed from the transcript, settings' defaultMode, or its default).
	PermissionMode string
	// AllowBypass gates --allow-dangerously-skip-permissions.
	AllowBypass bool
	// FormElicitation is the client's elicitation.form capability: without
	// it AskUserQuestion is disallowed.
	FormElicitation bool
	// MCPServers is the ACP params.mcpServers array as sent.
	MCPServers json.RawMessage
	// AdditionalDirectories are the ACP additional roots (params or
	// _meta.additionalRoots, as the session layer resolved them).
	AdditionalDirectories []string
	// Meta is the ACP params._meta: claudeCode.options (SDK options passed
	// through) and disableBuiltInTools.
	Meta json.RawMessage
	// Thinking comes from MAX_THINKING_TOKENS / CLAUDE_CODE_THINKING_DISPLAY.
	Thinking *Thinking
	// Settings is the programmatic settings JSON, if any (--settings).
	Settings string
	// Agent is the main-thread agent to start as (--agent) when the
	// session chose one after options.agent; "" keeps options.agent.
	Agent string
}

// userOptions is the subset of `_meta.claudeCode.options` that reaches the
// command line.
type userOptions struct {
	MaxTurns              int                  `json:"maxTurns"`
	MaxBudgetUSD          *float64             `json:"maxBudgetUsd"`
	TaskBudget            *struct{ Total int } `json:"taskBudget"`
	Model                 string               `json:"model"`
	Effort                string               `json:"effort"`
	FallbackModel         string               `json:"fallbackModel"`
	Agent                 string               `json:"agent"`
	Betas                 []string             `json:"betas"`
	AllowedTools          []string             `json:"allowedTools"`
	DisallowedTools       []string             `json:"disallowedTools"`
	Tools                 json.RawMessage      `json:"tools"`
	MCPServers            orderedRaw           `json:"mcpServers"`
	AdditionalDirectories []string             `json:"additionalDirectories"`
	ExtraArgs             orderedRaw           `json:"extraArgs"`
	StrictMCPConfig       bool                 `json:"strictMcpConfig"`
	IncludeHookEvents     bool                 `json:"includeHookEvents"`
	PersistSession        *bool                `json:"persistSession"`
}

type sessionMeta struct {
	ClaudeCode struct {
		Options userOptions `json:"options"`
	} `json:"claudeCode"`
	DisableBuiltInTools bool `json:"disableBuiltInTools"`
}

// ReferenceOptions returns the SpawnOptions the reference adapter hands the
// SDK for s (acp-agent.js createSession): stdio permission prompts, the
// three setting sources, partial messages, the claude_code tool preset,
// the editor's MCP servers after the user's, `replay-user-messages`, and
// the user's `_meta.claudeCode.options` that map to flags.
func ReferenceOptions(s SessionStart) (SpawnOptions, error) {
	var meta sessionMeta
	if len(s.Meta) > 0 && string(s.Meta) != "null" {
		if err := json.Unmarshal(s.Meta, &meta); err != nil {
			return SpawnOptions{}, fmt.Errorf("_meta: %w", err)
		}
	}
	u := meta.ClaudeCode.Options
	o := SpawnOptions{
		Thinking: s.Thinking, MaxTurns: u.MaxTurns, MaxBudgetUSD: u.MaxBudgetUSD, Model: u.Model,
		Effort: u.Effort, FallbackModel: u.FallbackModel, Agent: u.Agent, Betas: u.Betas,
		PermissionPromptTool: "stdio", Resume: s.Resume, AllowedTools: u.AllowedTools,
		SettingSources: []string{"user", "project", "local"}, StrictMCPConfig: u.StrictMCPConfig,
		PermissionMode: s.PermissionMode, AllowDangerouslySkipPermissions: s.AllowBypass,
		IncludeHookEvents: u.IncludeHookEvents, IncludePartialMessages: true, ForkSession: s.ForkSession,
		NoSessionPersistence: u.PersistSession != nil && !*u.PersistSession, Settings: s.Settings,
	}
	if s.Agent != "" {
		o.Agent = s.Agent
	}
	if u.TaskBudget != nil {
		o.TaskBudget = u.TaskBudget.Total
	}
	o.DisallowedTools = append(o.DisallowedTools, u.DisallowedTools...)
	if !s.FormElicitation {
		o.DisallowedTools = append(o.DisallowedTools, "AskUserQuestion")
	}
	tools, err := toolsOption(u.Tools, meta.DisableBuiltInTools)
	if err != nil {
		return SpawnOptions{}, err
	}
	o.Tools = tools
	for _, kv := range u.MCPServers {
		o.MCPServers.Set(kv.Name, kv.Value)
	}
	if err := o.MCPServers.AddACPServers(s.MCPServers); err != nil {
		return SpawnOptions{}, err
	}
	o.AdditionalDirectories = append(append([]string(nil), u.AdditionalDirectories...), s.AdditionalDirectories...)
	o.ExtraArgs = extraArgs(u.ExtraArgs)
	if s.Resume == "" || s.ForkSession {
		o.SessionID = s.SessionID
	}
	return o, nil
}

// toolsOption reads the user's tools (an array or a preset object); without
// one the preset is used, or none at all with disableBuiltInTools.
func toolsOption(raw json.RawMessage, disableBuiltIn bool) (*Tools, error) {
	if len(raw) == 0 || string(raw) == "null" {
		if disableBuiltIn {
			return &Tools{Names: []string{}}, nil
		}
		return ToolsPreset, nil
	}
	var names []string
	if json.Unmarshal(raw, &names) == nil {
		return &Tools{Names: names}, nil
	}
	var preset struct{ Type string }
	if err := json.Unmarshal(raw, &preset); err != nil {
		return nil, fmt.Errorf("claudeCode.options.tools: %w", err)
	}
	return ToolsPreset, nil
}

// extraArgs keeps the user's extra args in order, then sets
// replay-user-messages to "" as the reference does.
func extraArgs(user orderedRaw) []ExtraArg {
	var out []ExtraArg
	empty := ""
	replaced := false
	for _, kv := range user {
		e := ExtraArg{Name: kv.Name}
		if string(kv.Value) != "null" {
			// String(value), as JavaScript writes a non-null value.
			v := string(kv.Value)
			_ = json.Unmarshal(kv.Value, &v)
			e.Value = &v
		}
		if kv.Name == "replay-user-messages" {
			e.Value, replaced = &empty, true
		}
		out = append(out, e)
	}
	if !replaced {
		out = append(out, ExtraArg{Name: "replay-user-messages", Value: &empty})
	}
	return out
}

// orderedRaw is a JSON object read with its key order kept.
type orderedRaw []namedJSON

// namedJSON is one member of an orderedRaw object.
type namedJSON struct {
	Name  string
	Value json.RawMessage
}

// UnmarshalJSON implements json.Unmarshaler.
func (o *orderedRaw) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("want an object")
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		name, _ := k.(string)
		*o = append(*o, namedJSON{Name: name, Value: v})
	}
	return nil
}
