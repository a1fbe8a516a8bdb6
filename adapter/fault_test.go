package adapter

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/airwire/airwire/adapter/acpv2"
	"github.com/airwire/airwire/internal/procgroup"
)

// The test binary doubles as a tiny Claude CLI when ADAPTER_TEST_CLI names
// a behaviour: it answers every control request with success and, on a
// user message, plays the behaviour.
func TestMain(m *testing.M) {
	if mode := os.Getenv("ADAPTER_TEST_CLI"); mode != "" {
		os.Exit(fakeCLI(mode))
	}
	os.Exit(m.Run())
}

// authStatusJSON is `auth status --json` when ADAPTER_TEST_AUTH names
// how long it takes (else it prints nothing): a login by API key, whose
// source is the settings' helper when the environment holds no
// ANTHROPIC_API_KEY, as Claude Code reports it.
func authStatusJSON() int {
	d, err := time.ParseDuration(os.Getenv("ADAPTER_TEST_AUTH"))
	if err != nil {
		return 0
	}
	time.Sleep(d)
	source := "ANTHROPIC_API_KEY"
	if os.Getenv("ANTHROPIC_API_KEY") == "" {
		source = "apiKeyHelper"
	}
	fmt.Printf(`{"loggedIn":true,"authMethod":"api_key","apiProvider":"firstParty","apiKeySource":%q}`+"\n", source)
	return 0
}

func fakeCLI(mode string) int {
	if pidFile := os.Getenv("ADAPTER_TEST_PIDS"); pidFile != "" {
		f, _ := os.OpenFile(pidFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		fmt.Fprintln(f, os.Getpid())
		f.Close()
	}
	if f := os.Getenv("ADAPTER_TEST_SDK_FILE"); f != "" {
		appendLine(f, os.Getenv("CLAUDE_AGENT_SDK_VERSION"))
	}
	if f := os.Getenv("ADAPTER_TEST_ROUTE_FILE"); f != "" && slices.Contains(os.Args, "--output-format") {
		appendLine(f, routeLine())
	}
	if mode == "routed-exits" && os.Getenv("ANTHROPIC_BASE_URL") != "" { // as a CLI that cannot start under a gateway
		fmt.Fprintln(os.Stderr, "Error: the gateway refused the credentials")
		return 1
	}
	if mode == "late" {
		signal.Ignore(syscall.SIGTERM) // like the real CLI, it winds down on its own
	}
	if n := len(os.Args); n >= 3 && slices.Equal(os.Args[n-3:], []string{"auth", "status", "--json"}) {
		return authStatusJSON()
	}
	in := bufio.NewScanner(os.Stdin)
	out := func(s string) { fmt.Println(s) }
	prompt := "" // the uuid of the last user message
	for in.Scan() {
		var m struct {
			Type      string `json:"type"`
			RequestID string `json:"request_id"`
			UUID      string `json:"uuid"`
		}
		_ = json.Unmarshal(in.Bytes(), &m)
		if f := os.Getenv("ADAPTER_TEST_CLI_LOG"); f != "" {
			appendLine(f, cliLogLine(in.Bytes()))
		}
		switch m.Type {
		case "control_request":
			if mode == "no-rename" && strings.Contains(in.Text(), `"subtype":"rename_session"`) { // as a CLI that does not know it
				out(fmt.Sprintf(`{"type":"control_response","response":{"subtype":"error","request_id":%q,"error":"Unsupported control request subtype: rename_session","error_code":"unsupported_request"}}`, m.RequestID))
				continue
			}
			if mode == "background-task" && strings.Contains(in.Text(), `"subtype":"stop_task"`) { // as Claude Code: the stop, then its answer
				if os.Getenv("ADAPTER_TEST_STOP_LATE") == "1" { // the task ended on its own first
					out(`{"type":"system","subtype":"task_updated","task_id":"task-1","patch":{"status":"completed"}}`)
					out(`{"type":"system","subtype":"background_tasks_changed","tasks":[]}`)
					out(fmt.Sprintf(`{"type":"control_response","response":{"subtype":"error","request_id":%q,"error":"No running task with id task-1"}}`, m.RequestID))
					continue
				}
				out(`{"type":"system","subtype":"task_updated","task_id":"task-1","patch":{"status":"killed"}}`)
				out(`{"type":"system","subtype":"background_tasks_changed","tasks":[]}`)
				time.Sleep(50 * time.Millisecond) // the answer comes well after the reports
			}
			if resp, ok := fakeRewind(mode, in.Bytes(), prompt); ok {
				if resp != "" {
					out(resp)
				}
				continue
			}
			out(fmt.Sprintf(`{"type":"control_response","response":{"subtype":"success","request_id":%q,"response":%s}}`, m.RequestID, fakeControlAnswer(in.Bytes())))
			if os.Getenv("ADAPTER_TEST_SWITCH_HOOKS") == "1" && strings.Contains(in.Text(), `"subtype":"set_model"`) { // as Claude Code: hook callbacks right behind the answer
				for i := range 2 {
					out(fmt.Sprintf(`{"type":"control_request","request_id":"switch-hook-%d","request":{"subtype":"hook_callback","callback_id":"hook_unknown","input":{}}}`, i))
				}
			}
		case "user":
			prompt = m.UUID
			if mode == "compact-at-start" { // as Claude Code: the prompt taken in, then a compaction before its echo
				out(fmt.Sprintf(`{"type":"command_lifecycle","command_uuid":%q,"state":"started"}`, m.UUID))
				out(`{"type":"system","subtype":"status","status":"compacting"}`)
			}
			if os.Getenv("ADAPTER_TEST_CLI_ECHO") == "1" { // as Claude Code: the prompt taken in
				out(fmt.Sprintf(`{"type":"user","isReplay":true,"uuid":%q,"parent_tool_use_id":null,"message":{"role":"user","content":"hi"}}`, m.UUID))
			}
			if playTurn(mode, out) {
				return 1
			}
		case "control_response": // the permission answer of ask-then-usage
			if mode == "ask-then-result" { // as the real CLI: the aborted answer becomes the tool's result
				out(`{"type":"user","parent_tool_use_id":null,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"Tool permission request failed: Error: Tool use aborted","is_error":true}]}}`)
				continue
			}
			if mode != "ask-then-wait" { // whose turn ends at the interrupt
				out(`{"type":"result","subtype":"success","stop_reason":"end_turn"}`)
			}
		}
	}
	if mode == "late" { // says something while it is being shut down
		out(`{"type":"stream_event","parent_tool_use_id":null,"event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"late words"}}}`)
		time.Sleep(200 * time.Millisecond)
	}
	return 0
}

// playTurn writes one turn of mode; it reports whether the CLI dies.
func playTurn(mode string, out func(string)) bool {
	start := `{"type":"stream_event","parent_tool_use_id":null,"event":{"type":"message_start","message":{"id":"msg_1","model":"m"}}}`
	delta := `{"type":"stream_event","parent_tool_use_id":null,"event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hello"}}}`
	switch mode {
	case "die-mid-turn":
		out(start)
		out(delta)
		return true
	case "garbage":
		out("this is not json {")
		out(`[1,2,3]`)
	case "hang":
		out(start)
		time.Sleep(time.Hour)
	case "interruptible": // the result comes at the interrupt (fakeRewind)
		out(start)
		out(delta)
		return false
	case "ask-then-usage", "ask-then-wait", "ask-then-result": // a permission request and, at once, the message's usage
		out(start)
		out(`{"type":"assistant","parent_tool_use_id":null,"message":{"id":"msg_1","model":"m","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}]}}`)
		out(`{"type":"control_request","request_id":"ask-1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"ls"},"tool_use_id":"toolu_1"}}`)
		out(`{"type":"stream_event","parent_tool_use_id":null,"event":{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"input_tokens":3,"output_tokens":5}}}`)
		return false
	case "local-command": // as Claude Code answers a slash command itself: a synthetic message, then its text as the result
		text := `Reconnect, enable, and disable aren't available in this session.`
		out(`{"type":"assistant","parent_tool_use_id":null,"message":{"id":"msg_local","model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"` + text + `"}]}}`)
		out(`{"type":"result","subtype":"success","stop_reason":"end_turn","result":"` + text + `","usage":{"input_tokens":0,"output_tokens":0}}`)
		return false
	case "background-task": // a workflow goes on in the background after its call's result and the turn
		out(start)
		out(`{"type":"assistant","parent_tool_use_id":null,"message":{"id":"msg_1","model":"m","content":[{"type":"tool_use","id":"toolu_bg","name":"Workflow","input":{"script":"x"}}]}}`)
		out(`{"type":"system","subtype":"background_tasks_changed","tasks":[{"task_id":"task-1","task_type":"local_workflow","description":"check"}]}`)
		out(`{"type":"system","subtype":"task_started","task_id":"task-1","tool_use_id":"toolu_bg","description":"check","task_type":"local_workflow"}`)
		out(`{"type":"user","parent_tool_use_id":null,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_bg","content":"launched"}]},"tool_use_result":{"taskId":"task-1"}}`)
		out(`{"type":"result","subtype":"success","stop_reason":"end_turn"}`)
		return false
	case "then-cycle": // the turn, then a cycle Claude Code starts on its own (a task's follow-up)
		out(start)
		out(delta)
		out(`{"type":"result","subtype":"success","stop_reason":"end_turn"}`)
		out(`{"type":"stream_event","parent_tool_use_id":null,"event":{"type":"message_start","message":{"id":"msg_2","model":"m"}}}`)
		out(`{"type":"stream_event","parent_tool_use_id":null,"event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"the task ended"}}}`)
		out(`{"type":"result","subtype":"success","stop_reason":"end_turn","origin":{"kind":"task-notification"},"usage":{"input_tokens":2,"output_tokens":3}}`)
		return false
	case "turn-fails":
		out(start)
		out(`{"type":"result","subtype":"error_during_execution","is_error":true,"errors":["boom"]}`)
		return false
	}
	out(start)
	out(delta)
	out(`{"type":"result","subtype":"success","stop_reason":"end_turn"}`)
	return false
}

// editor drives an Agent over pipes, one JSON-RPC line at a time.
type editor struct {
	t     *testing.T
	w     *io.PipeWriter
	lines chan map[string]any
	done  chan struct{} // closed when Serve returned
	log   *strings.Builder
}

func startAgent(t *testing.T, mode string) *editor {
	t.Helper()
	return startAgentWith(t, mode, acpv2.Auto)
}

// startAgentWith starts an agent that serves the ACP versions protocols.
func startAgentWith(t *testing.T, mode string, protocols acpv2.Protocols) *editor {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pids := t.TempDir() + "/pids"
	t.Setenv("ADAPTER_TEST_PIDS", pids)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	e := &editor{t: t, w: inW, lines: make(chan map[string]any, 4096), done: make(chan struct{}), log: &strings.Builder{}}
	var logMu sync.Mutex
	a := NewAgent(Options{ClaudePath: exe, Environ: append(os.Environ(), "ADAPTER_TEST_CLI="+mode), Protocols: protocols,
		Log: slog.New(slog.NewTextHandler(lockedWriter{&logMu, e.log}, nil))})
	go func() { _ = a.Serve(context.Background(), inR, outW); outW.Close(); close(e.done) }()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("agent wrote a line that is not JSON: %q", sc.Text())
			}
			e.lines <- m
		}
		close(e.lines)
	}()
	t.Cleanup(func() { inW.Close(); <-e.done })
	return e
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

func (e *editor) send(line string) {
	e.t.Helper()
	if _, err := io.WriteString(e.w, line+"\n"); err != nil {
		e.t.Fatal(err)
	}
}

// reply waits for the response to id, skipping notifications.
func (e *editor) reply(id float64) map[string]any {
	e.t.Helper()
	return e.replyAfter(id, func(map[string]any) {})
}

// replyAfter waits for the response to id, handing each message before it
// to each.
func (e *editor) replyAfter(id float64, each func(map[string]any)) map[string]any {
	e.t.Helper()
	return e.await(fmt.Sprintf("the reply to %v", id), func(m map[string]any) bool { return m["id"] == id && m["method"] == nil }, each)
}

// await waits up to 10 s for the first message that match accepts (what
// names it), handing each message before it to each.
func (e *editor) await(what string, match func(map[string]any) bool, each func(map[string]any)) map[string]any {
	e.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-e.lines:
			if !ok {
				e.t.Fatalf("agent output ended before %s", what)
			}
			if match(m) {
				return m
			}
			each(m)
		case <-timeout:
			e.t.Fatalf("no %s within 10s", what)
		}
	}
}

func (e *editor) openSession() string {
	e.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	e.reply(0)
	e.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + e.t.TempDir() + `","mcpServers":[]}}`)
	r := e.reply(1)
	res, _ := r["result"].(map[string]any)
	id, _ := res["sessionId"].(string)
	if id == "" {
		e.t.Fatalf("session/new = %v", r)
	}
	return id
}

func (e *editor) prompt(id float64, session string) map[string]any {
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"hi"}]}}`, id, session))
	return e.reply(id)
}

func TestCLIKilledMidTurnEndsThePromptAndTheSessionCloses(t *testing.T) {
	e := startAgent(t, "die-mid-turn")
	sid := e.openSession()
	if r := e.prompt(2, sid); r["result"] == nil {
		t.Fatalf("prompt after the CLI died = %v, want a result", r)
	}
	if r := e.prompt(3, sid); r["error"] == nil || !strings.Contains(fmt.Sprint(r["error"]), "session has ended") {
		t.Errorf("prompt on the ended session = %v", r)
	}
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":4,"method":"session/close","params":{"sessionId":%q}}`, sid))
	if r := e.reply(4); r["result"] == nil {
		t.Errorf("close = %v", r)
	}
	// A session closed already is no error to close (ACP: closing one that
	// is not active succeeds).
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":5,"method":"session/close","params":{"sessionId":%q}}`, sid))
	if r := e.reply(5); r["result"] == nil {
		t.Errorf("second close = %v, want {}", r)
	}
}

func TestGarbageCLILineIsLoggedAndSkipped(t *testing.T) {
	e := startAgent(t, "garbage")
	sid := e.openSession()
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"hi"}]}}`, sid))
	var sawChunk bool
	for m := range e.lines {
		if m["method"] == "session/update" {
			sawChunk = sawChunk || strings.Contains(fmt.Sprint(m["params"]), "hello")
		}
		if m["id"] == 2.0 {
			if res, _ := m["result"].(map[string]any); res["stopReason"] != "end_turn" {
				t.Errorf("turn after garbage = %v", m)
			}
			break
		}
	}
	if !sawChunk {
		t.Error("the turn's text after the garbage line never reached the editor")
	}
	if !strings.Contains(e.log.String(), "unreadable frame") {
		t.Errorf("garbage line not logged; log:\n%s", e.log.String())
	}
}

func TestEditorEOFMidTurnReapsEveryCLI(t *testing.T) {
	e := startAgent(t, "hang")
	sid := e.openSession()
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"hi"}]}}`, sid))
	time.Sleep(100 * time.Millisecond)
	e.w.Close()
	select {
	case <-e.done:
	case <-time.After(2 * time.Second):
		t.Fatal("the agent did not stop within 2s of the editor's EOF")
	}
	b, _ := os.ReadFile(os.Getenv("ADAPTER_TEST_PIDS"))
	for _, f := range strings.Fields(string(b)) {
		var pid int
		fmt.Sscan(f, &pid)
		if procgroup.Running(pid) {
			t.Errorf("CLI %d still runs after the agent stopped", pid)
		}
	}
	if len(strings.Fields(string(b))) == 0 {
		t.Error("no CLI was started")
	}
}

func TestThousandBadMessagesThenAPromptStillWorks(t *testing.T) {
	e := startAgent(t, "ok")
	sid := e.openSession()
	bad := []struct {
		line string
		code float64
	}{
		{`{oops`, -32700},
		{`[]`, -32600},
		{`{"jsonrpc":"2.0","id":"X","method":"no/such"}`, -32601},
		{`{"jsonrpc":"2.0","id":"X","method":"session/prompt","params":{"sessionId":"nope","prompt":[]}}`, -32002},
		{`{"jsonrpc":"2.0","id":"X","method":"session/prompt","params":"x"}`, -32602},
	}
	go func() {
		for i := range 1000 {
			e.send(bad[i%len(bad)].line)
		}
	}()
	// Replies may come in any order (a parse error is answered by the
	// reader, a call by its handler), so count codes.
	got := map[float64]int{}
	for i := 0; i < 1000; {
		var m map[string]any
		select {
		case m = <-e.lines:
		case <-time.After(10 * time.Second):
			t.Fatalf("answer %d missing; so far %v", i, got)
		}
		if m["method"] != nil {
			continue // the session's own notifications
		}
		i++
		errObj, _ := m["error"].(map[string]any)
		if errObj == nil {
			t.Fatalf("message answered without an error: %v", m)
		}
		got[errObj["code"].(float64)]++
	}
	for _, b := range bad {
		if got[b.code] != 200 {
			t.Errorf("code %v answered %d times, want 200 (%v)", b.code, got[b.code], got)
		}
	}
	if r := e.prompt(2, sid); r["result"] == nil {
		t.Errorf("prompt after the flood = %v", r)
	}
}

func TestAClosedSessionForwardsNothingTheDyingCLISays(t *testing.T) {
	e := startAgent(t, "late")
	sid := e.openSession()
	if r := e.prompt(2, sid); r["result"] == nil {
		t.Fatalf("prompt = %v", r)
	}
	e.w.Close()
	for m := range e.lines {
		if strings.Contains(fmt.Sprint(m), "late words") {
			t.Errorf("the editor got a frame of a closed session: %v", m)
		}
	}
}

// TestPermissionRequestKeepsItsPlace: the permission request is written as
// the CLI's can_use_tool is read, before the updates of the frames after
// it (the usage of the same message), as the reference sends it; it was
// written from a goroutine, and the live web-fetch-and-search runs put the
// usage first.
func TestPermissionRequestKeepsItsPlace(t *testing.T) {
	for range 5 {
		e := startAgent(t, "ask-then-usage")
		sid := e.openSession()
		e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"hi"}]}}`, sid))
		var order []string
		toolCall := false
		timeout := time.After(10 * time.Second)
		for len(order) < 2 {
			select {
			case m := <-e.lines:
				if m["method"] == "session/request_permission" {
					order = append(order, "permission")
					e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":{"outcome":{"outcome":"selected","optionId":"allow-once"}}}`, m["id"]))
				}
				if p, _ := m["params"].(map[string]any); p != nil {
					u, _ := p["update"].(map[string]any)
					switch {
					case u == nil:
					case u["sessionUpdate"] == "tool_call":
						toolCall = true
					case u["sessionUpdate"] == "usage_update" && toolCall: // the message_delta's
						order = append(order, "usage")
					}
				}
			case <-timeout:
				t.Fatalf("saw %v within 10 s", order)
			}
		}
		if order[0] != "permission" {
			t.Fatalf("order %v: the usage of the frame after can_use_tool went out before the permission request", order)
		}
		e.reply(2)
	}
}

// A logout after which Claude Code reports no login state leaves the
// client "Not logged in", told before the logout answers.
func TestLogoutWithoutAReadableLoginIsNotLoggedIn(t *testing.T) {
	e := startAgent(t, "plain")
	e.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)
	e.reply(0)
	e.send(`{"jsonrpc":"2.0","id":1,"method":"logout","params":{}}`)
	var status string
	for m := range e.lines {
		if m["method"] == "_auth/status_update" {
			status = fmt.Sprint(m["params"])
		}
		if m["id"] == 1.0 {
			if m["result"] == nil {
				t.Fatalf("logout = %v", m)
			}
			break
		}
	}
	if !strings.Contains(status, "Not logged in") {
		t.Errorf("the status before the logout's answer = %q, want Not logged in", status)
	}
}
