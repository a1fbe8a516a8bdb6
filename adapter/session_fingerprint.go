package adapter

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"

	"github.com/airwire/airwire/internal/lookup"
)

// optionRebuildsSession names the `_meta.claudeCode.options` keys whose
// change makes a session/load or session/resume of a live session start a
// new CLI: the SDK options read when the CLI starts. Other keys (the ones
// the adapter manages, the per-call resume controls, callbacks, unknown
// keys) do not count.
var optionRebuildsSession = lookup.Set{
	"additionalDirectories", "agentProgressSummaries", "agents", "allowDangerouslySkipPermissions", "allowedTools",
	"betas", "debug", "debugFile", "disallowedTools", "effort",
	"enableFileCheckpointing", "env", "executableArgs", "extraArgs", "fallbackModel",
	"forwardSubagentText", "includeHookEvents", "managedSettings", "maxBudgetUsd", "maxThinkingTokens",
	"maxTurns", "mcpServers", "model", "outputFormat", "pathToClaudeCodeExecutable",
	"permissionPrompts", "permissionPromptToolName", "persistSession", "perTaskStopAffordance", "planModeInstructions",
	"pluginDelivery", "plugins", "projectConfigRoot", "promptSuggestions", "sandbox",
	"sessionStoreFlush", "settings", "settingSources", "skills", "strictMcpConfig",
	"supportedDialogKinds", "systemPrompt", "taskBudget", "thinking", "toolAliases",
	"toolConfig", "tools", "verbatimPrompts",
}

// fingerprintParams are the session-defining params of session/new,
// session/fork, session/load and session/resume.
type fingerprintParams struct {
	Cwd                   string            `json:"cwd"`
	MCPServers            []json.RawMessage `json:"mcpServers"`
	AdditionalDirectories json.RawMessage   `json:"additionalDirectories"`
	SystemPrompt          json.RawMessage   `json:"systemPrompt"`
	Meta                  struct {
		AdditionalRoots     json.RawMessage `json:"additionalRoots"`
		SystemPrompt        json.RawMessage `json:"systemPrompt"`
		DisableBuiltInTools json.RawMessage `json:"disableBuiltInTools"`
		ClaudeCode          struct {
			EmitRawSDKMessages json.RawMessage            `json:"emitRawSDKMessages"`
			Options            map[string]json.RawMessage `json:"options"`
		} `json:"claudeCode"`
	} `json:"_meta"`
}

// sessionFingerprint is a stable text of the params that define a
// session's CLI (cwd, the MCP servers sorted by name, additional
// directories, the system prompts, the tool switches and the
// `_meta.claudeCode.options` of optionRebuildsSession, skills as a set):
// a load or resume of a live session with the same fingerprint reuses it,
// another one restarts it (contract: "Session fork point"). Key order and
// the order of MCP servers and skills never change it; params that do not
// decode give "".
func sessionFingerprint(params json.RawMessage) string {
	var p fingerprintParams
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	servers := slices.Clone(p.MCPServers)
	sort.SliceStable(servers, func(i, j int) bool { return serverName(servers[i]) < serverName(servers[j]) })
	options := map[string]any{}
	for k, v := range p.Meta.ClaudeCode.Options {
		if optionRebuildsSession.Has(k) {
			options[k] = fingerprintValue(v)
		}
	}
	if skills, ok := options["skills"].([]any); ok {
		options["skills"] = skillSet(skills)
	}
	fp := map[string]any{"cwd": p.Cwd, "mcpServers": canonicalList(servers), "options": options}
	put := func(key string, raw json.RawMessage, keepNull bool) {
		if len(raw) > 0 && (keepNull || string(raw) != "null") {
			fp[key] = fingerprintValue(raw)
		}
	}
	put("additionalDirectories", p.AdditionalDirectories, true)
	put("clientSystemPrompt", p.SystemPrompt, false)
	put("additionalRoots", p.Meta.AdditionalRoots, true)
	put("systemPrompt", p.Meta.SystemPrompt, true)
	put("disableBuiltInTools", p.Meta.DisableBuiltInTools, true)
	put("emitRawSDKMessages", p.Meta.ClaudeCode.EmitRawSDKMessages, true)
	out, _ := json.Marshal(fp) // map keys marshal sorted
	return string(out)
}

// serverName is the name of an ACP MCP server entry.
func serverName(raw json.RawMessage) string {
	var s struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(raw, &s)
	return s.Name
}

// fingerprintValue decodes raw into plain values, whose maps marshal with sorted
// keys.
func fingerprintValue(raw json.RawMessage) any {
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	_ = d.Decode(&v)
	return v
}

func canonicalList(list []json.RawMessage) []any {
	out := make([]any, 0, len(list))
	for _, raw := range list {
		out = append(out, fingerprintValue(raw))
	}
	return out
}

// skillSet is a skills list without duplicates, in a fixed order: neither
// order nor repeats change the skills a session selects.
func skillSet(skills []any) []any {
	byText := map[string]any{}
	for _, s := range skills {
		b, _ := json.Marshal(s)
		byText[string(b)] = s
	}
	keys := make([]string, 0, len(byText))
	for k := range byText {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]any, 0, len(keys))
	for _, k := range keys {
		out = append(out, byText[k])
	}
	return out
}
