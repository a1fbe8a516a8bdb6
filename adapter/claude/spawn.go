package claude

import (
	"encoding/json"
	"strconv"
	"strings"
)

// SpawnOptions are the Agent SDK options that shape the CLI's command line
// (research: claude-cli-protocol.md §1.2). A zero field adds no flag.
type SpawnOptions struct {
	Thinking     *Thinking
	Effort       string
	MaxTurns     int
	MaxBudgetUSD *float64
	TaskBudget   int
	Model        string
	Agent        string
	Betas        []string
	JSONSchema   json.RawMessage
	DebugFile    string
	Debug        bool
	// PermissionPromptTool is "stdio" when permission asks come back as
	// can_use_tool control requests (the SDK's canUseTool), or an MCP tool
	// name.
	PermissionPromptTool string
	PermissionPrompts    string
	Continue             bool
	Resume               string
	AllowedTools         []string
	DisallowedTools      []string
	// Tools is nil for no --tools flag; ToolsPreset for --tools=default.
	Tools      *Tools
	MCPServers MCPServers
	// SettingSources is nil for no flag (the CLI then reads none).
	SettingSources                  []string
	StrictMCPConfig                 bool
	PermissionMode                  string
	AllowDangerouslySkipPermissions bool
	FallbackModel                   string
	IncludeHookEvents               bool
	IncludePartialMessages          bool
	ProjectConfigRoot               string
	AdditionalDirectories           []string
	Plugins                         []Plugin
	ForkSession                     bool
	ResumeSessionAt                 string
	SessionID                       string
	NoSessionPersistence            bool
	// Settings is a settings file path or JSON text (--settings).
	Settings string
	// ExtraArgs are `--name value` pairs in order (a nil Value gives
	// `--name` alone; an empty one keeps "" as its own argv entry).
	ExtraArgs []ExtraArg
}

// Thinking is the SDK's thinking option: Type is "adaptive", "enabled" or
// "disabled"; BudgetTokens > 0 with "enabled" gives --max-thinking-tokens.
type Thinking struct {
	Type         string
	BudgetTokens int
	Display      string
}

// Tools is the --tools flag: the preset, or an explicit list.
type Tools struct {
	Preset bool
	Names  []string
}

// ToolsPreset is the claude_code tool preset (--tools=default).
var ToolsPreset = &Tools{Preset: true}

// Plugin is a local plugin directory.
type Plugin struct {
	Path             string
	SkipMCPDiscovery bool
}

// ExtraArg is one SDK extraArgs entry.
type ExtraArg struct {
	Name  string
	Value *string
}

// Args returns the CLI's arguments (without the program) in the order the
// SDK's ProcessTransport builds them.
func Args(o SpawnOptions) []string {
	a := []string{"--output-format", "stream-json", "--verbose", "--input-format", "stream-json"}
	a = append(a, modelArgs(o)...)
	a = append(a, permissionArgs(o)...)
	a = append(a, toolArgs(o)...)
	a = append(a, sessionArgs(o)...)
	for _, e := range o.ExtraArgs {
		if e.Value == nil {
			a = append(a, "--"+e.Name)
			continue
		}
		a = append(a, pair("--"+e.Name, *e.Value)...)
	}
	// The SDK adds settings to the extra args' object, so it comes last.
	if o.Settings != "" {
		a = append(a, pair("--settings", o.Settings)...)
	}
	return a
}

// flag is the SDK's `k=v` form.
func flag(k, v string) string { return k + "=" + v }

// pair is the SDK's two-entry form, or `k=v` for a value that starts with
// "-" (so the CLI cannot read it as a flag).
func pair(k, v string) []string {
	if len(v) > 1 && strings.HasPrefix(v, "-") {
		return []string{flag(k, v)}
	}
	return []string{k, v}
}

func modelArgs(o SpawnOptions) []string {
	var a []string
	if t := o.Thinking; t != nil {
		switch {
		case t.Type == "disabled":
			a = append(a, "--thinking=disabled")
		case t.Type == "enabled" && t.BudgetTokens > 0:
			a = append(a, flag("--max-thinking-tokens", strconv.Itoa(t.BudgetTokens)))
		default:
			a = append(a, "--thinking=adaptive")
		}
		if t.Type != "disabled" && t.Display != "" {
			a = append(a, flag("--thinking-display", t.Display))
		}
	}
	add := func(cond bool, s string) {
		if cond {
			a = append(a, s)
		}
	}
	add(o.Effort != "", flag("--effort", o.Effort))
	add(o.MaxTurns > 0, flag("--max-turns", strconv.Itoa(o.MaxTurns)))
	if o.MaxBudgetUSD != nil {
		a = append(a, flag("--max-budget-usd", jsNumber(*o.MaxBudgetUSD)))
	}
	add(o.TaskBudget > 0, flag("--task-budget", strconv.Itoa(o.TaskBudget)))
	add(o.Model != "", flag("--model", o.Model))
	add(o.Agent != "", flag("--agent", o.Agent))
	add(len(o.Betas) > 0, flag("--betas", strings.Join(o.Betas, ",")))
	add(len(o.JSONSchema) > 0, flag("--json-schema", string(o.JSONSchema)))
	add(o.DebugFile != "", flag("--debug-file", o.DebugFile))
	add(o.DebugFile == "" && o.Debug, "--debug")
	return a
}

func permissionArgs(o SpawnOptions) []string {
	var a []string
	if o.PermissionPromptTool != "" {
		a = append(a, flag("--permission-prompt-tool", o.PermissionPromptTool))
	}
	if o.PermissionPrompts != "" {
		a = append(a, flag("--permission-prompts", o.PermissionPrompts))
	}
	if o.Continue {
		a = append(a, "--continue")
	}
	if o.Resume != "" {
		a = append(a, flag("--resume", o.Resume))
	}
	return a
}

func toolArgs(o SpawnOptions) []string {
	var a []string
	if len(o.AllowedTools) > 0 {
		a = append(a, flag("--allowedTools", strings.Join(o.AllowedTools, ",")))
	}
	if len(o.DisallowedTools) > 0 {
		a = append(a, flag("--disallowedTools", strings.Join(o.DisallowedTools, ",")))
	}
	if o.Tools != nil {
		if o.Tools.Preset {
			a = append(a, "--tools=default")
		} else {
			a = append(a, flag("--tools", strings.Join(o.Tools.Names, ",")))
		}
	}
	if len(o.MCPServers) > 0 {
		a = append(a, pair("--mcp-config", o.MCPServers.ConfigJSON())...)
	}
	if o.SettingSources != nil {
		a = append(a, flag("--setting-sources", strings.Join(o.SettingSources, ",")))
	}
	if o.StrictMCPConfig {
		a = append(a, "--strict-mcp-config")
	}
	if o.PermissionMode != "" {
		a = append(a, flag("--permission-mode", o.PermissionMode))
	}
	if o.AllowDangerouslySkipPermissions {
		a = append(a, "--allow-dangerously-skip-permissions")
	}
	if o.FallbackModel != "" {
		a = append(a, flag("--fallback-model", o.FallbackModel))
	}
	return a
}

func sessionArgs(o SpawnOptions) []string {
	var a []string
	add := func(cond bool, s string) {
		if cond {
			a = append(a, s)
		}
	}
	add(o.IncludeHookEvents, "--include-hook-events")
	add(o.IncludePartialMessages, "--include-partial-messages")
	add(o.ProjectConfigRoot != "", flag("--project-config-root", o.ProjectConfigRoot))
	for _, d := range o.AdditionalDirectories {
		a = append(a, flag("--add-dir", d))
	}
	for _, p := range o.Plugins {
		if p.SkipMCPDiscovery {
			a = append(a, flag("--plugin-dir-no-mcp", p.Path))
		} else {
			a = append(a, flag("--plugin-dir", p.Path))
		}
	}
	add(o.ForkSession, "--fork-session")
	add(o.ResumeSessionAt != "", flag("--resume-session-at", o.ResumeSessionAt))
	add(o.SessionID != "", flag("--session-id", o.SessionID))
	add(o.NoSessionPersistence, "--no-session-persistence")
	return a
}

// jsNumber formats f as JavaScript's String(number) does for the values a
// flag can carry: integers without a fraction, others in the shortest form
// that reads back the same, with an exponent only below 1e-6 or from 1e21.
func jsNumber(f float64) string {
	abs := f
	if abs < 0 {
		abs = -abs
	}
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		// Go writes e-07 where JavaScript writes e-7, and e+21 alike.
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[:1]
		exp = strings.TrimLeft(exp[1:], "0")
		return mant + "e" + sign + exp
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}
