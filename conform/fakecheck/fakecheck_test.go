package fakecheck

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/conform/fakecli"
	"github.com/airwire/airwire/conform/mockapi"
	"github.com/airwire/airwire/internal/deps"
)

// The turns both CLIs play, and what the mock model answers to each
// (modelScript): a text reply; a Write tool use
// (permission asked and allowed) then a text; a Bash tool use (echo, which
// the CLI runs without asking) then a text.
var prompts = []string{"Say hello.", "PLEASE_WRITE the file", "PLEASE_BASH now"}

// fakeScript is the fake's script for the same turns.
const fakeScript = `
promptSuggestion: "Hello from the mock model!"
turns:
  - match: "Say hello."
    steps:
      - text: "Hello from the mock model!"
  - match: PLEASE_WRITE
    steps:
      - tool:
          id: toolu_mock_2
          name: Write
          text: "I will write the file now."
          input: {file_path: "{{cwd}}/hello.txt", content: "hello from mock\n"}
          permission: ask
          description: hello.txt
          suggestions: [{type: setMode, mode: acceptEdits, destination: session}]
          writeFile: {path: hello.txt, content: "hello from mock\n"}
          result: "File created successfully at: {{cwd}}/hello.txt (file state is current in your context — no need to Read it back)"
          toolUseResult: {type: create, filePath: "{{cwd}}/hello.txt", content: "hello from mock\n", structuredPatch: [], originalFile: null, userModified: false}
      - text: "Done: I wrote the file."
  - match: PLEASE_BASH
    steps:
      - tool:
          id: toolu_mock_6
          name: Bash
          input: {command: "echo hi-from-bash", description: "Say hi"}
          result: "hi-from-bash"
          toolUseResult: {stdout: "hi-from-bash", stderr: "", interrupted: false, isImage: false, noOutputExpected: false}
      - text: "Done: I wrote the file."
`

// argv is the reference's argv (peer-capture/real-cli-argv.json) with the
// default permission mode, so that a Write asks.
var argv = []string{"--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
	"--permission-prompt-tool=stdio", "--tools=default", "--setting-sources=user,project,local",
	"--permission-mode=default", "--allow-dangerously-skip-permissions", "--include-partial-messages",
	"--session-id=cd4c3fa8-68ad-498e-a68c-6a6117c1f314", "--replay-user-messages", ""}

// knownDifferences are the documented ways the fake's frames differ from the
// real CLI's, by "<label> <field> real-only|fake-only", with the reason.
// Anything else the comparison finds fails the test.
var knownDifferences = map[string]string{
	// The real CLI records on every tool result how the tool was allowed,
	// also when no permission was asked (source config, with a reason_type
	// that depends on the rule or mode that allowed it); the fake records it
	// only for an asked permission, where it knows the decision.
	"user:tool_result tool_result_meta real-only": "unprompted tools: permission_decision from config rules",
}

// orderNoise lists labels left out of the order comparison, with the reason.
var orderNoise = map[string]string{
	// With --replay-user-messages the CLI echoes each control_response the
	// host sends as soon as it reads it, so where the echo lands among the
	// CLI's own frames depends on timing.
	"control_response": "echoes of the host's answers land by timing",
	// The real CLI tells an API-key user behind a non-Anthropic base URL
	// about auto-mode billing; an environment notice, not turn framing.
	"system:informational": "environment notice about the mock's base URL",
}

func TestFakeMatchesRealCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the real Claude CLI")
	}
	wd, _ := os.Getwd()
	paths, err := deps.Lookup(nil, wd)
	if err != nil {
		deps.Unavailable(t, "deps: %v", err)
	}
	cli, err := paths.RequireReferenceCLI()
	if err != nil {
		deps.Unavailable(t, "reference CLI: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	realInit, realTurns := runReal(ctx, t, cli)
	fakeInit, fakeTurns := runFake(ctx, t)

	// The initialize response: field sets only.
	check(t, "initialize response", []map[string]any{realInit}, []map[string]any{fakeInit})
	for i := range prompts {
		name := fmt.Sprintf("turn %d (%q)", i+1, prompts[i])
		check(t, name, realTurns[i], fakeTurns[i])
		ro, fo := order(realTurns[i]), order(fakeTurns[i])
		if diff, ok := CompareOrder(ro, fo); ok {
			t.Errorf("%s: order of message types differs (real | fake):\n%s", name, diff)
		}
	}
}

// check compares field sets and fails on every difference not listed in
// knownDifferences.
func check(t *testing.T, name string, real, fake []map[string]any) {
	t.Helper()
	for _, d := range CompareShapes(real, fake) {
		if _, ok := orderNoise[d.Label]; ok && d.Field == "" {
			continue
		}
		if _, known := knownDifferences[d.key()]; known {
			continue
		}
		t.Errorf("%s: %s", name, d.Detail)
	}
}

// order is Order without the labels of orderNoise, and with a PreToolUse
// hook moved after the tool message's message_stop: the real CLI starts
// the hook when the tool_use block is complete and writes it while the
// stream ends, so it lands before or after content_block_stop by timing.
func order(frames []map[string]any) []string {
	var kept []map[string]any
	for _, f := range frames {
		if _, noise := orderNoise[Label(f)]; !noise {
			kept = append(kept, f)
		}
	}
	labels := Order(kept)
	var out, held []string
	streaming := false
	for _, l := range labels {
		switch {
		case l == "stream_event:message_start":
			streaming = true
		case l == "control_request:hook_callback:PreToolUse" && streaming:
			held = append(held, l)
			continue
		case l == "stream_event:message_stop":
			streaming = false
			out = append(out, l)
			out = append(out, held...)
			held = nil
			continue
		}
		out = append(out, l)
	}
	return append(out, held...)
}

// modelScript is what the mock model answers the real CLI in those turns;
// the fake's script above plays the same answers.
func modelScript(work string) *mockapi.Script {
	text := func(s string) []mockapi.Block { return []mockapi.Block{{Text: s}} }
	return &mockapi.Script{
		Turns: []mockapi.Turn{
			{When: mockapi.When{Text: "Say hello."}, Reply: text("Hello from the mock model!")},
			{When: mockapi.When{Text: "PLEASE_WRITE"}, Reply: []mockapi.Block{{Text: "I will write the file now."},
				{ToolUse: &mockapi.ToolUse{ID: "toolu_mock_2", Name: "Write", Input: map[string]any{"file_path": filepath.Join(work, "hello.txt"), "content": "hello from mock\n"}}}}},
			{When: mockapi.When{ToolResult: "toolu_mock_2"}, Reply: text("Done: I wrote the file.")},
			{When: mockapi.When{Text: "PLEASE_BASH"}, Reply: []mockapi.Block{
				{ToolUse: &mockapi.ToolUse{ID: "toolu_mock_6", Name: "Bash", Input: map[string]any{"command": "echo hi-from-bash", "description": "Say hi"}}}}},
			{When: mockapi.When{ToolResult: "toolu_mock_6"}, Reply: text("Done: I wrote the file.")},
		},
		Side: mockapi.Side{Suggestion: "Hello from the mock model!"},
	}
}

// runReal starts the mock model API (conform/mockapi) and the real CLI and
// plays the turns.
func runReal(ctx context.Context, t *testing.T, cli string) (map[string]any, [][]map[string]any) {
	tmp := t.TempDir()
	home, work := filepath.Join(tmp, "home"), filepath.Join(tmp, "work")
	os.MkdirAll(home, 0o755)
	os.MkdirAll(work, 0o755)
	work, _ = filepath.EvalSymlinks(work)
	base, stop, err := mockapi.New(modelScript(work)).Start("127.0.0.1:0")
	if err != nil {
		t.Fatalf("mock model API: %v", err)
	}
	t.Cleanup(func() { stop() })

	cmd := exec.CommandContext(ctx, cli, argv...)
	cmd.Dir = work
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"),
		"IS_SANDBOX=1", "ANTHROPIC_BASE_URL=" + base, "ANTHROPIC_API_KEY=sk-test",
		"DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS=1",
		// What the SDK adds when it spawns the CLI.
		"CLAUDE_CODE_ENTRYPOINT=sdk-ts", "CLAUDE_CODE_SDK_READS_SESSION_STATE=1",
	}
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatalf("real CLI: %v", err)
	}
	s := newSession(t, "real CLI", in, out)
	initResp, turns, err := s.run(prompts)
	s.close()
	waitExit(t, cmd)
	if err != nil {
		t.Fatal(err)
	}
	return initResp, turns
}

// runFake runs the fake in-process with the same argv and turns.
func runFake(ctx context.Context, t *testing.T) (map[string]any, [][]map[string]any) {
	tmp := t.TempDir()
	home, work := filepath.Join(tmp, "home"), filepath.Join(tmp, "work")
	os.MkdirAll(home, 0o755)
	os.MkdirAll(work, 0o755)
	script := filepath.Join(tmp, "cli.yaml")
	if err := os.WriteFile(script, []byte(fakeScript), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home, "CLAUDE_CONFIG_DIR": filepath.Join(home, ".claude"), fakecli.EnvScript: script}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		code := fakecli.Run(fctx, fakecli.Options{Args: argv, In: inR, Out: outW, ErrOut: &testWriter{t},
			Getenv: func(k string) string { return env[k] }, Cwd: work})
		outW.Close()
		done <- code
	}()
	s := newSession(t, "fake CLI", inW, outR)
	initResp, turns, err := s.run(prompts)
	go s.close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Error("fake CLI did not exit on EOF")
	}
	if err != nil {
		t.Fatal(err)
	}
	return initResp, turns
}

// waitExit waits for the CLI to exit after stdin EOF, and kills it after 10 s.
func waitExit(t *testing.T, cmd *exec.Cmd) {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Logf("real CLI: %v", err)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Error("real CLI did not exit on stdin EOF")
	}
}

// testWriter logs what the fake writes on stderr.
type testWriter struct{ t *testing.T }

func (w *testWriter) Write(b []byte) (int, error) {
	w.t.Logf("fake CLI stderr: %s", strings.TrimSpace(string(b)))
	return len(b), nil
}
