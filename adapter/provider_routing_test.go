package adapter

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// routeLine is what a started fake CLI records of its routing: the
// base URL and token of its environment, and its --settings.
func routeLine() string {
	settings := ""
	if i := slices.Index(os.Args, "--settings"); i >= 0 && i+1 < len(os.Args) {
		settings = os.Args[i+1]
	}
	return fmt.Sprintf("%s|%s|%s|%s", os.Getenv("ANTHROPIC_BASE_URL"), os.Getenv("ANTHROPIC_AUTH_TOKEN"),
		os.Getenv("ANTHROPIC_CUSTOM_HEADERS"), settings)
}

// routes starts an agent whose fake CLIs record their routing, and
// returns the file they record it in.
func routes(t *testing.T, mode string) (*editor, func() []string) {
	t.Helper()
	file := t.TempDir() + "/routes"
	t.Setenv("ADAPTER_TEST_ROUTE_FILE", file)
	e := startAgent(t, mode)
	return e, func() []string {
		b, _ := os.ReadFile(file)
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}
}

// modelGateway serves an anthropic gateway's model listing on 127.0.0.1;
// status is the HTTP status its listing answers.
func modelGateway(t *testing.T, status *atomic.Int32) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" || r.Header.Get("x-team") != "airwire" {
			http.Error(w, "unexpected request", http.StatusBadRequest)
			return
		}
		w.WriteHeader(int(status.Load()))
		fmt.Fprint(w, `{"data":[{"id":"claude-sonnet-5-5"}],"has_more":false}`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// setVertex routes the agent to a Vertex gateway with request id, and
// returns the last config_option_update published before the answer.
func setVertex(e *editor, id int) (published string) {
	e.t.Helper()
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"providers/set","params":{"providerId":"main","apiType":"vertex","baseUrl":"https://v.example.com",`+
		`"_meta":{"claudeCode":{"vertex":{"projectId":"p","region":"r"}}}}}`, id))
	e.replyAfter(float64(id), func(m map[string]any) {
		if b, _ := json.Marshal(m["params"]); strings.Contains(string(b), "config_option_update") {
			published = string(b)
		}
	})
	return published
}

func errorOf(m map[string]any) (code float64, message string) {
	e, _ := m["error"].(map[string]any)
	code, _ = e["code"].(float64)
	message, _ = e["message"].(string)
	return code, message
}

// providers/set lists the gateway's models, restarts the live session's
// CLI routed to the gateway (environment and --settings), publishes its
// config options before it answers, and providers/list then shows the
// gateway; a failed listing is -32603 and leaves the routing as it was;
// providers/disable routes the session back to Claude Code's own.
func TestProviderSetRestartsTheSessionUnderTheGateway(t *testing.T) {
	var status atomic.Int32
	status.Store(200)
	srv := modelGateway(t, &status)
	e, started := routes(t, "plain")
	e.openSession()
	set := fmt.Sprintf(`"method":"providers/set","params":{"providerId":"main","apiType":"anthropic","baseUrl":%q,"headers":{"x-team":"airwire"}}`, srv.URL)
	e.send(`{"jsonrpc":"2.0","id":2,` + set + `}`)
	published := false
	r := e.replyAfter(2, func(m map[string]any) {
		published = published || strings.Contains(fmt.Sprint(m["params"]), "config_option_update")
	})
	if r["result"] == nil || !published {
		t.Fatalf("providers/set = %v (config options published before: %v)", r, published)
	}
	got := started()
	if len(got) != 2 {
		t.Fatalf("CLI starts = %q, want the session's and its restart", got)
	}
	want := srv.URL + "|acp-proxy|x-team: airwire|"
	if !strings.HasPrefix(got[1], want) || !strings.Contains(got[1], `"apiKeyHelper":""`) || strings.HasPrefix(got[0], want) {
		t.Errorf("routing of the starts = %q, want the restart's to begin %q with apiKeyHelper cleared", got, want)
	}
	e.send(`{"jsonrpc":"2.0","id":3,"method":"providers/list","params":{}}`)
	if r := e.reply(3); !strings.Contains(fmt.Sprint(r["result"]), srv.URL) {
		t.Errorf("providers/list after set = %v", r)
	}

	status.Store(502)
	e.send(`{"jsonrpc":"2.0","id":4,` + strings.Replace(set, `"main"`, `"main","_meta":{}`, 1) + `}`)
	e.send(`{"jsonrpc":"2.0","id":5,` + strings.Replace(set, `"headers":{"x-team":"airwire"}`, `"headers":{"x-team":"airwire","x-key":"secret-value"}`, 1) + `}`)
	e.reply(4) // the same gateway again: its listing is reused
	code, msg := errorOf(e.reply(5))
	if code != -32603 || !strings.Contains(msg, `Model discovery for provider "main" failed: Model listing GET /v1/models returned 502`) || strings.Contains(msg, "secret-value") {
		t.Errorf("a failed listing = %v %q", code, msg)
	}
	if n := len(started()); n != 3 {
		t.Errorf("CLI starts = %d, want 3: a reused listing restarts, a failed one does not", n)
	}

	e.send(`{"jsonrpc":"2.0","id":6,"method":"providers/disable","params":{"providerId":"main"}}`)
	e.reply(6)
	if got := started(); len(got) != 4 || !strings.HasPrefix(got[3], "|") {
		t.Errorf("after disable the starts are %q, want a fourth on Claude Code's own routing", got)
	}
}

// A provider change waits for the turn under way: it is answered after
// the prompt, and the prompt's CLI is never replaced under it.
func TestProviderSetWaitsForTheTurn(t *testing.T) {
	e, started := routes(t, "interruptible")
	sid := e.openSession()
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"hi"}]}}`, sid))
	e.send(`{"jsonrpc":"2.0","id":3,"method":"providers/set","params":{"providerId":"main","apiType":"vertex","baseUrl":"https://vertex.example.com",` +
		`"_meta":{"claudeCode":{"vertex":{"projectId":"p","region":"r"}}}}}`)
	e.send(`{"jsonrpc":"2.0","id":4,"method":"providers/list","params":{}}`)
	if r := e.reply(4); !strings.Contains(fmt.Sprint(r["result"]), "anthropic") {
		t.Errorf("providers/list during the turn = %v, want the routing unchanged", r)
	}
	if n := len(started()); n != 1 {
		t.Errorf("%d CLI starts while the turn runs, want 1", n)
	}
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":5,"method":"session/cancel","params":{"sessionId":%q}}`, sid))
	var order []float64
	for len(order) < 2 {
		m := <-e.lines
		if id, ok := m["id"].(float64); ok && m["method"] == nil && (id == 2 || id == 3) {
			order = append(order, id)
		}
	}
	if order[0] != 2 {
		t.Errorf("answers in order %v, want the prompt's before providers/set's", order)
	}
	if n := len(started()); n != 2 {
		t.Errorf("%d CLI starts, want the restart after the turn", n)
	}
}

// providers/set refuses what it cannot route with -32602 and the
// reference's message; the routing stays.
func TestProviderSetRefusesBadParams(t *testing.T) {
	e := startAgent(t, "plain")
	e.openSession()
	for i, tc := range []struct{ params, msg string }{
		{`{"providerId":"x","apiType":"anthropic","baseUrl":"https://g"}`, `Unknown provider ID "x"; expected "main".`},
		{`{"providerId":"main","apiType":"openai","baseUrl":"https://g"}`, `Unsupported apiType "openai" for provider "main".`},
		{`{"providerId":"main","apiType":"bedrock","baseUrl":"file:///etc"}`, `baseUrl must be a non-empty absolute http(s) URL.`},
		{`{"providerId":"main","apiType":"vertex","baseUrl":"https://g"}`, "vertex apiType requires non-empty"},
	} {
		id := float64(10 + i)
		e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"method":"providers/set","params":%s}`, id, tc.params))
		if code, msg := errorOf(e.reply(id)); code != -32602 || !strings.Contains(msg, tc.msg) {
			t.Errorf("providers/set %s = %v %q, want -32602 %q", tc.params, code, msg, tc.msg)
		}
	}
}

// The gateway login routes later sessions through the gateway, reports
// the gateway as the login, refuses a payload it cannot use, and logout
// gives the routing back to Claude Code.
func TestGatewayAuthenticateThenLogout(t *testing.T) {
	e, started := routes(t, "plain")
	e.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"auth":{"_meta":{"gateway":true}}}}}`)
	e.reply(0)
	e.send(`{"jsonrpc":"2.0","id":1,"method":"authenticate","params":{"methodId":"gateway","_meta":{"gateway":{"baseUrl":"ftp://gw"}}}}`)
	if code, msg := errorOf(e.reply(1)); code != -32602 || !strings.Contains(msg, "`_meta.gateway.baseUrl` must be") {
		t.Errorf("a gateway payload without an http(s) URL = %v %q", code, msg)
	}
	e.send(`{"jsonrpc":"2.0","id":2,"method":"authenticate","params":{"methodId":"gateway-bedrock","_meta":{"gateway":{"baseUrl":"https://gw.example.com/bedrock","headers":{"x-team":"airwire"}}}}}`)
	var status string
	r := e.replyAfter(2, func(m map[string]any) {
		if m["method"] == "_auth/status_update" {
			b, _ := json.Marshal(m["params"])
			status = string(b)
		}
	})
	if r["result"] == nil || !strings.Contains(status, `"kind":"gateway"`) || !strings.Contains(status, `"detail":"gw.example.com"`) {
		t.Errorf("gateway login = %v, status %s", r, status)
	}
	e.send(`{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"` + t.TempDir() + `","mcpServers":[]}}`)
	e.reply(3)
	if got := started(); len(got) != 1 || !strings.Contains(got[0], `"CLAUDE_CODE_USE_BEDROCK":"1"`) || !strings.Contains(got[0], `https://gw.example.com/bedrock`) {
		t.Errorf("the session's CLI under the gateway login started with %q", got)
	}
	e.send(`{"jsonrpc":"2.0","id":4,"method":"providers/list","params":{}}`)
	if r := e.reply(4); !strings.Contains(fmt.Sprint(r["result"]), "bedrock") {
		t.Errorf("providers/list under the gateway = %v", r)
	}
	e.send(`{"jsonrpc":"2.0","id":5,"method":"logout","params":{}}`)
	e.reply(5)
	if got := started(); len(got) != 2 || strings.Contains(got[1], "gw.example.com") {
		t.Errorf("after logout the starts are %q, want a restart off the gateway", got)
	}
}

// A session's `_meta.claudeCode.options.env` reaches its CLI's
// environment, under the provider's routing, which wins.
func TestOptionsEnvReachesTheCLI(t *testing.T) {
	e, started := routes(t, "plain")
	e.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	e.reply(0)
	meta := `"_meta":{"claudeCode":{"options":{"env":{"ANTHROPIC_BASE_URL":"http://127.0.0.1:9","ANTHROPIC_CUSTOM_HEADERS":"x-a: 1","N":3,"O":{}}}}}`
	e.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + t.TempDir() + `","mcpServers":[],` + meta + `}}`)
	e.reply(1)
	setVertex(e, 2)
	got := started()
	if len(got) != 2 || !strings.HasPrefix(got[0], "http://127.0.0.1:9||x-a: 1|") || !strings.HasPrefix(got[1], "|||") {
		t.Errorf("routing of the starts = %q, want the options' env, then the provider's over it", got)
	}
	if n := optionsEnv(json.RawMessage(`{"claudeCode":{"options":{"env":{"B":"x","A":true,"C":null,"D":1.5}}}}`)); !slices.Equal(n, []string{"A=true", "B=x", "D=1.5"}) {
		t.Errorf("optionsEnv = %q", n)
	}
}

// A provider restart restores the session's choices: the restarted CLI
// runs the default effort, and the session's pinned effort is selected
// again before the config options are published.
func TestProviderRestartRestoresTheEffort(t *testing.T) {
	t.Setenv("ADAPTER_TEST_CLI_INIT", `{"models":[{"value":"default","displayName":"Default","description":"Opus",`+
		`"supportsEffort":true,"supportedEffortLevels":["low","medium","high"]}]}`)
	log := t.TempDir() + "/cli.log"
	t.Setenv("ADAPTER_TEST_CLI_LOG", log)
	e := startAgent(t, "plain")
	sid := e.openSession()
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"session/set_config_option","params":{"sessionId":%q,"configId":"effort","value":"high"}}`, sid))
	if r := e.reply(2); !strings.Contains(fmt.Sprint(r["result"]), "high") {
		t.Fatalf("set effort = %v", r)
	}
	published := setVertex(e, 3)
	if !strings.Contains(published, `"id":"effort"`) {
		t.Fatalf("no effort in the published options: %s", published)
	}
	var effort struct {
		Update struct {
			ConfigOptions []struct {
				ID           string `json:"id"`
				CurrentValue any    `json:"currentValue"`
			} `json:"configOptions"`
		} `json:"update"`
	}
	_ = json.Unmarshal([]byte(published), &effort)
	for _, o := range effort.Update.ConfigOptions {
		if o.ID == "effort" && o.CurrentValue != "high" {
			t.Errorf("effort after the restart = %v, want high restored", o.CurrentValue)
		}
	}
	b, _ := os.ReadFile(log)
	if n := strings.Count(string(b), "apply_flag_settings"); n != 2 {
		t.Errorf("the CLIs got %d effort changes, want the set and its restore:\n%s", n, b)
	}
}

// A session whose CLI cannot start again under the new routing is lost:
// providers/set still succeeds, a client with the AIR sessionFailure
// capability gets a session-scoped internal_error that says why, and a
// later prompt finds no such session.
func TestProviderRestartThatFailsLosesTheSession(t *testing.T) {
	var status atomic.Int32
	status.Store(404) // no listing: nothing is narrowed
	srv := modelGateway(t, &status)
	e, started := routes(t, "routed-exits")
	e.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"_meta":{"jetbrains":{"air":{"version":1,"capabilities":["sessionFailure"]}}}}}}`)
	e.reply(0)
	e.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + t.TempDir() + `","mcpServers":[]}}`)
	res, _ := e.reply(1)["result"].(map[string]any)
	sid, _ := res["sessionId"].(string)
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"providers/set","params":{"providerId":"main","apiType":"anthropic","baseUrl":%q,"headers":{"x-team":"airwire"}}}`, srv.URL))
	var failures []map[string]any
	r := e.replyAfter(2, func(m map[string]any) {
		b, _ := json.Marshal(m)
		if strings.Contains(string(b), `"sessionFailure"`) {
			failures = append(failures, m)
		}
	})
	if r["result"] == nil {
		t.Fatalf("providers/set = %v, want success: one lost session does not fail the switch", r)
	}
	if n := len(started()); n < 2 {
		t.Fatalf("%d CLI starts, want the session's and its failed restart", n)
	}
	if len(failures) != 1 {
		t.Fatalf("failure records %v, want one: the failed start's exit is no second incident", failures)
	}
	b, _ := json.Marshal(failures[0])
	for _, want := range []string{`"sessionId":"` + sid + `"`, `"id":"` + sid + `:session-error:`, `"category":"service"`,
		`"title":"Claude Agent encountered an internal error."`, `"details":"Internal error: the Claude CLI did not start: it exited with status 1: Error: the gateway refused the credentials"`,
		`"actions":["retry","new_session"]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("failure record %s lacks %s", b, want)
		}
	}
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"hi"}]}}`, sid))
	if code, msg := errorOf(e.reply(3)); code == 0 || !strings.Contains(msg, "not found") {
		t.Errorf("a prompt on the lost session = %v %q, want a session-not-found error", code, msg)
	}
}

// The agent picker offers the custom agents Claude Code lists (not its
// built-in subagents, not a custom agent named "default"); a choice
// switches the CLI's agent live, a provider restart chooses it again, and
// Default clears the flag.
func TestAgentPickerChoiceSurvivesAProviderRestart(t *testing.T) {
	t.Setenv("ADAPTER_TEST_CLI_INIT", `{"models":[{"value":"default","displayName":"Default","description":"Opus"}],`+
		`"agents":[{"name":"claude","description":"Catch-all"},{"name":"Explore","description":"Search"},`+
		`{"name":"reviewer","description":"Reviews a change"},{"name":"default","description":"Shadow"}]}`)
	log := t.TempDir() + "/cli.log"
	t.Setenv("ADAPTER_TEST_CLI_LOG", log)
	e := startAgent(t, "plain")
	sid := e.openSession()
	setAgent := func(id int, value string) map[string]any {
		e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/set_config_option","params":{"sessionId":%q,"configId":"agent","value":%q}}`, id, sid, value))
		return e.reply(float64(id))
	}
	r := setAgent(2, "reviewer")
	b, _ := json.Marshal(r["result"])
	want := `{"currentValue":"reviewer","description":"Main-thread agent persona","id":"agent","name":"Agent","options":[` +
		`{"description":"Standard Claude Code agent","name":"Default","value":"default"},` +
		`{"description":"Reviews a change","name":"reviewer","value":"reviewer"}],"type":"select"}`
	if !strings.Contains(string(b), want) {
		t.Fatalf("set agent = %s, want the picker %s", b, want)
	}
	if r := setAgent(3, "Explore"); r["error"] == nil {
		t.Errorf("a built-in subagent was accepted as the agent: %v", r)
	}
	published := setVertex(e, 4)
	if !strings.Contains(published, `"currentValue":"reviewer","description":"Main-thread agent persona"`) {
		t.Errorf("options after the restart: %s, want the agent reviewer", published)
	}
	setAgent(5, "default")
	got, _ := os.ReadFile(log)
	flags := regexp.MustCompile(`apply_flag_settings (.*)`).FindAllStringSubmatch(string(got), -1)
	var seen []string
	for _, f := range flags {
		seen = append(seen, f[1])
	}
	if want := []string{`{"agent":"reviewer"}`, `{"agent":"reviewer"}`, `{"agent":null}`}; !slices.Equal(seen, want) {
		t.Errorf("the CLIs got flag settings %q, want %q (the choice, its restore, Default)", seen, want)
	}
}

// A session started as a built-in subagent (options.agent "Explore"),
// which the picker cannot show, shows Default; once the client chooses
// Default, a provider restart, whose CLI starts as options.agent again,
// clears the agent again although the picker already shows Default.
func TestChosenDefaultAgentIsChosenAgainAfterARestart(t *testing.T) {
	t.Setenv("ADAPTER_TEST_CLI_INIT", `{"models":[{"value":"default","displayName":"Default","description":"Opus"}],`+
		`"agents":[{"name":"Explore","description":"Search"},{"name":"reviewer","description":"Reviews a change"}]}`)
	log := t.TempDir() + "/cli.log"
	t.Setenv("ADAPTER_TEST_CLI_LOG", log)
	e := startAgent(t, "plain")
	e.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	e.reply(0)
	e.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + t.TempDir() + `","mcpServers":[],"_meta":{"claudeCode":{"options":{"agent":"Explore"}}}}}`)
	res, _ := e.reply(1)["result"].(map[string]any)
	sid, _ := res["sessionId"].(string)
	if b, _ := json.Marshal(res["configOptions"]); !strings.Contains(string(b), `"currentValue":"default","description":"Main-thread agent persona"`) {
		t.Fatalf("configOptions of a session started as Explore: %s, want the picker on Default", b)
	}
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"session/set_config_option","params":{"sessionId":%q,"configId":"agent","value":"default"}}`, sid))
	e.reply(2)
	setVertex(e, 3)
	got, _ := os.ReadFile(log)
	if n := strings.Count(string(got), `apply_flag_settings {"agent":null}`); n != 2 {
		t.Errorf("the CLIs got the agent cleared %d times, want 2 (the choice and its restore):\n%s", n, got)
	}
}
