package wirediff

import (
	"bytes"
	"strings"
	"testing"
)

const (
	spawnOld = `cli:1 spawn {"argv":["<cli>","--permission-mode=default"]}`
	spawnNew = `cli:1 spawn {"argv":["<cli>","--permission-mode=auto"]}`
	cliReq   = `cli:1 agent->cli {"request":{"subtype":"get_settings"},"request_id":"<req-2>","type":"control_request"}`
	cliUser  = `cli:1 agent->cli {"message":{"content":[{"text":"Hi","type":"text"}],"role":"user"},"type":"user"}`
)

// TestNoNilInOutput: a changed spawn, a missing CLI process, changed CLI
// messages and a response without an id are named by what they are, in
// every format; "<nil>" is printed nowhere.
func TestNoNilInOutput(t *testing.T) {
	old := run(t, initPlain, prompt, spawnOld, cliReq, cliUser, `cli:2 spawn {"argv":["auth","status"]}`, endTurn)
	new := run(t, initPlain, prompt, spawnNew, strings.Replace(cliReq, "get_settings", "get_context_usage", 1),
		strings.Replace(cliUser, `"Hi"`, `"Hello"`, 1),
		`client agent->editor {"error":{"code":-32700,"message":"Parse error"},"id":null,"jsonrpc":"2.0"}`, endTurn)
	r := Diff(old, new, nil)
	kinds := map[string]bool{}
	for _, f := range r.Findings {
		kinds[f.Kind] = true
	}
	for _, k := range []string{"spawn", "control_request get_context_usage", "user", "response (no id)"} {
		if !kinds[k] {
			t.Errorf("no finding of kind %q in %v", k, kinds)
		}
	}
	for _, format := range Formats {
		var out bytes.Buffer
		if err := WriteReport(&out, r, format); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out.String(), "<nil>") {
			t.Errorf("%s output prints <nil>:\n%s", format, out.String())
		}
		if format == FormatText && !strings.Contains(out.String(), `missing message spawn (cli:2 spawn): $.argv ["auth","status"]`) {
			t.Errorf("the missing spawn does not say its argv:\n%s", out.String())
		}
	}
}
