package adapter

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/goldentest"
)

// requestParams returns the params of the golden's editor requests of method.
func requestParams(t *testing.T, scenario, method string) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	for _, l := range goldentest.Tagged(t, scenario, "plain", "client editor->agent") {
		var m struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal([]byte(l), &m) == nil && m.Method == method {
			out = append(out, m.Params)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no %s request", scenario, method)
	}
	return out
}

// The goldens' session/new and session/load params: the reference reused
// the live session (one CLI) when they have one fingerprint, and started a
// second CLI when the load's options differ.
func TestSessionFingerprintMatchesTheGoldens(t *testing.T) {
	for _, c := range []struct {
		scenario, method string
		same             bool
	}{
		{"session-load-live", "session/load", true},
		{"session-resume-live", "session/resume", true},
		{"session-load-live-recreate", "session/load", false},
	} {
		created := sessionFingerprint(requestParams(t, c.scenario, "session/new")[0])
		opened := sessionFingerprint(requestParams(t, c.scenario, c.method)[0])
		if created == "" || (created == opened) != c.same {
			t.Errorf("%s: new %s, %s %s: same = %v, want %v", c.scenario, created, c.method, opened, created == opened, c.same)
		}
		// a session/new and a session/fork start a CLI each; a load or
		// resume with the same fingerprint starts none
		started := 0
		for _, m := range []string{"session/new", "session/fork"} {
			for _, l := range goldentest.Tagged(t, c.scenario, "plain", "client editor->agent") {
				if strings.Contains(l, `"method":"`+m+`"`) {
					started++
				}
			}
		}
		spawns := 0
		for n := 1; len(goldentest.Tagged(t, c.scenario, "plain", fmt.Sprintf("cli:%d spawn", n))) > 0; n++ {
			spawns++
		}
		if (spawns == started) != c.same {
			t.Errorf("%s: the golden has %d CLIs for %d new or forked sessions, same fingerprint %v", c.scenario, spawns, started, c.same)
		}
	}
}

func TestSessionFingerprint(t *testing.T) {
	base := `{"sessionId":"a","cwd":"/w","mcpServers":[{"name":"b","command":"x","args":[],"env":[]},{"name":"a","command":"y","args":[],"env":[]}],
		"_meta":{"claudeCode":{"options":{"skills":["s2","s1"],"model":"opus","resume":"r"}}}}`
	same := []string{
		// key order, server order, skills order and repeats, and what is not session-defining
		`{"cwd":"/w","sessionId":"other","mcpServers":[{"env":[],"args":[],"command":"y","name":"a"},{"name":"b","command":"x","args":[],"env":[]}],
		 "_meta":{"jetbrains":{"air":{"fork":{"version":1,"messageId":"m"}}},"claudeCode":{"options":{"model":"opus","skills":["s1","s2","s1"],"permissionMode":"plan","unknown":1}}}}`,
		// a null client system prompt is none
		strings.Replace(base, `"cwd"`, `"systemPrompt":null,"cwd"`, 1),
	}
	differ := []string{
		strings.Replace(base, `"/w"`, `"/v"`, 1),
		strings.Replace(base, `"name":"b","command":"x"`, `"name":"b","command":"z"`, 1),
		strings.Replace(base, `"opus"`, `"sonnet"`, 1),
		strings.Replace(base, `"cwd"`, `"additionalDirectories":[],"cwd"`, 1),
		strings.Replace(base, `"cwd"`, `"systemPrompt":"be brief","cwd"`, 1),
		strings.Replace(base, `"claudeCode":{`, `"disableBuiltInTools":true,"claudeCode":{`, 1),
		strings.Replace(base, `"claudeCode":{`, `"additionalRoots":["/r"],"claudeCode":{`, 1),
		strings.Replace(base, `"claudeCode":{`, `"systemPrompt":"p","claudeCode":{`, 1),
		strings.Replace(base, `"claudeCode":{`, `"claudeCode":{"emitRawSDKMessages":true,`, 1),
		strings.Replace(base, `"skills":["s2","s1"]`, `"skills":["s2"]`, 1),
	}
	want := sessionFingerprint(json.RawMessage(base))
	if want == "" {
		t.Fatal("no fingerprint")
	}
	for _, s := range same {
		if got := sessionFingerprint(json.RawMessage(s)); got != want {
			t.Errorf("%s\n  = %s\nwant %s", s, got, want)
		}
	}
	for _, s := range differ {
		if got := sessionFingerprint(json.RawMessage(s)); got == want {
			t.Errorf("%s: same fingerprint as the base", s)
		}
	}
	// absent and null MCP servers are none
	if a, b := sessionFingerprint(json.RawMessage(`{"cwd":"/w"}`)), sessionFingerprint(json.RawMessage(`{"cwd":"/w","mcpServers":null}`)); a != b || a != sessionFingerprint(json.RawMessage(`{"cwd":"/w","mcpServers":[]}`)) {
		t.Errorf("absent %s, null %s", a, b)
	}
}
