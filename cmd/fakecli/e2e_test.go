package fakecli_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/internal/procgroup"
	"github.com/airwire/airwire/internal/testroot"
)

// These tests run the reference adapter (node + claude-agent-acp from .deps)
// with CLAUDE_CODE_EXECUTABLE pointing at a wrapper that execs the freshly
// built `airwire fake-cli`, and drive it over ACP on stdio.

// TestMain removes the airwire binary the tests built (testroot.Binary).
func TestMain(m *testing.M) {
	os.Exit(testroot.RunTests(m))
}

func repoRoot(t *testing.T) string {
	t.Helper()
	return testroot.Root(t)
}

// referenceAdapter is the Node and reference adapter `make deps`
// installed; without them the test skips, or fails under CI.
func referenceAdapter(t *testing.T) (node, adapter string) {
	t.Helper()
	p, err := deps.Lookup(nil, repoRoot(t))
	if err == nil {
		if node, err = p.RequireNode(); err == nil {
			adapter, err = p.RequireReferenceAdapter()
		}
	}
	if err != nil {
		deps.Unavailable(t, "node and the reference adapter (make deps): %v", err)
	}
	return node, adapter
}

// acpClient is a minimal newline-delimited JSON-RPC client for the adapter's
// stdio, answering agent → client requests with answer.
type acpClient struct {
	t      *testing.T
	stdin  io.WriteCloser
	mu     sync.Mutex
	nextID int
	waits  map[int]chan map[string]any
	notes  []map[string]any
	reqs   []map[string]any
	resps  []map[string]any
	answer func(method string, params map[string]any) (any, *rpcError)
	done   chan struct{}
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (c *acpClient) readLoop(r io.Reader) {
	defer close(c.done)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			c.t.Logf("adapter stdout (not JSON): %s", sc.Text())
			continue
		}
		_, hasID := m["id"]
		method, _ := m["method"].(string)
		switch {
		case hasID && method != "":
			c.mu.Lock()
			c.reqs = append(c.reqs, m)
			c.mu.Unlock()
			params, _ := m["params"].(map[string]any)
			res, rerr := c.answer(method, params)
			resp := map[string]any{"jsonrpc": "2.0", "id": m["id"]}
			if rerr != nil {
				resp["error"] = rerr
			} else {
				resp["result"] = res
			}
			c.send(resp)
		case hasID:
			id := int(m["id"].(float64))
			c.mu.Lock()
			c.resps = append(c.resps, m)
			ch := c.waits[id]
			delete(c.waits, id)
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		default:
			c.mu.Lock()
			c.notes = append(c.notes, m)
			c.mu.Unlock()
		}
	}
}

func (c *acpClient) send(m map[string]any) {
	b, _ := json.Marshal(m)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.stdin.Write(append(b, '\n')); err != nil {
		c.t.Logf("write to adapter: %v", err)
	}
}

// callAsync sends a request; the channel gets its whole response message.
func (c *acpClient) callAsync(method string, params any) <-chan map[string]any {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan map[string]any, 1)
	c.waits[id] = ch
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return ch
}

// call sends a request and waits up to 30 s for its response.
func (c *acpClient) call(method string, params any) map[string]any {
	c.t.Helper()
	ch := c.callAsync(method, params)
	select {
	case m := <-ch:
		if e, ok := m["error"]; ok {
			c.t.Fatalf("%s failed: %v", method, e)
		}
		res, _ := m["result"].(map[string]any)
		return res
	case <-c.done:
		c.t.Fatalf("%s: adapter closed stdout before answering", method)
	case <-time.After(30 * time.Second):
		c.t.Fatalf("%s: no response within 30s", method)
	}
	return nil
}

func (c *acpClient) updates(kind string) []map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []map[string]any
	for _, n := range c.notes {
		if n["method"] != "session/update" {
			continue
		}
		p, _ := n["params"].(map[string]any)
		u, _ := p["update"].(map[string]any)
		if u["sessionUpdate"] == kind {
			out = append(out, u)
		}
	}
	return out
}

func (c *acpClient) requests(method string) []map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []map[string]any
	for _, r := range c.reqs {
		if r["method"] == method {
			out = append(out, r)
		}
	}
	return out
}

// startAdapter runs the reference adapter with the fake CLI playing script.
// It returns the client and the path of the fake CLI's log.
func startAdapter(t *testing.T, sc *scenario.Scenario, answer func(string, map[string]any) (any, *rpcError)) (*acpClient, string, string) {
	t.Helper()
	node, adapter := referenceAdapter(t)
	bin := testroot.Binary(t)
	tmp := t.TempDir()
	home := filepath.Join(tmp, "home")
	cwd := filepath.Join(tmp, "work")
	for _, d := range []string{home, cwd, filepath.Join(home, ".claude")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, content := range sc.Files {
		full := filepath.Join(cwd, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = real
	}
	if err := sc.WriteSessions(filepath.Join(home, ".claude"), cwd, map[string]string{"cwd": cwd, "home": home}); err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(tmp, "claude")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nexec \""+bin+"\" fake-cli \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(tmp, "cli.json")
	if err := scenario.WriteCLIScript(script, &sc.CLI); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(tmp, "fake-cli.log")

	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, node, adapter)
	cmd.Dir = cwd
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"),
		"IS_SANDBOX=1", "CLAUDE_CODE_EXECUTABLE=" + wrapper,
		"AIRWIRE_FAKE_CLI_SCRIPT=" + script, "AIRWIRE_FAKE_CLI_LOG=" + logPath,
	}
	if skip := os.Getenv("AIRWIRE_FAKE_CLI_SKIP_HOOKS"); skip != "" {
		// Mutation runs: pass the knob through to the fake.
		cmd.Env = append(cmd.Env, "AIRWIRE_FAKE_CLI_SKIP_HOOKS="+skip)
	}
	var g *procgroup.Group
	cmd.Cancel = func() error { return g.Kill() }
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if g, err = procgroup.Start(cmd); err != nil {
		t.Fatal(err)
	}
	c := &acpClient{t: t, stdin: stdin, waits: map[int]chan map[string]any{}, answer: answer, done: make(chan struct{})}
	go c.readLoop(stdout)
	t.Cleanup(func() {
		stdin.Close()
		waited := make(chan error, 1)
		go func() { waited <- cmd.Wait() }()
		select {
		case <-waited:
		case <-time.After(10 * time.Second):
			t.Errorf("adapter did not exit 10s after stdin EOF; killing its process group")
			cancel()
			<-waited
		}
		cancel()
		g.Release(0) // kills anything left in the group (the fake CLI children)
		if dir := os.Getenv("AIRWIRE_SMOKE_DUMP"); dir != "" {
			if b, err := os.ReadFile(logPath); err == nil {
				os.MkdirAll(dir, 0o755)
				os.WriteFile(filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".fakecli.jsonl"), b, 0o644)
			}
		}
		if t.Failed() {
			t.Logf("adapter stderr:\n%s", stderr.String())
			if b, err := os.ReadFile(logPath); err == nil {
				t.Logf("fake CLI log:\n%s", b)
			}
		}
	})
	return c, cwd, logPath
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func mustParse(t *testing.T, yml string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse("inline.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

var plainCaps = map[string]any{"fs": map[string]any{"readTextFile": true, "writeTextFile": true}, "terminal": true, "elicitation": map[string]any{"form": map[string]any{}}}

// openSession sends initialize and session/new and returns the session id.
func openSession(t *testing.T, c *acpClient, cwd string) string {
	t.Helper()
	init := c.call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": plainCaps,
		"clientInfo": map[string]any{"name": "airwire-e2e", "version": "0.0.0"}})
	if init["protocolVersion"] != float64(1) {
		t.Fatalf("initialize: protocolVersion = %v", init["protocolVersion"])
	}
	res := c.call("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}})
	sid, _ := res["sessionId"].(string)
	if sid == "" {
		t.Fatalf("session/new returned no sessionId: %v", res)
	}
	return sid
}

func chunkText(c *acpClient) string {
	var b strings.Builder
	for _, u := range c.updates("agent_message_chunk") {
		content, _ := u["content"].(map[string]any)
		s, _ := content["text"].(string)
		b.WriteString(s)
	}
	return b.String()
}

// logFrames returns the frames the fake CLI logged with kind ("in"/"out").
func logFrames(t *testing.T, path, kind string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil || rec["kind"] != kind {
			continue
		}
		if f, ok := rec["frame"].(map[string]any); ok {
			out = append(out, f)
		}
	}
	return out
}

func TestReferenceAdapterTextTurn(t *testing.T) {
	sc := mustParse(t, `
name: e2e-text
description: One text turn.
covers: [Tool call contract]
scripted: "tests the fake CLI itself"
client:
  steps:
    - prompt: {text: "say hello"}
cli:
  turns:
    - match: "say hello"
      steps:
        - thinking: "The user wants a greeting."
        - text: "Hello from the fake CLI."
`)
	c, cwd, logPath := startAdapter(t, sc, func(string, map[string]any) (any, *rpcError) {
		return nil, &rpcError{Code: -32601, Message: "not supported"}
	})
	sid := openSession(t, c, cwd)
	res := c.call("session/prompt", map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": "say hello"}}})
	if res["stopReason"] != "end_turn" {
		t.Errorf("stopReason = %v, want end_turn", res["stopReason"])
	}
	if got := chunkText(c); got != "Hello from the fake CLI." {
		t.Errorf("agent_message_chunk text = %q, want %q", got, "Hello from the fake CLI.")
	}
	if n := len(c.updates("agent_thought_chunk")); n == 0 {
		t.Errorf("no agent_thought_chunk for the thinking block")
	}
	// The adapter → CLI lane: initialize registered hooks, the prompt arrived.
	var sawInit, sawUser bool
	for _, f := range logFrames(t, logPath, "in") {
		if r, _ := f["request"].(map[string]any); r["subtype"] == "initialize" {
			_, sawInit = r["hooks"].(map[string]any)
		}
		if f["type"] == "user" && strings.Contains(fmt.Sprint(f["message"]), "say hello") {
			sawUser = true
		}
	}
	if !sawInit || !sawUser {
		t.Errorf("fake CLI log: initialize with hooks = %v, user prompt = %v", sawInit, sawUser)
	}
	// The session transcript was written where the CLI writes it.
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(cwd), "home", ".claude", "projects", "*", sid+".jsonl"))
	if len(matches) != 1 {
		t.Errorf("transcript for %s not found under CLAUDE_CONFIG_DIR/projects", sid)
	}
}

func TestReferenceAdapterToolCallPermission(t *testing.T) {
	const yml = `
name: e2e-bash
description: A Bash call asks permission, then runs.
covers: [Permission presentation]
scripted: "tests the fake CLI itself"
client:
  steps:
    - prompt: {text: "list files"}
cli:
  turns:
    - steps:
        - tool:
            name: Bash
            input: {command: "ls -la", description: "List files"}
            permission: ask
            decisionReason: "Bash commands need approval"
            suggestions:
              - {type: addRules, rules: [{toolName: Bash, ruleContent: "ls:*"}], behavior: allow, destination: localSettings}
            result: "a.ts\nb.ts"
            toolUseResult: {stdout: "a.ts\nb.ts", stderr: "", interrupted: false, isImage: false}
        - text: "Listed."
`
	tests := []struct {
		name       string
		option     string
		wantAllow  bool
		wantStatus string
	}{
		{name: "allow once", option: "allow-once", wantAllow: true, wantStatus: "completed"},
		{name: "reject", option: "reject", wantAllow: false, wantStatus: "failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := mustParse(t, yml)
			c, cwd, logPath := startAdapter(t, sc, func(method string, params map[string]any) (any, *rpcError) {
				if method != "session/request_permission" {
					return nil, &rpcError{Code: -32601, Message: "not supported"}
				}
				return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": tt.option}}, nil
			})
			sid := openSession(t, c, cwd)
			res := c.call("session/prompt", map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": "list files"}}})
			if res["stopReason"] != "end_turn" {
				t.Errorf("stopReason = %v, want end_turn", res["stopReason"])
			}
			perms := c.requests("session/request_permission")
			if len(perms) != 1 {
				t.Fatalf("got %d permission requests, want 1", len(perms))
			}
			p, _ := perms[0]["params"].(map[string]any)
			tc, _ := p["toolCall"].(map[string]any)
			if tc["toolCallId"] != "toolu_bash" {
				t.Errorf("permission toolCallId = %v, want toolu_bash", tc["toolCallId"])
			}
			var ids []string
			for _, o := range p["options"].([]any) {
				ids = append(ids, o.(map[string]any)["optionId"].(string))
			}
			if !strings.Contains(strings.Join(ids, ","), tt.option) {
				t.Errorf("options %v lack %s", ids, tt.option)
			}
			// The adapter's answer to can_use_tool, as the fake CLI received it.
			var behavior string
			var hookSent bool
			for _, f := range logFrames(t, logPath, "out") {
				if r, _ := f["request"].(map[string]any); r["subtype"] == "hook_callback" {
					in, _ := r["input"].(map[string]any)
					hookSent = hookSent || in["hook_event_name"] == "PostToolUse"
				}
			}
			for _, f := range logFrames(t, logPath, "in") {
				resp, _ := f["response"].(map[string]any)
				body, _ := resp["response"].(map[string]any)
				if body["toolUseID"] == "toolu_bash" {
					behavior, _ = body["behavior"].(string)
				}
			}
			if (behavior == "allow") != tt.wantAllow {
				t.Errorf("can_use_tool answer behavior = %q, want allow=%v", behavior, tt.wantAllow)
			}
			if hookSent != tt.wantAllow {
				t.Errorf("PostToolUse hook sent = %v, want %v", hookSent, tt.wantAllow)
			}
			var last string
			for _, u := range c.updates("tool_call_update") {
				if s, ok := u["status"].(string); ok && u["toolCallId"] == "toolu_bash" {
					last = s
				}
			}
			if last != tt.wantStatus {
				t.Errorf("last tool_call_update status = %q, want %q", last, tt.wantStatus)
			}
		})
	}
}

// TestFakeCLIProcessExits runs the built binary as the adapter would and
// checks that it exits 0 on stdin EOF and on SIGTERM, with nothing left over.
func TestFakeCLIProcessExits(t *testing.T) {
	bin := testroot.Binary(t)
	argv := []string{"fake-cli", "--output-format", "stream-json", "--verbose", "--input-format", "stream-json", "--permission-prompt-tool=stdio"}
	tests := []struct {
		name string
		stop func(cmd *exec.Cmd, stdin io.WriteCloser) error
	}{
		{name: "stdin EOF", stop: func(cmd *exec.Cmd, stdin io.WriteCloser) error { return stdin.Close() }},
		{name: "SIGTERM", stop: func(cmd *exec.Cmd, stdin io.WriteCloser) error { return cmd.Process.Signal(syscall.SIGTERM) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			home := t.TempDir()
			cmd := exec.CommandContext(ctx, bin, argv...)
			cmd.Dir = home
			cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			g, err := procgroup.Start(cmd)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Release(0)
			// Wait until the fake answers initialize, so it is serving.
			fmt.Fprintln(stdin, `{"type":"control_request","request_id":"i","request":{"subtype":"initialize"}}`)
			line, err := bufio.NewReader(stdout).ReadString('\n')
			if err != nil || !strings.Contains(line, `"request_id":"i"`) {
				t.Fatalf("initialize reply = %q, %v", line, err)
			}
			if err := tt.stop(cmd, stdin); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("exit: %v", err)
			}
			if cmd.ProcessState.ExitCode() != 0 {
				t.Errorf("exit code %d", cmd.ProcessState.ExitCode())
			}
		})
	}
}
