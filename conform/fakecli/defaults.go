package fakecli

import (
	"fmt"
	"path/filepath"
)

// Version is what --version prints and what the fake reports as
// claude_code_version: the CLI bundled with the reference adapter's SDK.
const Version = "2.1.318"

// fakePID is reported as the CLI's pid, fixed so that frames are
// deterministic.
const fakePID = 4242

func model(value, resolved, display, desc string, fast bool) map[string]any {
	m := map[string]any{
		"value": value, "resolvedModel": resolved, "displayName": display, "description": desc,
		"supportsEffort": true, "supportedEffortLevels": []any{"low", "medium", "high", "xhigh", "max"},
		"supportsAdaptiveThinking": true, "supportsAutoMode": true, "supportsThinkingOff": false,
	}
	if fast {
		m["supportsFastMode"] = true
	}
	return m
}

// defaultModels are the models the real 2.1.318 CLI offered, with shorter
// descriptions.
func defaultModels() []any {
	return []any{
		model("default", "claude-opus-5-5", "Default (recommended)", "Use the default model (currently Opus 5.5)", true),
		model("opus", "claude-opus-5-5", "Opus", "Opus 5.5 · Best for everyday, complex tasks", true),
		model("sonnet", "claude-sonnet-5-5", "Sonnet", "Sonnet 5.5 · Efficient for routine tasks", false),
		model("haiku", "claude-haiku-5-5", "Haiku", "Haiku 5.5 · Fastest for quick answers", false),
	}
}

// defaultCommands is a representative subset of the 44 commands and skills
// the real 2.1.318 CLI lists in its initialize response (cli-capture, real
// runs with ANTHROPIC_API_KEY): the same fields, shorter descriptions.
func defaultCommands() []any {
	cmd := func(name, desc, hint string) map[string]any {
		return map[string]any{"name": name, "description": desc, "argumentHint": hint, "builtin": true}
	}
	return []any{
		cmd("deep-research", "Deep research harness — fan-out web searches, fetch sources, synthesize a cited report. (dynamic workflow)", ""),
		cmd("update-config", "Use this skill to configure the Claude Code harness via settings.json.", ""),
		cmd("verify", "Verify that a code change actually does what it's supposed to by exercising it end-to-end.", ""),
		cmd("code-review", "Review the current diff for correctness bugs", "[<target>]"),
		cmd("debug", "Enable debug logging for this session and help diagnose issues", "[issue description]"),
		cmd("simplify", "Review the changed code for reuse and simplification, then apply the fixes", "[<target>]"),
		cmd("compact", "Clear conversation history but keep a summary in context", "<optional custom summarization instructions>"),
		cmd("context", "Show current context usage", ""),
		cmd("init", "Initialize a new CLAUDE.md file with codebase documentation", ""),
		cmd("security-review", "Complete a security review of the pending changes on the current branch", ""),
	}
}

// defaultSkills are the commands of defaultCommands that the real CLI also
// lists as skills (system/init skills, get_context_usage skills).
func defaultSkills() []string {
	return []string{"deep-research", "update-config", "verify", "code-review", "debug", "simplify"}
}

func defaultAgents() []any {
	return []any{
		map[string]any{"name": "claude", "description": "Catch-all for any task that doesn't fit a more specific agent."},
		map[string]any{"name": "Explore", "description": "Fast read-only search agent for locating code.", "model": "inherit"},
		map[string]any{"name": "general-purpose", "description": "General-purpose agent for multi-step tasks."},
		map[string]any{"name": "Plan", "description": "Software architect agent for designing implementation plans.", "model": "inherit"},
		map[string]any{"name": "statusline-setup", "description": "Configure the user's Claude Code status line setting.", "model": "sonnet"},
	}
}

// initializeResponse is the body of the success reply to initialize, with
// the keys the real CLI sends (peer-capture real-cli-stream-json-stdout).
func (c *cli) initializeResponse() map[string]any {
	r := map[string]any{
		"commands":                            defaultCommands(),
		"agents":                              defaultAgents(),
		"output_style":                        "default",
		"available_output_styles":             []any{"default", "Proactive", "Concise", "Explanatory", "Learning"},
		"user_output_styles_dir":              filepath.Join(c.configDir, "output-styles"),
		"models":                              defaultModels(),
		"account":                             map[string]any{"tokenSource": "none", "apiKeySource": "ANTHROPIC_API_KEY", "apiProvider": "firstParty"},
		"pid":                                 fakePID,
		"claude_code_version":                 Version,
		"current_permission_mode":             c.mode(),
		"hooks_applied":                       true,
		"hook_on_failure_supported":           true,
		"feedback_mode":                       map[string]any{"kind": "disabled"},
		"analytics_disabled":                  true,
		"remote_control_auto_enable":          false,
		"remote_control_auto_connect_default": false,
		"remote_control_available":            false,
		"remote_control_auto_on_by_default":   false,
		"ide_rc_auto_enable_gate":             false,
		"fast_mode_state":                     "off",
		"fast_mode_disabled_reason":           "sdk_opt_in_required",
		"session_state":                       "idle",
		"capabilities":                        []any{"ui_surface_v1", "mcp_call_result_not_for_model_v1"},
	}
	for k, v := range c.script.Init {
		r[k] = v
	}
	return r
}

// contextUsage is the get_context_usage answer with the real CLI's field
// set: a 1,000,000-token window and the skills section (which makes the
// reference send an extra available_commands_update).
func (c *cli) contextUsage() map[string]any {
	cat := func(id, name string, tokens int, color, kind string) map[string]any {
		return map[string]any{"id": id, "name": name, "tokens": tokens, "color": color, "kind": kind}
	}
	var front []any
	for _, name := range defaultSkills() {
		front = append(front, map[string]any{"name": name, "source": "built-in", "tokens": 100})
	}
	skills := map[string]any{"totalSkills": len(front), "includedSkills": len(front), "tokens": 100 * len(front), "skillFrontmatter": front}
	return map[string]any{
		"categories": []any{
			cat("system_prompt", "System prompt", 1913, "promptBorder", "used"),
			cat("system_tools", "System tools", 15150, "inactive", "used"),
			cat("skills", "Skills", 100*len(front), "warning", "used"),
			cat("messages", "Messages", 2032, "purple", "used"),
			cat("autocompact_buffer", "Autocompact buffer", 33000, "inactive", "buffer"),
			cat("free_space", "Free space", 947305, "promptBorder", "free"),
		},
		"totalTokens": 19695, "maxTokens": ContextWindow, "rawMaxTokens": ContextWindow, "autocompactSource": "model-default",
		"percentage": 2, "gridRows": []any{}, "model": c.currentModel(), "memoryFiles": []any{}, "mcpTools": []any{},
		"mcpInstructions": []any{}, "agents": []any{}, "slashCommands": map[string]any{"totalCommands": 4, "includedCommands": 4, "tokens": 400},
		"skills": skills, "autoCompactThreshold": 967000, "isAutoCompactEnabled": true, "apiUsage": nil,
	}
}

// ContextWindow and MaxOutputTokens are the real CLI's model limits for the
// default model (result modelUsage, get_context_usage).
const (
	ContextWindow   = 1000000
	MaxOutputTokens = 128000
)

// authState is the real CLI's `auth status --json`, with its key order
// (peer-capture/real-cli-auth-status-json.txt for logged out; a real run with
// ANTHROPIC_API_KEY set for logged in, which adds apiKeySource).
type authState struct {
	LoggedIn          bool    `json:"loggedIn"`
	AuthMethod        string  `json:"authMethod"`
	APIProvider       string  `json:"apiProvider"`
	AnalyticsDisabled bool    `json:"analyticsDisabled"`
	ProjectsDirectory string  `json:"projectsDirectory"`
	ConfigDirectory   string  `json:"configDirectory"`
	LoginExpiresAt    *string `json:"loginExpiresAt"`
	APIKeySource      string  `json:"apiKeySource,omitempty"`
}

// authStatus is what `auth status --json` prints, and whether it reports a
// login: logged in with an API key, as every real run of the reference is
// (it starts the CLI with ANTHROPIC_API_KEY), unless the script replaces it.
func authStatus(configDir string, override map[string]any) (any, bool) {
	if override != nil {
		in, _ := override["loggedIn"].(bool)
		return override, in
	}
	return authState{LoggedIn: true, AuthMethod: "api_key", APIProvider: "firstParty", AnalyticsDisabled: true,
		ProjectsDirectory: filepath.Join(configDir, "projects"), ConfigDirectory: configDir, APIKeySource: "ANTHROPIC_API_KEY"}, true
}

// defaultTools is system/init.tools of the real 2.1.318 CLI with the
// reference's --tools=default: no Grep, Glob, TodoWrite or Task* tools
// (scenarios that use them assume another CLI configuration and say so).
var defaultTools = []any{"Task", "AskUserQuestion", "Bash", "CronCreate", "CronDelete", "CronList", "Edit", "EnterPlanMode",
	"EnterWorktree", "ExitPlanMode", "ExitWorktree", "ListAgents", "Monitor", "NotebookEdit", "Read", "ReportFindings",
	"ScheduleWakeup", "SendMessage", "Skill", "TaskStop", "ToolSearch", "WebFetch", "WebSearch", "Workflow", "Write"}

// initFrame is the system/init frame written at the start of every turn,
// with the real CLI's field set.
func (c *cli) initFrame(promptUUIDs []any) map[string]any {
	var slash []any
	for _, cmd := range defaultCommands() {
		slash = append(slash, cmd.(map[string]any)["name"])
	}
	var agents []any
	for _, a := range defaultAgents() {
		agents = append(agents, a.(map[string]any)["name"])
	}
	var skills []any
	for _, s := range defaultSkills() {
		skills = append(skills, s)
	}
	f := map[string]any{
		"type": "system", "subtype": "init", "cwd": c.cwd, "session_id": c.sessionID,
		"tools":       defaultTools,
		"mcp_servers": []any{}, "model": c.currentModel(), "permissionMode": c.mode(),
		"slash_commands": slash, "terminal_slash_commands": []any{}, "apiKeySource": "ANTHROPIC_API_KEY", "claude_code_version": Version,
		"output_style": "default", "agents": agents, "skills": skills, "plugins": []any{},
		"capabilities":       []any{"interrupt_receipt_v1", "msg_lifecycle_v1", "ui_surface_v1"},
		"analytics_disabled": true, "product_feedback_disabled": true,
		"memory_paths": map[string]any{"auto": filepath.Join(filepath.Dir(c.transcriptPath), "memory") + "/"},
		"original_cwd": c.cwd, "additional_directories": []any{},
		"messaging_socket_path": fmt.Sprintf("/tmp/cc-socks/%d.sock", fakePID), "per_turn_effort_active": true,
		"ultrathink_available": false, "ultrathink_typed_raises": false, "view_mode": "default",
	}
	c.fastModeState(f)
	if len(promptUUIDs) > 0 {
		f["user_message_uuids"] = promptUUIDs
	}
	return f
}

// fastModeState sets f's fast_mode_state as the real CLI reports it: "on"
// once the host applied fastMode, else "off" with the reason a fresh SDK
// session gives.
func (c *cli) fastModeState(f map[string]any) {
	c.mu.Lock()
	on := c.fastMode
	c.mu.Unlock()
	if on {
		f["fast_mode_state"] = "on"
		return
	}
	f["fast_mode_state"], f["fast_mode_disabled_reason"] = "off", "sdk_opt_in_required"
}
