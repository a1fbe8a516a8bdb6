package fakecli

import "path/filepath"

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

func defaultCommands() []any {
	cmd := func(name, desc, hint string) map[string]any {
		return map[string]any{"name": name, "description": desc, "argumentHint": hint, "builtin": true}
	}
	return []any{
		cmd("code-review", "Review the current diff for correctness bugs", "[<target>]"),
		cmd("debug", "Enable debug logging for this session and help diagnose issues", "[issue description]"),
		cmd("simplify", "Review the changed code for reuse and simplification, then apply the fixes", "[<target>]"),
		cmd("compact", "Clear conversation history but keep a summary in context", "<optional custom summarization instructions>"),
	}
}

func defaultAgents() []any {
	return []any{
		map[string]any{"name": "general-purpose", "description": "General-purpose agent for multi-step tasks."},
		map[string]any{"name": "Explore", "description": "Fast read-only search agent for locating code.", "model": "inherit"},
		map[string]any{"name": "Plan", "description": "Software architect agent for designing implementation plans.", "model": "inherit"},
	}
}

// initializeResponse is the body of the success reply to initialize, with
// the keys the real CLI sends (peer-capture real-cli-stream-json-stdout).
func (c *cli) initializeResponse() map[string]any {
	r := map[string]any{
		"commands":                            defaultCommands(),
		"agents":                              defaultAgents(),
		"output_style":                        "default",
		"available_output_styles":             []any{"default", "Explanatory", "Learning"},
		"user_output_styles_dir":              filepath.Join(c.configDir, "output-styles"),
		"models":                              defaultModels(),
		"account":                             map[string]any{"tokenSource": "none", "apiProvider": "firstParty"},
		"pid":                                 fakePID,
		"claude_code_version":                 Version,
		"current_permission_mode":             c.mode(),
		"hooks_applied":                       true,
		"hook_on_failure_supported":           true,
		"feedback_mode":                       map[string]any{"kind": "bundle"},
		"analytics_disabled":                  true,
		"remote_control_auto_enable":          false,
		"remote_control_auto_connect_default": false,
		"remote_control_available":            false,
		"remote_control_auto_on_by_default":   false,
		"ide_rc_auto_enable_gate":             false,
		"fast_mode_state":                     "off",
		"fast_mode_disabled_reason":           "sdk_opt_in_required",
		"session_state":                       "idle",
		"capabilities":                        []any{"ui_surface_v1"},
	}
	for k, v := range c.script.Init {
		r[k] = v
	}
	return r
}

func (c *cli) contextUsage() map[string]any {
	cat := func(id, name string, tokens int, color, kind string) map[string]any {
		return map[string]any{"id": id, "name": name, "tokens": tokens, "color": color, "kind": kind}
	}
	return map[string]any{
		"categories": []any{
			cat("system_prompt", "System prompt", 1913, "promptBorder", "used"),
			cat("system_tools", "System tools", 15150, "inactive", "used"),
			cat("messages", "Messages", 2032, "purple", "used"),
			cat("free_space", "Free space", 180905, "promptBorder", "free"),
		},
		"totalTokens": 19095, "maxTokens": 200000, "rawMaxTokens": 200000, "autocompactSource": "model-default",
		"percentage": 10, "gridRows": []any{}, "model": c.currentModel(), "memoryFiles": []any{}, "mcpTools": []any{},
		"agents": []any{}, "isAutoCompactEnabled": true,
	}
}

// loggedOut is the real CLI's logged-out `auth status --json`, with its key
// order (peer-capture/real-cli-auth-status-json.txt).
type loggedOut struct {
	LoggedIn          bool    `json:"loggedIn"`
	AuthMethod        string  `json:"authMethod"`
	APIProvider       string  `json:"apiProvider"`
	AnalyticsDisabled bool    `json:"analyticsDisabled"`
	ProjectsDirectory string  `json:"projectsDirectory"`
	ConfigDirectory   string  `json:"configDirectory"`
	LoginExpiresAt    *string `json:"loginExpiresAt"`
}

// authStatus is what `auth status --json` prints, and whether it reports a
// login: the logged-out answer of the real CLI unless the script replaces it.
func authStatus(configDir string, override map[string]any) (any, bool) {
	if override != nil {
		in, _ := override["loggedIn"].(bool)
		return override, in
	}
	return loggedOut{AuthMethod: "none", APIProvider: "firstParty", AnalyticsDisabled: true,
		ProjectsDirectory: filepath.Join(configDir, "projects"), ConfigDirectory: configDir}, false
}

// initFrame is the system/init frame written at the start of every turn.
func (c *cli) initFrame() map[string]any {
	var slash []any
	for _, cmd := range defaultCommands() {
		slash = append(slash, cmd.(map[string]any)["name"])
	}
	var agents []any
	for _, a := range defaultAgents() {
		agents = append(agents, a.(map[string]any)["name"])
	}
	return map[string]any{
		"type": "system", "subtype": "init", "cwd": c.cwd, "session_id": c.sessionID,
		"tools":       []any{"Task", "AskUserQuestion", "Bash", "Edit", "Glob", "Grep", "Read", "Write", "WebFetch", "WebSearch", "TodoWrite"},
		"mcp_servers": []any{}, "model": c.currentModel(), "permissionMode": c.mode(),
		"slash_commands": slash, "apiKeySource": "none", "claude_code_version": Version,
		"output_style": "default", "agents": agents, "skills": []any{}, "plugins": []any{},
		"capabilities": []any{}, "fast_mode_state": "off",
	}
}
