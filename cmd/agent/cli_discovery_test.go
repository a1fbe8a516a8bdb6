//go:build !windows

// The end-to-end discovery test builds airwire with the Go toolchain and
// runs the Claude CLI that make deps installs, a Linux binary: it runs
// where those are. On Windows discovery is a pure function, table-tested
// in adapter/claude on every platform.

package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/airwire/airwire/internal/testroot"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/conform/mockapi"
	"github.com/airwire/airwire/internal/deps"
)

// The agent finds the real Claude CLI from outside the checkout, where the
// user put it, whatever the session's cwd.
func TestAgentFindsTheCLI(t *testing.T) {
	cli, airwire := realCLI(t), testroot.Binary(t)
	t.Run("installed", func(t *testing.T) { installedCLI(t, cli, airwire) })
	t.Run("relative --claude-path", func(t *testing.T) { relativeClaudePath(t, cli, airwire) })
}

// installedCLI: the CLI where the native installer puts it (~/.local/bin),
// with nothing on PATH, no --claude-path and no CLAUDE_CODE_EXECUTABLE,
// serves a session and a prompt (the model is mock-api).
func installedCLI(t *testing.T, cli, airwire string) {
	home := t.TempDir()
	linkCLI(t, cli, filepath.Join(home, ".local", "bin", exeName("claude")))
	ed := startAgent(t, airwire, t.TempDir(), home, mockModel(t))
	ed.call(t, "initialize", map[string]any{"protocolVersion": 1})
	sid := ed.newSession(t, t.TempDir())
	res := ed.call(t, "session/prompt", map[string]any{"sessionId": sid,
		"prompt": []map[string]any{{"type": "text", "text": "Say the discovery word"}}})
	if !strings.Contains(string(res), `"end_turn"`) || !strings.Contains(ed.messageText(), "found-by-discovery") {
		t.Fatalf("prompt answered %s; the mock model's reply never streamed:\n%s\n%s", res, ed.seen.String(), ed.stderr())
	}
}

// relativeClaudePath: a relative --claude-path names a file from the
// directory the agent started in, also for a session whose cwd is
// elsewhere (its CLI is spawned there).
func relativeClaudePath(t *testing.T, cli, airwire string) {
	start := t.TempDir()
	linkCLI(t, cli, filepath.Join(start, "vendor", exeName("claude")))
	ed := startAgent(t, airwire, start, t.TempDir(), "", "--claude-path", filepath.Join(".", "vendor", exeName("claude")))
	ed.call(t, "initialize", map[string]any{"protocolVersion": 1})
	ed.newSession(t, t.TempDir())
}

// realCLI is the Claude CLI `make deps` installed. Under CI its absence
// fails the test: it must run there.
func realCLI(t *testing.T) string {
	t.Helper()
	wd, _ := os.Getwd()
	p, err := deps.Lookup(nil, wd)
	if err == nil {
		var cli string
		if cli, err = p.RequireReferenceCLI(); err == nil {
			return cli
		}
	}
	if !errors.Is(err, deps.ErrMissing) {
		t.Fatalf("the real Claude CLI: %v", err)
	}
	deps.Unavailable(t, "no real Claude CLI (make deps): %v", err)
	return ""
}

func exeName(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

// TestMain removes the airwire binary the tests built (testroot.Binary).
func TestMain(m *testing.M) {
	os.Exit(testroot.RunTests(m))
}

// linkCLI puts the CLI at dst: a symbolic link, as the native installer
// makes, or a copy where links need privileges (Windows).
func linkCLI(t *testing.T, cli, dst string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if os.Symlink(cli, dst) == nil {
		return
	}
	data, err := os.ReadFile(cli)
	if err == nil {
		err = os.WriteFile(dst, data, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// mockModel serves a model that answers one prompt; its base URL.
func mockModel(t *testing.T) string {
	t.Helper()
	script, err := mockapi.ParseYAML([]byte(`turns:
  - when: {text: "discovery word"}
    reply: [{text: "found-by-discovery"}]
`))
	if err != nil {
		t.Fatal(err)
	}
	base, stop, err := mockapi.New(script).Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	return base
}

// pathWithoutClaude is $PATH less every directory that has a claude, so
// only the search past PATH can find one.
func pathWithoutClaude() string {
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := exec.LookPath(filepath.Join(d, "claude")); d != "" && err != nil {
			keep = append(keep, d)
		}
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// editor is a test client on an agent's stdio.
type editor struct {
	in     io.WriteCloser
	lines  chan []byte
	seen   strings.Builder // every line read, for notifications
	errOut strings.Builder
	nextID int
}

func startAgent(t *testing.T, airwire, dir, home, baseURL string, args ...string) *editor {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	cmd := exec.CommandContext(ctx, airwire, append([]string{"agent"}, args...)...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + pathWithoutClaude(), "HOME=" + home, "USERPROFILE=" + home, "IS_SANDBOX=1",
		"TMPDIR=" + os.TempDir(), "SYSTEMROOT=" + os.Getenv("SYSTEMROOT"), "DISABLE_TELEMETRY=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "CLAUDE_CODE_MAX_RETRIES=0"}
	if baseURL != "" {
		cmd.Env = append(cmd.Env, "ANTHROPIC_BASE_URL="+baseURL, "ANTHROPIC_API_KEY=sk-test")
	}
	cmd.WaitDelay = 5 * time.Second
	ed := &editor{lines: make(chan []byte, 64)}
	cmd.Stderr = &ed.errOut
	ed.in, _ = cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	go func() {
		defer close(ed.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			ed.lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	t.Cleanup(func() {
		_ = ed.in.Close()
		_ = cmd.Wait()
		cancel()
	})
	return ed
}

// call sends a request and returns its result; an error answer, or none
// within a minute, fails the test.
func (ed *editor) call(t *testing.T, method string, params any) json.RawMessage {
	t.Helper()
	ed.nextID++
	req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": ed.nextID, "method": method, "params": params})
	if _, err := fmt.Fprintf(ed.in, "%s\n", req); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	timeout := time.After(time.Minute)
	for {
		select {
		case line, ok := <-ed.lines:
			if !ok {
				t.Fatalf("%s: the agent closed stdout:\n%s", method, ed.stderr())
			}
			ed.seen.Write(append(line, '\n'))
			var resp struct {
				ID     *int            `json:"id"`
				Method string          `json:"method"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal(line, &resp) != nil || resp.ID == nil || *resp.ID != ed.nextID || resp.Method != "" {
				continue
			}
			if resp.Error != nil {
				t.Fatalf("%s: error %s\n%s", method, resp.Error, ed.stderr())
			}
			return resp.Result
		case <-timeout:
			t.Fatalf("%s: no answer in a minute:\n%s", method, ed.stderr())
		}
	}
}

func (ed *editor) newSession(t *testing.T, cwd string) string {
	t.Helper()
	var res struct {
		SessionID string `json:"sessionId"`
	}
	raw := ed.call(t, "session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}})
	if json.Unmarshal(raw, &res) != nil || res.SessionID == "" {
		t.Fatalf("session/new answered %s", raw)
	}
	return res.SessionID
}

// messageText is the text of every agent_message_chunk so far, joined.
func (ed *editor) messageText() string {
	var b strings.Builder
	for _, line := range strings.Split(ed.seen.String(), "\n") {
		var n struct {
			Params struct {
				Update struct {
					SessionUpdate string `json:"sessionUpdate"`
					Content       struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"update"`
			} `json:"params"`
		}
		if json.Unmarshal([]byte(line), &n) == nil && n.Params.Update.SessionUpdate == "agent_message_chunk" {
			b.WriteString(n.Params.Update.Content.Text)
		}
	}
	return b.String()
}

func (ed *editor) stderr() string { return ed.errOut.String() }
