package agentinfo

import (
	"encoding/json"
	"github.com/airwire/airwire/conform/goldentest"
	"slices"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
)

// The goldens' launcher, as the conformance normalizer writes it.
var goldenLauncher = Launcher{Command: "<agent-argv-0>", Args: []string{"<agent-argv-1>"}}

// TestInitializeMatchesGoldens runs every plain and zed golden's
// initialize request through Initialize and compares with the recorded
// result, but for agentInfo.name, which is ours on purpose, and the
// `subagents` session capability, which the reference gives AIR only and
// ours every client (DEVIATIONS.md entries 7 and 21).
func TestInitializeMatchesGoldens(t *testing.T) {
	for _, profile := range []string{"plain", "zed"} {
		for name, path := range goldentest.Profile(t, profile, false) {
			t.Run(profile+"/"+name, func(t *testing.T) {
				lines := goldentest.Read(t, path)
				req, resp := initializePair(t, lines)
				got := Initialize(caps.Parse(req), Options{Version: "<agent-version>", Launcher: goldenLauncher})
				want := withSubagents(t, withOurName(t, resp))
				if goldentest.Canon(t, got) != goldentest.Canon(t, want) {
					t.Errorf("initialize result\n got %s\nwant %s", goldentest.Canon(t, got), goldentest.Canon(t, want))
				}
			})
		}
	}
}

// initializePair returns the clientCapabilities of the golden's initialize
// request and the result of its response.
func initializePair(t *testing.T, lines []goldentest.Line) (json.RawMessage, json.RawMessage) {
	t.Helper()
	var caps json.RawMessage
	for _, l := range lines {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ClientCapabilities json.RawMessage `json:"clientCapabilities"`
			} `json:"params"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(l.Msg, &m) != nil {
			continue
		}
		if l.Tag == "client editor->agent" && m.Method == "initialize" {
			caps = m.Params.ClientCapabilities
		}
		if l.Tag == "client agent->editor" && caps != nil && string(m.ID) == "0" && m.Result != nil {
			return caps, m.Result
		}
	}
	t.Fatal("no initialize exchange")
	return nil, nil
}

func withOurName(t *testing.T, result json.RawMessage) json.RawMessage {
	t.Helper()
	var r map[string]any
	if err := json.Unmarshal(result, &r); err != nil {
		t.Fatal(err)
	}
	info := r["agentInfo"].(map[string]any)
	if info["name"] != "@agentclientprotocol/claude-agent-acp" {
		t.Fatalf("golden agentInfo.name = %v", info["name"])
	}
	info["name"] = Name
	out, _ := json.Marshal(r)
	return out
}

func TestAuthMethods(t *testing.T) {
	l := Launcher{Command: "/bin/airwire", Args: []string{"agent"}}
	tests := []struct {
		name string
		caps string
		o    Options
		ids  []string
		meta bool
	}{
		{"plain", `{}`, Options{}, nil, false},
		{"auth.terminal only", `{"auth":{"terminal":true}}`, Options{}, []string{"claude-ai-login", "console-login"}, false},
		{"zed", `{"_meta":{"terminal-auth":true}}`, Options{}, []string{"claude-ai-login", "console-login"}, true},
		{"hidden subscription", `{"auth":{"terminal":true}}`, Options{HideClaudeAuth: true}, []string{"console-login"}, false},
		{"remote", `{"_meta":{"terminal-auth":true}}`, Options{Remote: true}, []string{"claude-login"}, true},
		{"remote hidden", `{"auth":{"terminal":true}}`, Options{Remote: true, HideClaudeAuth: true}, nil, false},
		{"gateway", `{"auth":{"_meta":{"gateway":true}}}`, Options{}, []string{"gateway", "gateway-bedrock"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.Launcher = l
			raw, _ := json.Marshal(AuthMethods(caps.Parse(json.RawMessage(tt.caps)), tt.o))
			var got []struct {
				ID   string         `json:"id"`
				Args []string       `json:"args"`
				Meta map[string]any `json:"_meta"`
			}
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.ids) {
				t.Fatalf("methods %s, want ids %v", raw, tt.ids)
			}
			for i, m := range got {
				if m.ID != tt.ids[i] {
					t.Errorf("method %d = %s, want %s", i, m.ID, tt.ids[i])
				}
				_, has := m.Meta["terminal-auth"]
				if has != tt.meta {
					t.Errorf("%s terminal-auth present=%v, want %v", m.ID, has, tt.meta)
				}
			}
		})
	}
}

func TestLauncherKeepsFlags(t *testing.T) {
	l := LauncherFromArgv("/usr/bin/airwire", []string{"airwire", "agent", "--claude-path", "/x/claude"}, "")
	raw, _ := json.Marshal(claudeLogin.method(caps.Client{TerminalAuth: true}, l).Meta)
	want := `{"terminal-auth":{"args":["agent","--claude-path","/x/claude","--cli","auth","login","--claudeai"],"command":"/usr/bin/airwire","label":"Claude Login"}}`
	if string(raw) != want {
		t.Errorf("got %s\nwant %s", raw, want)
	}
}

// The terminal a login runs in may start elsewhere: a relative
// --claude-path is passed on as the agent resolved it, in either spelling.
func TestLauncherResolvedClaudePath(t *testing.T) {
	tests := []struct {
		argv     []string
		resolved string
		want     []string
	}{
		{[]string{"airwire", "agent", "--claude-path", "./claude"}, "/start/claude",
			[]string{"agent", "--claude-path", "/start/claude"}},
		{[]string{"airwire", "agent", `--claude-path=bin\claude.exe`, "--log", "x"}, `C:\a b\bin\claude.exe`,
			[]string{"agent", `--claude-path=C:\a b\bin\claude.exe`, "--log", "x"}},
		{[]string{"airwire", "agent", "--log", "x"}, "",
			[]string{"agent", "--log", "x"}},
	}
	for _, tt := range tests {
		l := LauncherFromArgv("/usr/bin/airwire", tt.argv, tt.resolved)
		if !slices.Equal(l.Args, tt.want) {
			t.Errorf("LauncherFromArgv(%q, %q).Args = %q, want %q", tt.argv, tt.resolved, l.Args, tt.want)
		}
	}
}

func TestIsRemote(t *testing.T) {
	env := map[string]string{"SSH_TTY": "/dev/pts/1"}
	if !IsRemote(func(k string) string { return env[k] }) {
		t.Error("SSH_TTY set: want remote")
	}
	if IsRemote(func(string) string { return "" }) {
		t.Error("empty env: want local")
	}
}

// withSubagents adds the `subagents` session capability that the
// reference gives AIR only to a plain or Zed golden's initialize result.
func withSubagents(t *testing.T, result json.RawMessage) json.RawMessage {
	t.Helper()
	var r map[string]any
	if err := json.Unmarshal(result, &r); err != nil {
		t.Fatal(err)
	}
	sc := r["agentCapabilities"].(map[string]any)["sessionCapabilities"].(map[string]any)
	if _, ok := sc["subagents"]; ok {
		t.Fatal("the golden's session capabilities already hold subagents")
	}
	sc["subagents"] = map[string]any{}
	out, _ := json.Marshal(r)
	return out
}
