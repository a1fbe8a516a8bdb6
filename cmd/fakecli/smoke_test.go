package fakecli_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airwire/airwire/conform/scenario"
)

var (
	smokeRun      = flag.Bool("smoke", false, "run TestScenariosSmoke (every scenario against the reference, no goldens)")
	smokeProfiles = flag.String("smoke.profiles", "air", "comma-separated profiles TestScenariosSmoke runs (plain,zed,air)")
)

// TestScenariosSmoke plays every scenarios/*.yaml file against the reference
// adapter with the fake CLI and checks only that the run completes: every
// request is answered (with the error a step expects), every prompt gets a
// stopReason, every waitFor is met. It is not the conformance suite (no
// normalization, no goldens); it proves the scenario files and the fake CLI
// drive the reference adapter end to end. The conformance suite
// (scenarios/) plays the same files with goldens in make test, so this
// debugging aid is opt-in: go test ./cmd/fakecli -run Smoke -args -smoke.
func TestScenariosSmoke(t *testing.T) {
	if !*smokeRun || testing.Short() {
		t.Skip("the scenario smoke run is opt-in (-args -smoke); the conformance suite covers the scenarios")
	}
	deps(t)
	scs, err := scenario.LoadDir(filepath.Join(repoRoot(t), "scenarios"))
	if err != nil {
		t.Fatal(err)
	}
	if len(scs) == 0 {
		t.Fatal("no scenarios")
	}
	for _, sc := range scs {
		for _, p := range sc.RunProfiles() {
			if !strings.Contains(","+*smokeProfiles+",", ","+string(p)+",") {
				continue
			}
			t.Run(sc.Name+"/"+string(p), func(t *testing.T) { runSmoke(t, sc, p) })
		}
	}
}

type smokeRunner struct {
	t       *testing.T
	sc      *scenario.Scenario
	c       *acpClient
	mu      sync.Mutex
	vars    map[string]string
	cwd     string
	perm    int
	elicit  int
	pending []<-chan map[string]any
	names   []string
	stops   []string
}

func (r *smokeRunner) checkStop(step int, res map[string]any, want string) {
	r.t.Helper()
	if want != "" && res != nil && res["stopReason"] != want {
		r.t.Errorf("step %d: stopReason = %v, want %s", step, res["stopReason"], want)
	}
}

func (r *smokeRunner) expand(v any) any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return scenario.Expand(v, r.vars)
}

func (r *smokeRunner) answer(method string, params map[string]any) (any, *rpcError) {
	a := &r.sc.Client.Answers
	switch method {
	case "session/request_permission":
		r.mu.Lock()
		i := r.perm
		r.perm++
		r.mu.Unlock()
		var ans scenario.PermissionAnswer
		if n := len(a.Permission); n > 0 {
			ans = a.Permission[min(i, n-1)]
		} else {
			ans.Kind = scenario.KindAllowOnce
		}
		if ans.CancelTurn {
			r.c.send(map[string]any{"jsonrpc": "2.0", "method": "session/cancel", "params": map[string]any{"sessionId": params["sessionId"]}})
		}
		if ans.Cancelled || ans.CancelTurn {
			return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}, nil
		}
		opts, _ := params["options"].([]any)
		pick := ""
		for _, o := range opts {
			om := o.(map[string]any)
			if (ans.OptionID != "" && om["optionId"] == ans.OptionID) || (ans.Kind != "" && om["kind"] == ans.Kind) {
				pick = om["optionId"].(string)
				break
			}
		}
		if pick == "" && ans.Kind != "" {
			prefix, _, _ := strings.Cut(ans.Kind, "_")
			for _, o := range opts {
				if k, _ := o.(map[string]any)["kind"].(string); strings.HasPrefix(k, prefix) {
					pick = o.(map[string]any)["optionId"].(string)
					break
				}
			}
		}
		if pick == "" {
			if ans.OptionID != "" {
				r.t.Errorf("permission option %q not offered: %v", ans.OptionID, opts)
			}
			if len(opts) > 0 {
				pick = opts[0].(map[string]any)["optionId"].(string)
			}
		}
		return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": pick}}, nil
	case "elicitation/create":
		r.mu.Lock()
		i := r.elicit
		r.elicit++
		r.mu.Unlock()
		ans := scenario.ElicitationAnswer{Action: "accept"}
		if n := len(a.Elicitation); n > 0 {
			ans = a.Elicitation[min(i, n-1)]
		}
		if ans.Action != "accept" {
			return map[string]any{"action": ans.Action}, nil
		}
		content := ans.Content
		if content == nil {
			content = firstChoices(params)
		}
		return map[string]any{"action": "accept", "content": content}, nil
	case "fs/read_text_file":
		p, _ := params["path"].(string)
		rel, _ := filepath.Rel(r.cwd, p)
		if s, ok := a.FS.Read[filepath.ToSlash(rel)]; ok {
			return map[string]any{"content": s}, nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, &rpcError{Code: -32002, Message: "Resource not found"}
		}
		return map[string]any{"content": string(b)}, nil
	case "fs/write_text_file":
		if a.FS.WriteError != 0 {
			return nil, &rpcError{Code: a.FS.WriteError, Message: "write refused"}
		}
		p, _ := params["path"].(string)
		c, _ := params["content"].(string)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(c), 0o644)
		return map[string]any{}, nil
	case "terminal/create":
		return map[string]any{"terminalId": "term_1"}, nil
	case "terminal/output":
		return map[string]any{"output": a.Terminal.Output, "truncated": a.Terminal.Truncated, "exitStatus": map[string]any{"exitCode": a.Terminal.ExitCode}}, nil
	case "terminal/wait_for_exit":
		return map[string]any{"exitCode": a.Terminal.ExitCode}, nil
	case "terminal/kill", "terminal/release":
		return map[string]any{}, nil
	}
	return nil, &rpcError{Code: -32601, Message: "Method not found: " + method}
}

// firstChoices accepts a form with the first enum or oneOf const of each
// property.
func firstChoices(params map[string]any) map[string]any {
	out := map[string]any{}
	schema, _ := params["requestedSchema"].(map[string]any)
	props, _ := schema["properties"].(map[string]any)
	for k, v := range props {
		pm, _ := v.(map[string]any)
		if e, ok := pm["enum"].([]any); ok && len(e) > 0 {
			out[k] = e[0]
		} else if o, ok := pm["oneOf"].([]any); ok && len(o) > 0 {
			out[k] = o[0].(map[string]any)["const"]
		} else if items, ok := pm["items"].(map[string]any); ok {
			if e, ok := items["enum"].([]any); ok && len(e) > 0 {
				out[k] = []any{e[0]}
			} else if o, ok := items["anyOf"].([]any); ok && len(o) > 0 {
				out[k] = []any{o[0].(map[string]any)["const"]}
			}
		}
	}
	return out
}

func (r *smokeRunner) wait(method string, ch <-chan map[string]any, expectErr int) map[string]any {
	r.t.Helper()
	select {
	case m := <-ch:
		if e, ok := m["error"].(map[string]any); ok {
			if expectErr == 0 || int(e["code"].(float64)) != expectErr {
				r.t.Errorf("%s: error %v (expected %d)", method, e, expectErr)
			}
			return nil
		}
		if expectErr != 0 {
			r.t.Errorf("%s: success %v, expected error %d", method, m["result"], expectErr)
		}
		res, _ := m["result"].(map[string]any)
		if method == "session/prompt" {
			if _, ok := res["stopReason"].(string); !ok {
				r.t.Errorf("session/prompt result without stopReason: %v", res)
			}
		}
		return res
	case <-r.c.done:
		r.t.Fatalf("%s: adapter exited", method)
	case <-time.After(30 * time.Second):
		r.t.Fatalf("%s: no response within 30s", method)
	}
	return nil
}

func runSmoke(t *testing.T, sc *scenario.Scenario, p scenario.Profile) {
	r := &smokeRunner{t: t, sc: sc}
	c, cwd, _ := startAdapter(t, sc, r.answer)
	r.c, r.cwd = c, cwd
	if dir := os.Getenv("AIRWIRE_SMOKE_DUMP"); dir != "" {
		// Debug aid: keep what the adapter sent, one JSON message per line.
		t.Cleanup(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			var b strings.Builder
			all := append(append(append([]map[string]any{}, c.reqs...), c.resps...), c.notes...)
			for _, m := range all {
				line, _ := json.Marshal(m)
				b.Write(append(line, '\n'))
			}
			os.MkdirAll(dir, 0o755)
			os.WriteFile(filepath.Join(dir, sc.Name+"."+string(p)+".jsonl"), []byte(b.String()), 0o644)
		})
	}
	r.vars = map[string]string{"cwd": cwd, "home": filepath.Join(filepath.Dir(cwd), "home")}
	caps, err := scenario.ClientCapabilities(p, sc.Capabilities)
	if err != nil {
		t.Fatal(err)
	}
	r.wait("initialize", c.callAsync("initialize", map[string]any{"protocolVersion": 1,
		"clientCapabilities": caps,
		"clientInfo":         map[string]any{"name": "airwire-smoke", "version": "0.0.0"}}), 0)

	s := sc.Client.Session
	mcp := s.MCPServers
	if mcp == nil {
		mcp = []any{}
	}
	params := map[string]any{"cwd": cwd, "mcpServers": mcp}
	if s.Meta != nil {
		params["_meta"] = r.expand(s.Meta)
	}
	if len(s.AdditionalDirectories) > 0 {
		var dirs []any
		for _, d := range s.AdditionalDirectories {
			dirs = append(dirs, filepath.Join(cwd, d))
		}
		params["additionalDirectories"] = dirs
	}
	switch sc.OpenMethod() {
	case scenario.SessionNew:
		res := r.wait("session/new", c.callAsync("session/new", params), 0)
		r.vars["sessionId"], _ = res["sessionId"].(string)
	case scenario.SessionLoad, scenario.SessionResume:
		params["sessionId"] = sc.Transcript.SessionID
		method := "session/" + sc.OpenMethod()
		r.wait(method, c.callAsync(method, params), 0)
		r.vars["sessionId"] = sc.Transcript.SessionID
	}

	for i, st := range sc.Client.Steps {
		switch {
		case st.Prompt != nil:
			pp := map[string]any{"sessionId": r.vars["sessionId"], "prompt": r.expand(st.Prompt.Content())}
			if st.Prompt.SessionID != "" {
				pp["sessionId"] = r.expand(st.Prompt.SessionID)
			}
			if st.Prompt.Meta != nil {
				pp["_meta"] = r.expand(st.Prompt.Meta)
			}
			ch := c.callAsync("session/prompt", pp)
			if st.Prompt.Async {
				r.pending = append(r.pending, ch)
				r.names = append(r.names, fmt.Sprintf("step %d session/prompt", i))
				r.stops = append(r.stops, st.Prompt.StopReason)
				continue
			}
			res := r.wait(fmt.Sprintf("step %d session/prompt", i), ch, st.Prompt.ExpectError)
			r.checkStop(i, res, st.Prompt.StopReason)
		case st.Request != nil:
			ch := c.callAsync(st.Request.Method, r.expand(st.Request.Params))
			if st.Request.Async {
				r.pending = append(r.pending, ch)
				r.names = append(r.names, fmt.Sprintf("step %d %s", i, st.Request.Method))
				r.stops = append(r.stops, "")
				continue
			}
			res := r.wait(fmt.Sprintf("step %d %s", i, st.Request.Method), ch, st.Request.ExpectError)
			if st.Request.Save != "" {
				r.mu.Lock()
				for k, v := range scenario.SavedVars(st.Request.Save, res) {
					r.vars[k] = v
				}
				r.mu.Unlock()
			}
		case st.Notify != nil:
			c.send(map[string]any{"jsonrpc": "2.0", "method": st.Notify.Method, "params": r.expand(st.Notify.Params)})
		case st.WaitFor != nil:
			r.waitFor(i, st.WaitFor)
		case st.AwaitAll:
			r.awaitAll()
		}
	}
	r.awaitAll()
}

func (r *smokeRunner) awaitAll() {
	r.t.Helper()
	for i, ch := range r.pending {
		res := r.wait(r.names[i], ch, 0)
		if r.stops[i] != "" {
			r.checkStop(i, res, r.stops[i])
		}
	}
	r.pending, r.names, r.stops = nil, nil, nil
}

func (r *smokeRunner) waitFor(step int, w *scenario.WaitFor) {
	r.t.Helper()
	want := max(w.Count, 1)
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		n := 0
		switch {
		case w.SessionUpdate != "":
			n = len(r.c.updates(w.SessionUpdate))
		case w.Request != "":
			n = len(r.c.requests(w.Request))
		case w.Notification != "":
			r.c.mu.Lock()
			for _, m := range r.c.notes {
				if m["method"] == w.Notification {
					n++
				}
			}
			r.c.mu.Unlock()
		}
		if n >= want {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.t.Fatalf("step %d: waitFor %+v not met within 15s", step, *w)
}
