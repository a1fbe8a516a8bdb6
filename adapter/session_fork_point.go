package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/internal/jsonrpc"
	"github.com/airwire/airwire/internal/lookup"
)

// Session fork point (contract "Session fork point"): a `session/fork`
// whose `_meta.jetbrains.air.fork` names an agent message keeps the
// history up to it. The message is looked up in the live session, then in
// the active history, then in all stored branches; no match fails the
// request with invalidParams before anything is copied or started.

// forkPointRow is the transcript row a fork request's fork point names;
// "" forks the whole session (no fork point, or no transcript: the fork
// reports that).
func (a *Agent) forkPointRow(p storedParams) (string, error) {
	point, ok := history.ParseForkPoint(p.Meta)
	if !ok {
		return "", nil
	}
	path, found := history.Find(a.configDir(), p.SessionID)
	if !found {
		return "", nil
	}
	row, ok, err := history.ResolveForkPoint(path, point, a.liveMessageRow(p.SessionID))
	if err != nil {
		return "", err
	}
	if !ok {
		data, _ := json.Marshal(map[string]string{"messageId": point.MessageID})
		return "", &jsonrpc.WireError{Code: jsonrpc.ErrInvalidParams.Code, Data: data,
			Message: fmt.Sprintf("Invalid params: Fork point message %s was not found in session %s", point.MessageID, p.SessionID)}
	}
	return row, nil
}

// liveMessageRow looks a message id up in session id when it runs on this
// connection (nil otherwise).
func (a *Agent) liveMessageRow(id string) func(string) string {
	a.mu.Lock()
	s := a.sessions[id]
	a.mu.Unlock()
	if s == nil {
		return nil
	}
	return s.messageRows.row
}

// messageRows are the transcript row uuids of the agent messages a
// session's CLI reported, by message id.
type messageRows struct {
	mu   sync.Mutex
	rows map[string]string
}

// row is the transcript row uuid of a message the session's CLI reported
// ("" when unknown).
func (m *messageRows) row(messageID string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.rows[messageID]
}

// note records the row uuid of a message by the id the client knows it
// by: an assistant message's API id, else the row uuid.
func (m *messageRows) note(messageID, uuid string) {
	if messageID == "" || uuid == "" {
		return
	}
	m.mu.Lock()
	if m.rows == nil {
		m.rows = map[string]string{}
	}
	m.rows[messageID] = uuid
	m.mu.Unlock()
}

// A session/load or session/resume of a session that is live in this agent
// (opened by session/new, a fork, or an earlier load or resume) starts no
// second CLI when its session-defining params are the ones the session was
// opened with: a load replays the history into the running session, and
// both answer with the live session's modes and config options. Other
// params restart the session: its CLI is torn down and a new one resumes
// the conversation in the live permission mode (contract: "Session fork
// point").

// openLive is a load (replay) or resume of the live session live.
func (a *Agent) openLive(ctx context.Context, req *jsonrpc.Request, live *Session, p storedParams, replay bool) (any, error) {
	path, stored := history.Find(a.configDir(), p.SessionID)
	if sessionFingerprint(req.Params) != sessionFingerprint(live.opened) {
		return a.recreateLive(ctx, req, live, p, path, stored, replay)
	}
	if replay && stored {
		if err := live.replay(path); err != nil {
			return nil, errReplay
		}
	}
	return a.answerOpened(req, live)
}

// recreateLive tears live down and starts its session again with the
// request's params, in the live permission mode: resuming its stored
// conversation, or, for a session never prompted (nothing stored yet), as
// a fresh CLI under the same id. A load then replays the history.
func (a *Agent) recreateLive(ctx context.Context, req *jsonrpc.Request, live *Session, p storedParams, path string, stored, replay bool) (any, error) {
	mode := live.cfg.Mode()
	live.stopTurn(ctx)
	a.closeLoaded(live.ID)
	s := a.newSessionState(p.SessionID, p.Cwd, stored)
	s.index.resumed = stored
	s.opened = slices.Clone(req.Params)
	st := claude.SessionStart{Resume: p.SessionID}
	var tail history.Resumed
	if stored {
		tail, _ = history.ReadTail(path, true)
	} else {
		st = claude.SessionStart{SessionID: p.SessionID}
	}
	if err := s.startStored(ctx, st, mode, tail, p); err != nil {
		return nil, err
	}
	if replay && stored {
		if err := s.replay(path); err != nil {
			s.Close()
			return nil, errReplay
		}
	}
	return a.answerOpened(req, s)
}

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
