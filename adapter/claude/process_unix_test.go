//go:build unix

package claude

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/internal/jsonrpc"
	"github.com/airwire/airwire/internal/procgroup"
)

// startScript runs body as a /bin/sh CLI with the extra environment.
func startScript(t *testing.T, body string, h Handler, env ...string) (*Process, *syncBuffer) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "claude")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	p, err := Start(Config{Path: path, Args: []string{"--output-format", "stream-json"}, Dir: dir,
		Env: append([]string{"PATH=" + os.Getenv("PATH")}, env...), Handler: h,
		Log: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})), KillGrace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		closed := make(chan struct{})
		go func() { _ = p.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(5 * time.Second):
			_ = p.group.Kill()
			t.Error("Close hung")
		}
	})
	return p, logs
}

func waitDone(t *testing.T, p *Process) {
	t.Helper()
	select {
	case <-p.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the CLI did not end")
	}
}

// TestProcessSkipsGarbageAndReportsExit: a line that is not JSON is
// logged and skipped, the lines around it arrive in order, stderr goes to
// the log, and the exit code reaches HandleExit after the last line in
// the SDK's words.
func TestProcessSkipsGarbageAndReportsExit(t *testing.T) {
	r := &recorder{}
	p, logs := startScript(t, `
echo '{"type":"system","subtype":"session_state_changed","state":"running","session_id":"s","uuid":"u1"}'
echo 'this is not json'
echo 'boom: the model is gone' >&2
echo '{"type":"stream_event","event":{"type":"message_start"},"parent_tool_use_id":null,"session_id":"s","uuid":"u2"}'
exit 3
`, r)
	waitDone(t, p)
	if got, want := strings.Join(r.snapshot(), ","), "message system,message stream_event,exit"; got != want {
		t.Errorf("events %s, want %s", got, want)
	}
	if f := r.msgs[0]; f.Subtype != "session_state_changed" || len(f.Raw) == 0 {
		t.Errorf("first message is %+v", f)
	}
	var ee *ExitError
	if !errors.As(r.exit, &ee) || ee.Code != 3 || p.Err() != r.exit {
		t.Fatalf("exit %v, want code 3", r.exit)
	}
	if want := "Claude Code process exited with code 3. stderr: boom: the model is gone"; ee.Error() != want {
		t.Errorf("exit error %q, want %q", ee.Error(), want)
	}
	if !strings.Contains(logs.String(), "unreadable frame") || !strings.Contains(logs.String(), "boom: the model is gone") {
		t.Errorf("the garbage line or stderr is not in the log:\n%s", logs)
	}
}

// TestProcessKilledBySignal: a CLI that dies by a signal mid-turn is an
// ExitError naming the signal.
func TestProcessKilledBySignal(t *testing.T) {
	r := &recorder{}
	p, _ := startScript(t, "kill -KILL $$\n", r)
	waitDone(t, p)
	var ee *ExitError
	if !errors.As(r.exit, &ee) || ee.Signal != "SIGKILL" || ee.Error() != "Claude Code process terminated by signal SIGKILL" {
		t.Fatalf("exit %v", r.exit)
	}
	if r.exits != 1 {
		t.Errorf("HandleExit called %d times", r.exits)
	}
}

// gone reports whether pid no longer runs (absent, or a zombie waiting
// for init, where /proc tells).
func gone(pid int) bool {
	if !procgroup.Running(pid) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) > 0 && fields[0] == "Z"
}

// TestProcessCloseKillsTheGroup: a CLI and its child that both ignore
// SIGTERM are killed after the grace and reaped; Close waits for it and
// HandleExit gets ErrClosed.
func TestProcessCloseKillsTheGroup(t *testing.T) {
	r := &recorder{}
	pidFile := filepath.Join(t.TempDir(), "child")
	p, _ := startScript(t, `trap '' TERM
sleep 300 &
echo $! > "$CHILD_PID"
echo '{"type":"keep_alive"}'
wait
`, r, "CHILD_PID="+pidFile)
	var child int
	deadline := time.Now().Add(5 * time.Second)
	for child == 0 && time.Now().Before(deadline) {
		b, _ := os.ReadFile(pidFile)
		child, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		time.Sleep(10 * time.Millisecond)
	}
	if child == 0 {
		t.Fatal("the script's child did not start")
	}
	start := time.Now()
	closed := make(chan error, 1)
	go func() { closed <- p.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return: the group was never killed")
	}
	if took := time.Since(start); took < 200*time.Millisecond {
		t.Errorf("Close took %v: the SIGTERM-proof CLI cannot have waited out the grace", took)
	}
	if !errors.Is(r.exit, ErrClosed) || !errors.Is(p.Err(), ErrClosed) {
		t.Errorf("exit %v, want ErrClosed", r.exit)
	}
	for _, pid := range []int{p.Pid(), child} {
		deadline := time.Now().Add(2 * time.Second)
		for !gone(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if !gone(pid) {
			t.Errorf("pid %d outlived Close", pid)
		}
	}
	if err := p.Close(); err != nil || r.exits != 1 {
		t.Errorf("a second Close: %v, HandleExit called %d times", err, r.exits)
	}
}

// TestCLIDiesWithAKilledAgent: an agent killed by SIGKILL closes no
// stdin in an orderly way and runs no Close; its CLI, which would run on
// after stdin EOF, still ends (Pdeathsig on Linux, the watchdog elsewhere).
func TestCLIDiesWithAKilledAgent(t *testing.T) {
	cli := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(cli, []byte("#!/bin/sh\nexec sleep 300 </dev/null\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	agent := exec.Command(os.Args[0], "-test.run=^$")
	agent.Env = append(os.Environ(), envAgentCLI+"="+cli)
	agent.Stderr = os.Stderr
	out, _ := agent.StdoutPipe()
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = agent.Process.Kill(); _ = agent.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the agent printed no CLI pid: %v", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(line))
	t.Cleanup(func() {
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
	})
	if err := agent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = agent.Wait()
	deadline := time.Now().Add(3 * time.Second)
	for !gone(pid) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !gone(pid) {
		t.Errorf("the CLI (pid %d) outlived its killed agent", pid)
	}
}

// controlScript answers our first request, then sends the CLI's own
// requests, then copies what we write to $OUT.
const controlScript = `read -r line
id=$(printf '%s' "$line" | sed -n 's/.*"request_id":"\([a-z0-9]*\)".*/\1/p')
printf '{"type":"control_response","response":{"subtype":"success","request_id":"%s","response":{"commands":[]}}}\n' "$id"
echo '{"type":"control_request","request_id":"cli-1","request":{"subtype":"can_use_tool","tool_name":"Write","input":{"file_path":"/x"},"tool_use_id":"toolu_1"}}'
echo '{"type":"control_request","request_id":"cli-2","request":{"subtype":"bogus_subtype"}}'
echo '{"type":"control_request","request_id":"cli-3","request":{"subtype":"hook_callback","callback_id":"hook_0","input":{"hook_event_name":"PostToolUse","session_id":"s","cwd":"/","tool_name":"Write"},"tool_use_id":"toolu_1"}}'
echo '{"type":"control_request","request_id":"cli-4","request":{"subtype":"hook_callback","callback_id":"hook_9","input":{"hook_event_name":"PostToolUse"}}}'
echo '{"type":"control_request","request_id":"cli-5","request":{"subtype":"remote_tool_call"}}'
echo '{"type":"control_response","response":{"subtype":"success","request_id":"cli-1","response":{}}}'
exec cat > "$OUT"
`

// TestProcessControlChannel: initialize pairs with its response and
// registers the hooks; the CLI's can_use_tool reaches the Handler and is
// answered later from another goroutine; a hook_callback reaches its
// HookFunc; an unknown subtype and an unknown hook id get the SDK's error
// replies; remote_tool_call gets none; a user message goes out as written.
func TestProcessControlChannel(t *testing.T) {
	out := filepath.Join(t.TempDir(), "stdin")
	r := &recorder{control: func(ctx context.Context, req *IncomingRequest, reply Reply) {
		c := req.Request.(*CanUseTool)
		go reply(PermissionResult{Behavior: "allow", UpdatedInput: c.Input, ToolUseID: c.ToolUseID}, nil)
	}}
	p, logs := startScript(t, controlScript, r, "OUT="+out)
	hooked := make(chan *HookCallback, 1)
	hook := func(ctx context.Context, cb *HookCallback, reply Reply) { hooked <- cb; reply(HookContinue, nil) }
	res, err := p.Initialize(context.Background(), Initialize{Hooks: []HookEvent{{Event: "PostToolUse", Matchers: []HookMatcher{{Hooks: []HookFunc{hook}}}}}})
	if err != nil || string(res) != `{"commands":[]}` {
		t.Fatalf("initialize: %s, %v", res, err)
	}
	if err := p.Send(NewUserInput("s", json.RawMessage(`[{"type":"text","text":"hi"}]`))); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"cli-1": `{"subtype":"success","request_id":"cli-1","response":{"behavior":"allow","updatedInput":{"file_path":"/x"},"toolUseID":"toolu_1"}}`,
		"cli-2": `{"subtype":"error","request_id":"cli-2","error":"Unsupported control request subtype: bogus_subtype"}`,
		"cli-3": `{"subtype":"success","request_id":"cli-3","response":{"continue":true}}`,
		"cli-4": `{"subtype":"error","request_id":"cli-4","error":"No hook callback found for ID: hook_9"}`,
	}
	lines := waitLines(t, out, len(want)+1)
	got := map[string]string{}
	users := 0
	for _, l := range lines {
		var f struct {
			Type     string
			Response json.RawMessage
		}
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if f.Type == "user" {
			users++
			continue
		}
		var id struct {
			RequestID string `json:"request_id"`
		}
		_ = json.Unmarshal(f.Response, &id)
		got[id.RequestID] = string(f.Response)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("answer to %s:\n got %s\nwant %s", id, got[id], w)
		}
	}
	if users != 1 || len(got) != len(want) {
		t.Errorf("%d user lines and answers %v: cli-5 must stay unanswered", users, got)
	}
	if cb := <-hooked; cb.Input.ToolName != "Write" || cb.ToolUseID != "toolu_1" {
		t.Errorf("hook got %+v", cb)
	}
	if strings.Contains(logs.String(), "level=WARN") {
		t.Errorf("an echoed control response was logged as a warning:\n%s", logs)
	}
}

// waitLines waits until path holds n lines.
func waitLines(t *testing.T, path string, n int) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(path)
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(b) > 0 && len(lines) >= n {
			return lines
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s holds %q, want %d lines", path, b, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestProcessRequestErrors: an error response is a ControlError; an
// unanswered request ends with its context and tells the CLI with a
// control_cancel_request (the SDK's abort); a CLI that is gone fails the
// next request.
func TestProcessRequestErrors(t *testing.T) {
	r := &recorder{}
	out := filepath.Join(t.TempDir(), "stdin")
	p, _ := startScript(t, `read -r line
id=$(printf '%s' "$line" | sed -n 's/.*"request_id":"\([a-z0-9]*\)".*/\1/p')
printf '{"type":"control_response","response":{"subtype":"error","request_id":"%s","error":"Unsupported control request subtype: set_model"}}\n' "$id"
read -r line; echo "$line" >> "$OUT"
read -r line; echo "$line" >> "$OUT"
read -r line; echo "$line" >> "$OUT"
`, r, "OUT="+out)
	var ce *ControlError
	err := p.Request(context.Background(), SetModel{Model: "haiku"}, nil)
	if !errors.As(err, &ce) || ce.Message != "Unsupported control request subtype: set_model" {
		t.Fatalf("error response: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := p.Request(ctx, GetSettings{}, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("unanswered request: %v", err)
	}
	if err := p.Request(context.Background(), Interrupt{}, nil); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Fatalf("request to a CLI that exited: %v", err)
	}
	waitDone(t, p)
	if r.exit != nil {
		t.Errorf("clean exit reported as %v", r.exit)
	}
	lines := waitLines(t, out, 3)
	var req, cancelFrame struct {
		Type      string
		RequestID string `json:"request_id"`
	}
	_ = json.Unmarshal([]byte(lines[0]), &req)
	_ = json.Unmarshal([]byte(lines[1]), &cancelFrame)
	if cancelFrame.Type != "control_cancel_request" || cancelFrame.RequestID == "" || cancelFrame.RequestID != req.RequestID {
		t.Errorf("after the timed-out %s came %s", lines[0], lines[1])
	}
}

// TestProcessCancelRequest: the CLI's control_cancel_request ends the
// context of its request; the handler's late answer still goes out (the
// reference answers "Tool use aborted").
func TestProcessCancelRequest(t *testing.T) {
	out := filepath.Join(t.TempDir(), "stdin")
	cancelled := make(chan struct{})
	r := &recorder{control: func(ctx context.Context, req *IncomingRequest, reply Reply) {
		go func() {
			<-ctx.Done()
			close(cancelled)
			reply(nil, errors.New("Tool use aborted"))
		}()
	}}
	startScript(t, `echo '{"type":"control_request","request_id":"cli-1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{},"tool_use_id":"t"}}'
echo '{"type":"control_cancel_request","request_id":"cli-1"}'
exec cat > "$OUT"
`, r, "OUT="+out)
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the request's context was not cancelled")
	}
	lines := waitLines(t, out, 1)
	if want := `{"type":"control_response","response":{"subtype":"error","request_id":"cli-1","error":"Tool use aborted"}}`; lines[0] != want {
		t.Errorf("got  %s\nwant %s", lines[0], want)
	}
}

// TestInitializeBody: the options the reference can set reach the
// initialize request; unset ones stay out.
func TestInitializeBody(t *testing.T) {
	yes, no := true, false
	b, err := json.Marshal(Initialize{SystemPrompt: []string{"custom"}, AppendSystemPrompt: "more", ExcludeDynamicSections: &yes,
		PromptSuggestions: &yes, ForwardSubagentText: &no, SupportedDialogKinds: []string{"refusal_fallback_prompt"},
		PerTaskStopAffordance: &yes}.body(&hookRegistry{}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"systemPrompt":["custom"],"appendSystemPrompt":"more","excludeDynamicSections":true,"promptSuggestions":true,` +
		`"forwardSubagentText":false,"supportedDialogKinds":["refusal_fallback_prompt"],"perTaskStopAffordance":true}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}
