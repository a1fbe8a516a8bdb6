package claude

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"github.com/airwire/airwire/adapter/claudesettings"
	"github.com/airwire/airwire/adapter/providers"
	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/conform/scenario"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// acpMessage is the part of an ACP line the spawn test reads.
type acpMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		SessionID             string          `json:"sessionId"`
		ModeID                string          `json:"modeId"`
		MCPServers            json.RawMessage `json:"mcpServers"`
		AdditionalDirectories []string        `json:"additionalDirectories"`
		Meta                  json.RawMessage `json:"_meta"`
		ClientCapabilities    struct {
			Elicitation struct {
				Form json.RawMessage `json:"form"`
			} `json:"elicitation"`
		} `json:"clientCapabilities"`
	} `json:"params"`
	Result struct {
		SessionID string `json:"sessionId"`
	} `json:"result"`
	// liveMode is, for a load or resume of a session live in the agent,
	// its permission mode then: a restart keeps it.
	liveMode string
	// route is the model routing in force when the request came.
	route *providers.Config
}

var sessionMethods = []string{"session/new", "session/load", "session/resume", "session/fork"}

// spawnCase is one `cli:N spawn` line of a golden and the SessionStart the
// session request before it leads to.
type spawnCase struct {
	name  string
	start SessionStart
	argv  []string
}

// spawnCases pairs the N-th stream-json spawn of a golden (`cli:N spawn`)
// with the N-th session request of its client lane. The session id is the
// one the editor named (load, resume) or got back (new, fork: a fork
// resumes the copy). The permission mode is the session layer's input:
// for a new session the one its settings give (newMode), for a stored one
// what its transcript recorded (storedMode).
func spawnCases(t *testing.T, path string) []spawnCase {
	lines := goldentest.Read(t, path)
	stored, fresh := storedMode(t, path), newMode(t, path)
	var reqs []acpMessage
	ids := map[string]string{} // request id -> sessionId of its response
	form := false
	clearMode := ""               // the mode of an ExitPlanMode clear-context answer
	agent := ""                   // the agent the editor chose last (set_config_option)
	live := map[string]string{}   // sessionId -> mode, of the sessions new made
	newIDs := map[string]bool{}   // ids of session/new requests
	forkOf := map[string]string{} // id of a session/fork request -> the session it forks
	var rt routing
	for _, l := range lines {
		var m acpMessage
		if json.Unmarshal(l.Msg, &m) != nil {
			continue
		}
		if l.Tag == "client editor->agent" {
			clearMode = cmp.Or(clearContextMode(l.Msg), clearMode)
			agent = cmp.Or(chosenAgent(m.Method, l.Msg), agent)
		}
		switch {
		case l.Tag == "client editor->agent" && m.Method == "initialize":
			form = m.Params.ClientCapabilities.Elicitation.Form != nil
		case l.Tag == "client editor->agent" && slices.Contains(sessionMethods, m.Method):
			m.liveMode = live[m.Params.SessionID]
			m.route = rt.resolved()
			newIDs[string(m.ID)] = m.Method == "session/new"
			if m.Method == "session/fork" {
				forkOf[string(m.ID)] = m.Params.SessionID
			}
			reqs = append(reqs, m)
		case rt.request(l.Tag, m.Method, m.ID, l.Msg):
		case l.Tag == "client agent->editor" && rt.answer(m.ID, l.Msg):
		case l.Tag == "client editor->agent" && m.Method == "session/set_mode" && live[m.Params.SessionID] != "":
			live[m.Params.SessionID] = m.Params.ModeID
		case l.Tag == "client agent->editor" && m.Method == "" && ids[string(m.ID)] == "":
			ids[string(m.ID)] = m.Result.SessionID
			if newIDs[string(m.ID)] && m.Result.SessionID != "" {
				live[m.Result.SessionID] = fresh
			}
			if src, ok := forkOf[string(m.ID)]; ok && m.Result.SessionID != "" && live[src] != "" {
				live[m.Result.SessionID] = live[src] // a fork of a live session runs in its mode
			}
		}
	}
	var out []spawnCase
	used := map[int]bool{}
	for _, l := range lines {
		var n int
		if _, err := fmt.Sscanf(l.Tag, "cli:%d spawn", &n); err != nil {
			continue
		}
		var spawn struct{ Argv []string }
		if err := json.Unmarshal(l.Msg, &spawn); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		name := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path) + "/" + l.Tag
		if n > len(reqs) && clearMode != "" && len(out) > 0 {
			// A clear-context restart: the session's start options, a session
			// id the adapter makes up, the chosen mode.
			s := out[len(out)-1].start
			s.Resume, s.ForkSession, s.PermissionMode = "", false, clearMode
			s.SessionID = argValue(spawn.Argv, "--session-id=")
			if agent != "default" {
				s.Agent = agent // the fresh context runs as the agent chosen
			}
			out = append(out, spawnCase{name: name, start: s, argv: spawn.Argv})
			continue
		}
		if id := argValue(spawn.Argv, "--session-id="); id != "" && n > len(reqs) && len(out) > 0 && out[len(out)-1].start.Resume == id {
			// Claude Code could not resume a session never prompted: the
			// restart starts it fresh under the same id.
			s := out[len(out)-1].start
			s.Resume, s.SessionID = "", id
			out = append(out, spawnCase{name: name, start: s, argv: spawn.Argv})
			continue
		}
		if n > len(reqs) && len(rt.updates) > 0 {
			// A provider update's restart of the one live session: its
			// start options under the update's routing, resuming it.
			s := providerRestart(t, out, argValue(spawn.Argv, "--resume="), rt.updates[0])
			s.PermissionMode = live[s.Resume]
			rt.updates = rt.updates[1:]
			out = append(out, spawnCase{name: name, start: s, argv: spawn.Argv})
			continue
		}
		if n > len(reqs) {
			t.Fatalf("%s: %s has no session request", path, l.Tag)
		}
		req := reqs[pickRequest(reqs, used, spawn.Argv)]
		bypass, settings := hostOptions(req.Params.Meta)
		settings = routedSettings(t, settings, req.route)
		s := SessionStart{AllowBypass: bypass, FormElicitation: form, MCPServers: req.Params.MCPServers, Settings: settings,
			AdditionalDirectories: req.Params.AdditionalDirectories, Meta: req.Params.Meta, PermissionMode: stored}
		switch req.Method {
		case "session/new":
			s.SessionID, s.PermissionMode = ids[string(req.ID)], fresh
		case "session/fork":
			s.Resume = ids[string(req.ID)]
		default:
			s.Resume = req.Params.SessionID
			s.PermissionMode = cmp.Or(req.liveMode, s.PermissionMode)
		}
		out = append(out, spawnCase{name: name, start: s, argv: spawn.Argv})
	}
	return out
}

// routing follows a golden's model routing: the gateway login, the
// provider the client set, and the updates that restarted the sessions,
// each taking effect when the agent answered it.
type routing struct {
	gateway, override *providers.Config
	pending           map[string]func() // request id -> what its success does
	updates           []*providers.Config
}

func (r *routing) resolved() *providers.Config { return cmp.Or(r.override, r.gateway) }

// request notes a routing request of the client lane; it reports whether
// line was one.
func (r *routing) request(tag, method string, id json.RawMessage, line []byte) bool {
	if tag != "client editor->agent" {
		return false
	}
	var m struct{ Params json.RawMessage }
	_ = json.Unmarshal(line, &m)
	var apply func()
	switch method {
	case "providers/set":
		if cfg, err := providers.ParseSet(m.Params); err == nil {
			apply = func() { r.override = &cfg; r.updates = append(r.updates, r.resolved()) }
		}
	case "providers/disable":
		apply = func() { r.override = nil; r.updates = append(r.updates, r.resolved()) }
	case "authenticate", "auth/login":
		if cfg, ok, err := providers.Gateway(m.Params); ok && err == nil {
			apply = func() { r.gateway = cfg }
		}
	case "logout", "auth/logout":
		apply = func() {
			if r.resolved() != nil {
				r.updates = append(r.updates, nil)
			}
			r.override, r.gateway = nil, nil
		}
	default:
		return false
	}
	if apply != nil {
		if r.pending == nil {
			r.pending = map[string]func(){}
		}
		r.pending[string(id)] = apply
	}
	return true
}

// answer applies the routing request id answers, if it succeeded; it
// reports whether line answered one.
func (r *routing) answer(id json.RawMessage, line []byte) bool {
	apply, ok := r.pending[string(id)]
	if !ok {
		return false
	}
	delete(r.pending, string(id))
	var m struct{ Result json.RawMessage }
	if json.Unmarshal(line, &m) == nil && m.Result != nil {
		apply()
	}
	return true
}

// routedSettings lays route over a start's flag settings.
func routedSettings(t *testing.T, settings string, route *providers.Config) string {
	t.Helper()
	out, err := providers.Settings(settings, route)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// providerRestart is the start of session id's CLI restarted under cfg:
// the options it started with, resuming it, its settings routed.
func providerRestart(t *testing.T, out []spawnCase, id string, cfg *providers.Config) SessionStart {
	t.Helper()
	for _, c := range out {
		if c.start.SessionID != id && c.start.Resume != id {
			continue
		}
		s := c.start
		s.Resume, s.SessionID, s.ForkSession = id, "", false
		_, s.Settings = hostOptions(s.Meta)
		s.Settings = routedSettings(t, s.Settings, cfg)
		return s
	}
	t.Fatalf("a provider restart resumes %q, which no earlier start ran", id)
	return SessionStart{}
}

// hostOptions reads what the adapter takes from a session request's _meta
// before ReferenceOptions: whether the host leaves Bypass permissions
// (allowDangerouslySkipPermissions not false) and the flag settings
// object, compacted.
func hostOptions(meta json.RawMessage) (bypass bool, settings string) {
	var m struct {
		ClaudeCode struct {
			Options struct {
				Allow    *bool           `json:"allowDangerouslySkipPermissions"`
				Settings json.RawMessage `json:"settings"`
			} `json:"options"`
		} `json:"claudeCode"`
	}
	_ = json.Unmarshal(meta, &m)
	o := m.ClaudeCode.Options
	var b bytes.Buffer
	if len(o.Settings) > 0 && json.Compact(&b, o.Settings) == nil {
		settings = b.String()
	}
	return o.Allow == nil || *o.Allow, settings
}

// pickRequest is the session request a CLI spawn serves: the load or
// resume of the session it resumes, else the first one not served yet (a
// fork answered from the stored transcript starts no CLI, so spawns and
// requests do not pair in order).
func pickRequest(reqs []acpMessage, used map[int]bool, argv []string) int {
	pick := -1
	if r := argValue(argv, "--resume="); r != "" && !slices.Contains(argv, "--fork-session") {
		for i, q := range reqs {
			if !used[i] && q.Method != "session/new" && q.Method != "session/fork" && q.Params.SessionID == r {
				pick = i
				break
			}
		}
	}
	for i := range reqs {
		if pick < 0 && !used[i] {
			pick = i
		}
	}
	used[pick] = true
	return pick
}

// storedMode is the permission mode the stored transcript of a golden's
// scenario ends in (the last `permissionMode` of its rows, as the CLI
// records it), "default" when it records none.
func storedMode(t *testing.T, goldenPath string) string {
	t.Helper()
	name := filepath.Base(filepath.Dir(goldenPath))
	data, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(goldenPath))), "scenarios", name+".yaml"))
	if err != nil {
		t.Fatalf("the scenario of %s: %v", goldenPath, err)
	}
	mode := "default"
	for _, m := range permissionModeRE.FindAllStringSubmatch(string(data), -1) {
		mode = m[1]
	}
	return mode
}

// newMode is the mode a new session of a golden's scenario starts in: the
// one the settings files the scenario writes give (claudesettings), where
// the suite's own user settings give none.
func newMode(t *testing.T, goldenPath string) string {
	t.Helper()
	name := filepath.Base(filepath.Dir(goldenPath))
	sc, err := scenario.Load(filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(goldenPath))), "scenarios", name+".yaml"))
	if err != nil {
		t.Fatalf("the scenario of %s: %v", goldenPath, err)
	}
	config, cwd := t.TempDir(), t.TempDir()
	write := func(dir, f, text string) {
		path := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".claude/settings.json", ".claude/settings.local.json"} {
		if text, ok := sc.Files[f]; ok {
			write(cwd, f, text)
		}
	}
	if text, ok := sc.ConfigFiles["settings.json"]; ok {
		write(config, "settings.json", text)
	}
	mode, _ := claudesettings.Read(config, cwd).StartMode("", "", true)
	return mode
}

var permissionModeRE = regexp.MustCompile(`"?permissionMode"?:\s*"?(\w+)`)

// chosenAgent is the agent a session/set_config_option line chooses, or "".
func chosenAgent(method string, line json.RawMessage) string {
	var m struct {
		Params struct {
			ConfigID string `json:"configId"`
			Value    string `json:"value"`
		} `json:"params"`
	}
	if method != "session/set_config_option" || json.Unmarshal(line, &m) != nil || m.Params.ConfigID != "agent" {
		return ""
	}
	return m.Params.Value
}

// clearContextMode is the mode of an ExitPlanMode clear-context option the
// editor picked in line, or "".
func clearContextMode(line json.RawMessage) string {
	var m struct {
		Result struct {
			Outcome struct {
				OptionID string `json:"optionId"`
			} `json:"outcome"`
		} `json:"result"`
	}
	_ = json.Unmarshal(line, &m)
	modes := map[string]string{"exit-plan-clear-auto": "auto", "exit-plan-clear-bypass": "bypassPermissions",
		"exit-plan-clear-accept-edits": "acceptEdits"}
	return modes[m.Result.Outcome.OptionID]
}

// argValue is the value of the first argument of argv with prefix.
func argValue(argv []string, prefix string) string {
	for _, a := range argv {
		if v, ok := strings.CutPrefix(a, prefix); ok {
			return v
		}
	}
	return ""
}

// TestArgsReproduceGoldenSpawns checks every stream-json spawn line of
// every golden: ReferenceOptions then Args give its argv exactly.
func TestArgsReproduceGoldenSpawns(t *testing.T) {
	distinct := map[string]bool{}
	n := 0
	for _, path := range goldentest.Files(t) {
		for _, c := range spawnCases(t, path) {
			n++
			o, err := ReferenceOptions(c.start)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			got := append([]string{"<cli>"}, Args(o)...)
			if !slices.Equal(got, c.argv) {
				t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.argv)
			}
			distinct[strings.Join(c.argv, "\x00")] = true
		}
	}
	if n == 0 || len(distinct) < 5 {
		t.Fatalf("checked %d spawns, %d distinct argv; the goldens hold more", n, len(distinct))
	}
	t.Logf("%d spawn lines, %d distinct argv", n, len(distinct))
}

func ptr[T any](v T) *T { return &v }

// TestArgsOptions covers the flags no golden shows, in the SDK's order and
// forms (claude-cli-protocol.md §1.2).
func TestArgsOptions(t *testing.T) {
	empty := ""
	tests := []struct {
		name string
		opts SpawnOptions
		want []string
	}{
		{"fork with session id", SpawnOptions{Resume: "a", ForkSession: true, SessionID: "b"},
			[]string{"--resume=a", "--fork-session", "--session-id=b"}},
		{"model and thinking", SpawnOptions{Thinking: &Thinking{Type: "enabled", BudgetTokens: 4000, Display: "summarized"}, Effort: "high", Model: "sonnet", FallbackModel: "haiku"},
			[]string{"--max-thinking-tokens=4000", "--thinking-display=summarized", "--effort=high", "--model=sonnet", "--fallback-model=haiku"}},
		{"thinking disabled drops display", SpawnOptions{Thinking: &Thinking{Type: "disabled", Display: "x"}}, []string{"--thinking=disabled"}},
		{"add-dir repeated", SpawnOptions{AdditionalDirectories: []string{"/a", "/b"}}, []string{"--add-dir=/a", "--add-dir=/b"}},
		{"tools", SpawnOptions{AllowedTools: []string{"Read", "Bash(ls)"}, DisallowedTools: []string{"AskUserQuestion"}, Tools: &Tools{Names: []string{"Read"}}},
			[]string{"--allowedTools=Read,Bash(ls)", "--disallowedTools=AskUserQuestion", "--tools=Read"}},
		{"no tools", SpawnOptions{Tools: &Tools{Names: []string{}}}, []string{"--tools="}},
		{"budget", SpawnOptions{MaxBudgetUSD: ptr(1e-7)}, []string{"--max-budget-usd=1e-7"}},
		{"settings after extra args", SpawnOptions{Settings: `{"a":1}`, ExtraArgs: []ExtraArg{{Name: "x", Value: nil}, {Name: "y", Value: &empty}, {Name: "z", Value: ptr("-v")}}},
			[]string{"--x", "--y", "", "--z=-v", "--settings", `{"a":1}`}},
		{"persistence off", SpawnOptions{NoSessionPersistence: true, ResumeSessionAt: "u"}, []string{"--resume-session-at=u", "--no-session-persistence"}},
	}
	base := len(Args(SpawnOptions{}))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Args(tt.opts)[base:]
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestReferenceMCPConfig: the editor's servers become --mcp-config after
// the user's own, in the reference's shapes.
func TestReferenceMCPConfig(t *testing.T) {
	editor := json.RawMessage(`[
		{"name":"fs","command":"/bin/fs","args":["-v"],"env":[{"name":"K","value":"1"}]},
		{"type":"http","name":"web","url":"https://x","headers":[{"name":"A","value":"b"}]},
		{"type":"sse","name":"ev","url":"https://y","headers":[]},
		{"type":"acp","name":"skipped","id":"1"},
		{"type":"stdio","name":"typed","command":"<home>/bin/t & co","args":["<a>"],"env":[]},
		{"name":"user","command":"/bin/u","args":[],"env":[]}
	]`)
	meta := json.RawMessage(`{"claudeCode":{"options":{"mcpServers":{"user":{"type":"stdio","command":"old"},"own":{"type":"stdio","command":"/bin/own"}}}}}`)
	o, err := ReferenceOptions(SessionStart{SessionID: "s", FormElicitation: true, MCPServers: editor, Meta: meta})
	if err != nil {
		t.Fatal(err)
	}
	args := Args(o)
	i := slices.Index(args, "--mcp-config")
	if i < 0 {
		t.Fatalf("no --mcp-config in %q", args)
	}
	want := `{"mcpServers":{"user":{"type":"stdio","command":"/bin/u","args":[],"env":{}},"own":{"type":"stdio","command":"/bin/own"},` +
		`"fs":{"type":"stdio","command":"/bin/fs","args":["-v"],"env":{"K":"1"}},"web":{"type":"http","url":"https://x","headers":{"A":"b"}},` +
		`"ev":{"type":"sse","url":"https://y","headers":{}},"typed":{"type":"stdio","command":"<home>/bin/t & co","args":["<a>"],"env":{}}}}`
	if args[i+1] != want {
		t.Errorf("--mcp-config\n got %s\nwant %s", args[i+1], want)
	}
	if slices.Contains(args, "--disallowedTools=AskUserQuestion") {
		t.Error("AskUserQuestion disallowed for a client with form elicitation")
	}
}

// TestReferenceWithoutFormElicitation: AskUserQuestion is disallowed after
// the user's own disallowed tools, and the user's extra args come before
// replay-user-messages.
func TestReferenceWithoutFormElicitation(t *testing.T) {
	meta := json.RawMessage(`{"claudeCode":{"options":{"disallowedTools":["WebSearch"],"extraArgs":{"debug-to-stderr":null},"additionalDirectories":["/u"]}}}`)
	o, err := ReferenceOptions(SessionStart{SessionID: "s", Meta: meta, AdditionalDirectories: []string{"/acp"}})
	if err != nil {
		t.Fatal(err)
	}
	args := Args(o)
	for _, want := range [][]string{{"--disallowedTools=WebSearch,AskUserQuestion"}, {"--add-dir=/u", "--add-dir=/acp"},
		{"--session-id=s", "--debug-to-stderr", "--replay-user-messages", ""}} {
		if !containsRun(args, want) {
			t.Errorf("%q not in %q", want, args)
		}
	}
}

func containsRun(s, run []string) bool {
	for i := 0; i+len(run) <= len(s); i++ {
		if slices.Equal(s[i:i+len(run)], run) {
			return true
		}
	}
	return false
}
