package mockapi

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/internal/procgroup"
)

// These tests run the real Claude Code CLI (AIRWIRE_REFERENCE_CLI, installed
// by `make deps`) against a Server, as the conformance driver will.

// referenceCLI returns the real CLI or skips the test.
func referenceCLI(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	p, err := deps.Lookup(nil, wd)
	if err != nil {
		t.Fatal(err)
	}
	cli, err := p.RequireReferenceCLI()
	if errors.Is(err, deps.ErrMissing) {
		deps.Unavailable(t, "skipping the real-CLI test: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return cli
}

// cliRun is one real CLI process speaking stream-json on stdio.
type cliRun struct {
	t      *testing.T
	stdin  io.WriteCloser
	frames chan map[string]any
}

// startCLI starts the real CLI against baseURL in fresh HOME and config
// directories. The process group is killed when the test ends, whatever
// happens.
func startCLI(t *testing.T, baseURL string, env ...string) *cliRun {
	t.Helper()
	bin := referenceCLI(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	cmd := exec.CommandContext(ctx, bin, "--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
		"--permission-prompt-tool=stdio", "--include-partial-messages")
	cmd.Dir = t.TempDir()
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "CLAUDE_CONFIG_DIR=" + t.TempDir(), "IS_SANDBOX=1",
		"ANTHROPIC_BASE_URL=" + baseURL, "ANTHROPIC_API_KEY=sk-test", "DISABLE_TELEMETRY=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "CLAUDE_CODE_MAX_RETRIES=0",
	}
	cmd.Env = append(cmd.Env, env...) // a later KEY= wins

	var g *procgroup.Group
	cmd.Cancel = func() error { return g.Kill() }
	cmd.WaitDelay = 2 * time.Second
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if g, err = procgroup.Start(cmd); err != nil {
		cancel()
		t.Fatal(err)
	}
	r := &cliRun{t: t, stdin: stdin, frames: make(chan map[string]any, 256)}
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(r.frames)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				r.frames <- m
			}
		}
	})
	t.Cleanup(func() {
		_ = stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			_ = g.Kill()
			<-done
		}
		cancel()
		g.Release(0) // kills any grandchild left in the group
		wg.Wait()
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("CLI stderr:\n%s", stderr.String())
		}
	})
	return r
}

func (r *cliRun) send(v any) {
	r.t.Helper()
	data, _ := json.Marshal(v)
	if _, err := r.stdin.Write(append(data, '\n')); err != nil {
		r.t.Fatalf("writing to the CLI: %v", err)
	}
}

// waitFor reads frames until pred holds and returns that frame.
func (r *cliRun) waitFor(what string, pred func(map[string]any) bool) map[string]any {
	r.t.Helper()
	timeout := time.After(15 * time.Second)
	for {
		select {
		case m, ok := <-r.frames:
			if !ok {
				r.t.Fatalf("the CLI exited before %s", what)
			}
			if pred(m) {
				return m
			}
		case <-timeout:
			r.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// user sends one user prompt.
func (r *cliRun) user(text string) {
	r.send(map[string]any{"type": "user", "session_id": "", "parent_tool_use_id": nil,
		"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": text}}}})
}

// prompt initializes the CLI, sends one user prompt and returns the result
// frame of the turn.
func (r *cliRun) prompt(text string, initialize ...map[string]any) map[string]any {
	r.t.Helper()
	req := map[string]any{"subtype": "initialize", "hooks": map[string]any{}}
	for _, extra := range initialize {
		maps.Copy(req, extra)
	}
	r.send(map[string]any{"type": "control_request", "request_id": "init_1", "request": req})
	r.waitFor("the initialize response", func(m map[string]any) bool { return m["type"] == "control_response" })
	r.user(text)
	return r.waitFor("the result", func(m map[string]any) bool { return m["type"] == "result" })
}

func TestRealCLITextTurn(t *testing.T) {
	base, seen := startServer(t, `
turns:
  - when: {text: "Say hello"}
    reply:
      - thinking: "The user wants a greeting."
      - text: "Hello from the airwire mock API!"
`)
	res := startCLI(t, base).prompt("Say hello.")
	if res["is_error"] != false || res["result"] != "Hello from the airwire mock API!" {
		t.Errorf("result: %v", res)
	}
	main := 0
	for _, r := range seen() {
		if r.Kind == KindMain {
			main++
			if r.Turn != 0 || r.Status != 200 || !r.Stream {
				t.Errorf("main request: %+v", r)
			}
		}
	}
	if main != 1 {
		t.Errorf("got %d main requests, want 1: %+v", main, seen())
	}
}

func TestRealCLIAuthFailure(t *testing.T) {
	base, seen := startServer(t, `
turns:
  - when: {text: "Say hello"}
    errors: [{status: 401, message: "invalid x-api-key"}]
    repeatErrors: true
`)
	res := startCLI(t, base).prompt("Say hello.")
	// Claude Code 2.1.x: is_error, api_error_status 401, "Invalid API key · Fix external API key".
	if text, _ := res["result"].(string); res["is_error"] != true || res["api_error_status"] != float64(401) || !strings.Contains(text, "API key") {
		t.Errorf("result does not report an auth failure: %v", res)
	}
	got401 := false
	for _, r := range seen() {
		got401 = got401 || (r.Status == 401 && r.ErrorType == "authentication_error")
	}
	if !got401 {
		t.Errorf("the CLI never got the 401: %+v", seen())
	}
}

func TestRealCLISideRequests(t *testing.T) {
	base, seen := startServer(t, `
turns:
  - when: {text: "Say hello"}
    reply: [{text: "Hello!"}]
side:
  title: "Greeting the mock"
  suggestion: "Say goodbye"
`)
	r := startCLI(t, base)
	if res := r.prompt("Say hello.", map[string]any{"promptSuggestions": true}); res["result"] != "Hello!" {
		t.Fatalf("result: %v", res)
	}
	// Claude Code 2.1.x asks for a suggestion only from the second turn on.
	r.user("Say hello again.")
	sug := r.waitFor("the prompt suggestion", func(m map[string]any) bool { return m["type"] == "prompt_suggestion" })
	if sug["suggestion"] != "Say goodbye" {
		t.Errorf("prompt suggestion: %v", sug)
	}
	r.send(map[string]any{"type": "control_request", "request_id": "title_1",
		"request": map[string]any{"subtype": "generate_session_title", "description": "Say hello.", "persist": false}})
	resp := r.waitFor("the title", func(m map[string]any) bool { return m["type"] == "control_response" })
	if b, _ := json.Marshal(resp); !strings.Contains(string(b), `"title":"Greeting the mock"`) {
		t.Errorf("title response: %s", b)
	}
	kinds := map[Kind]int{}
	for _, q := range seen() {
		kinds[q.Kind]++
		if q.Status != 200 {
			t.Errorf("request answered %d: %+v", q.Status, q)
		}
	}
	if kinds[KindMain] != 2 || kinds[KindSuggestion] != 1 || kinds[KindTitle] != 1 {
		t.Errorf("request kinds: %v", kinds)
	}
}

func TestRealCLIToolTurnAndRetry(t *testing.T) {
	base, seen := startServer(t, `
turns:
  - when: {text: "Run echo"}
    errors: [{status: 529}]
    reply:
      - text: "I'll run it."
      - toolUse: {id: toolu_echo, name: Bash, input: {command: "echo mock-api-ran", description: "Say it"}}
  - when: {toolResult: toolu_echo}
    reply: [{text: "It printed the words."}]
`)
	r := startCLI(t, base, "CLAUDE_CODE_MAX_RETRIES=1")
	r.send(map[string]any{"type": "control_request", "request_id": "init_1", "request": map[string]any{"subtype": "initialize", "hooks": map[string]any{}}})
	r.waitFor("the initialize response", func(m map[string]any) bool { return m["type"] == "control_response" })
	r.user("Run echo please.")
	// echo may run without a permission request; answer one if it comes.
	ran := false
	res := r.waitFor("the result", func(m map[string]any) bool {
		if b, _ := json.Marshal(m); m["type"] == "user" && strings.Contains(string(b), "mock-api-ran") {
			ran = true // the tool result: Bash ran the input streamed as input_json_delta
		}
		if req, _ := m["request"].(map[string]any); m["type"] == "control_request" && req["subtype"] == "can_use_tool" {
			r.send(map[string]any{"type": "control_response", "response": map[string]any{"subtype": "success", "request_id": m["request_id"],
				"response": map[string]any{"behavior": "allow", "updatedInput": req["input"], "toolUseID": req["tool_use_id"]}}})
		}
		return m["type"] == "result"
	})
	if res["is_error"] != false || res["result"] != "It printed the words." || !ran {
		t.Errorf("result: %v; tool ran: %v", res, ran)
	}
	var got []string
	for _, q := range seen() {
		if q.Kind == KindMain {
			got = append(got, fmt.Sprintf("turn %d %d", q.Turn, q.Status))
		}
	}
	if want := []string{"turn 0 529", "turn 0 200", "turn 1 200"}; !slices.Equal(got, want) {
		t.Errorf("main requests: got %v, want %v", got, want)
	}
}
