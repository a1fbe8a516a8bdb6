package agentinfo

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/testroot"
)

// TestStatusUpdateMatchesGoldens maps each recorded `auth status --json`
// run of a cassette and compares with the golden's `_auth/status_update`
// params. The session account of the CLI's initialize response names the
// same login, so it must not cause a second push (each golden has one).
func TestStatusUpdateMatchesGoldens(t *testing.T) {
	for _, profile := range []string{"plain", "zed"} {
		for name, path := range goldentest.Profile(t, profile, true) {
			t.Run(profile+"/"+name, func(t *testing.T) {
				want := statusUpdates(t, goldentest.Read(t, path))
				c := goldentest.LoadCassette(t, path)
				helper := projectKeyHelper(t, name)
				var last *AuthStatus
				pushes := 0
				for _, run := range c.Runs {
					if !slices.Equal(run.Argv, ProbeArgs) {
						continue
					}
					s, ok := FromCLIStatus([]byte(run.Stdout), helper)
					if !ok {
						t.Fatalf("probe stdout not mapped: %s", run.Stdout)
					}
					for pushes < len(want) && gatewayLogin(want[pushes]) {
						// A gateway login's status comes from no probe: the
						// probe after its logout pushes against it.
						var g struct{ AuthStatus AuthStatus }
						_ = json.Unmarshal(want[pushes], &g)
						last = &g.AuthStatus
						pushes++
					}
					merged := Merge(last, s)
					if !Same(last, merged) {
						if pushes >= len(want) {
							t.Fatalf("push %d not in golden: %s", pushes+1, merged.Notification())
						}
						if goldentest.Canon(t, merged.Notification()) != goldentest.Canon(t, want[pushes]) {
							t.Errorf("push %d\n got %s\nwant %s", pushes+1, merged.Notification(), want[pushes])
						}
						pushes++
					}
					last = &merged
				}
				for _, p := range c.Processes {
					if routed(p.Argv) {
						continue // a provider's account is no login of the agent's
					}
					if acc := initAccount(p.Events); acc != nil {
						if s, ok := FromAccount(acc, helper); ok && !Same(last, Merge(last, s)) {
							t.Errorf("session account %s would push again", acc)
						}
					}
				}
				if pushes != len(want) {
					t.Errorf("%d pushes, golden has %d", pushes, len(want))
				}
			})
		}
	}
}

// projectKeyHelper is the apiKeyHelper of scenario name's project
// settings, which its session's CLI runs ("" for none).
func projectKeyHelper(t *testing.T, name string) string {
	t.Helper()
	sc, err := scenario.Load(filepath.Join(testroot.Root(t), "scenarios", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var settings struct {
		APIKeyHelper string `json:"apiKeyHelper"`
	}
	if text, ok := sc.Files[".claude/settings.json"]; ok {
		_ = json.Unmarshal([]byte(text), &settings) // a scenario's settings may be anything
	}
	return settings.APIKeyHelper
}

// routed reports whether a CLI was started under a model provider the
// client set: its flag settings clear the key helper and route the env.
func routed(argv []string) bool {
	i := slices.Index(argv, "--settings")
	if i < 0 || i+1 >= len(argv) {
		return false
	}
	var s struct {
		APIKeyHelper *string           `json:"apiKeyHelper"`
		Env          map[string]string `json:"env"`
	}
	if json.Unmarshal([]byte(argv[i+1]), &s) != nil || s.APIKeyHelper == nil {
		return false
	}
	_, ok := s.Env["CLAUDE_CODE_USE_BEDROCK"]
	return *s.APIKeyHelper == "" && ok
}

// gatewayLogin reports whether a status update names a gateway login.
func gatewayLogin(params json.RawMessage) bool {
	var g struct{ AuthStatus AuthStatus }
	return json.Unmarshal(params, &g) == nil && g.AuthStatus.Kind == KindGateway
}

func statusUpdates(t *testing.T, lines []goldentest.Line) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	for _, l := range lines {
		var m struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(l.Msg, &m) == nil && m.Method == StatusUpdateMethod {
			out = append(out, m.Params)
		}
	}
	return out
}

func initAccount(events []cassette.Event) json.RawMessage {
	for _, e := range events {
		var m struct {
			Type     string `json:"type"`
			Response struct {
				Response struct {
					Account json.RawMessage `json:"account"`
				} `json:"response"`
			} `json:"response"`
		}
		if e.Dir == "cli" && json.Unmarshal(e.Msg, &m) == nil && m.Type == "control_response" && m.Response.Response.Account != nil {
			return m.Response.Response.Account
		}
	}
	return nil
}

func TestFromCLIStatus(t *testing.T) {
	tests := []struct {
		name, stdout, helper, want string
	}{
		{"api key", `{"loggedIn":true,"apiProvider":"firstParty","apiKeySource":"ANTHROPIC_API_KEY"}`, "",
			`{"kind":"api_key","label":"Anthropic API key","detail":"ANTHROPIC_API_KEY"}`},
		{"unknown key source", `{"loggedIn":true,"apiKeySource":"other"}`, "", `{"kind":"api_key","label":"Anthropic API key"}`},
		{"logged out", `{"loggedIn":false,"apiProvider":"firstParty"}`, "", `{"kind":"none","label":"Not logged in"}`},
		{"bedrock while logged out", `{"loggedIn":false,"apiProvider":"bedrock"}`, "", `{"kind":"external","label":"AWS Bedrock"}`},
		{"unknown provider", `{"loggedIn":false,"apiProvider":"acme"}`, "", `{"kind":"external","label":"acme"}`},
		{"gateway provider", `{"loggedIn":true,"apiProvider":"gateway"}`, "", `{"kind":"gateway","label":"Custom model gateway"}`},
		{"air gateway helper", `{"loggedIn":true,"apiKeySource":"apiKeyHelper"}`, "air central proxy start --x", `{"kind":"gateway","label":"JetBrains Air Gateway"}`},
		{"other helper", `{"loggedIn":true,"apiKeySource":"apiKeyHelper"}`, "get-key", `{"kind":"api_key","label":"Anthropic API key","detail":"API key helper"}`},
		{"subscription", `{"loggedIn":true,"subscriptionType":"max","email":"a@b.c","orgName":"Org"}`, "",
			`{"kind":"account","label":"Claude Max","account":{"plan":"max","email":"a@b.c","organization":"Org"}}`},
		{"claude-named plan", `{"loggedIn":true,"subscriptionType":"claude pro"}`, "", `{"kind":"account","label":"Claude Pro","account":{"plan":"claude pro"}}`},
		{"key outranks subscription", `{"loggedIn":true,"subscriptionType":"max","apiKeySource":"env"}`, "", `{"kind":"api_key","label":"Anthropic API key","detail":"env"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := FromCLIStatus([]byte(tt.stdout), tt.helper)
			if !ok {
				t.Fatal("not mapped")
			}
			if goldentest.Canon(t, got) != goldentest.Canon(t, json.RawMessage(tt.want)) {
				t.Errorf("got %s, want %s", goldentest.Canon(t, got), tt.want)
			}
		})
	}
	for _, bad := range []string{``, `[]`, `{"loggedIn":"yes"}`, `{}`, `not json`} {
		if _, ok := FromCLIStatus([]byte(bad), ""); ok {
			t.Errorf("%q mapped, want not known", bad)
		}
	}
}

func TestFromAccountWithoutSignal(t *testing.T) {
	if _, ok := FromAccount(json.RawMessage(`{"apiProvider":"firstParty","tokenSource":"x"}`), ""); ok {
		t.Error("an account without identity signal must not map")
	}
}

func TestMergeKeepsRicherFields(t *testing.T) {
	prev := AuthStatus{Kind: KindAccount, Label: "Claude Max", Account: &Account{Plan: "max", Email: "a@b.c", Organization: "Org"}}
	next := AuthStatus{Kind: KindAccount, Label: "Claude Max", Account: &Account{Plan: "max", Email: "a@b.c"}}
	got := Merge(&prev, next)
	if got.Account.Organization != "Org" || !Same(&prev, got) {
		t.Errorf("merge lost the organization: %+v", got.Account)
	}
	other := AuthStatus{Kind: KindAccount, Label: "Claude Pro", Account: &Account{Plan: "pro", Email: "x@y.z"}}
	if got := Merge(&prev, other); got.Account.Organization != "" {
		t.Errorf("another login kept the old organization: %+v", got.Account)
	}
	if Same(nil, next) {
		t.Error("nothing pushed yet must never be the same")
	}
}
