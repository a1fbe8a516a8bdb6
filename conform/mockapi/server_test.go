package mockapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// startServer runs script on a loopback port and returns its base URL and
// the requests it reported.
func startServer(t *testing.T, script string) (string, func() []Request) {
	t.Helper()
	s, err := ParseYAML([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []Request
	srv := New(s, WithRequestHook(func(r Request) { mu.Lock(); seen = append(seen, r); mu.Unlock() }))
	base, closeFn, err := srv.Start("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = closeFn() })
	return base, func() []Request { mu.Lock(); defer mu.Unlock(); return append([]Request(nil), seen...) }
}

// mainBody is a main-loop request whose last user message is content.
func mainBody(stream bool, content string) map[string]any {
	return map[string]any{
		"model": "claude-test", "max_tokens": 128000, "stream": stream,
		"tools":    []any{map[string]any{"name": "Bash"}},
		"messages": []any{map[string]any{"role": "user", "content": json.RawMessage(content)}, map[string]any{"role": "system", "content": "# Environment"}},
	}
}

func userText(s string) string {
	b, _ := json.Marshal([]map[string]string{{"type": "text", "text": s}})
	return string(b)
}

func toolResult(id string) string {
	return fmt.Sprintf(`[{"type":"tool_result","tool_use_id":%q,"content":"ok"}]`, id)
}

func post(t *testing.T, ctx context.Context, url string, body any) *http.Response {
	t.Helper()
	data, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(data))
	req.Header.Set("content-type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// ask posts a non-streamed request and decodes the answer.
func ask(t *testing.T, base string, body map[string]any) (int, map[string]any, http.Header) {
	t.Helper()
	body["stream"] = false
	resp := post(t, context.Background(), base+"/v1/messages?beta=true", body)
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out, resp.Header
}

func firstText(m map[string]any) string {
	content, _ := m["content"].([]any)
	for _, c := range content {
		if b := c.(map[string]any); b["type"] == "text" {
			return b["text"].(string)
		}
	}
	return ""
}

func errorOf(m map[string]any) (typ, msg string) {
	e, _ := m["error"].(map[string]any)
	typ, _ = e["type"].(string)
	msg, _ = e["message"].(string)
	return typ, msg
}

const routingScript = `
turns:
  - when: {text: "List the files"}
    reply:
      - text: "I'll look."
      - toolUse: {id: toolu_ls, name: Bash, input: {command: "ls"}}
  - when: {toolResult: toolu_ls}
    reply: [{text: "There are two files."}]
side:
  title: "Fix the build"
  suggestion: "run the tests"
`

func TestTurnsAreChosenByContentWithSideRequestsBetween(t *testing.T) {
	base, seen := startServer(t, routingScript)
	title := map[string]any{"model": "m", "max_tokens": 100, "tools": []any{},
		"output_config": map[string]any{"format": map[string]any{"type": "json_schema", "schema": map[string]any{"properties": map[string]any{"title": map[string]any{"type": "string"}}}}},
		"messages":      []any{map[string]any{"role": "user", "content": "<session>List the files</session>"}}}
	check := map[string]any{"model": "m", "max_tokens": 1, "messages": []any{map[string]any{"role": "user", "content": userText("Hi")}}}
	suggestion := mainBody(false, `"[SUGGESTION MODE: Suggest what the user might type next.]"`)

	steps := []struct {
		name     string
		body     map[string]any
		wantText string
		wantStop string
		wantKind Kind
		wantID   string // the message id names what answered, never the request count
	}{
		{"title before the turn", title, `{"title":"Fix the build"}`, "end_turn", KindTitle, "msg_mock_title"},
		{"main: text", mainBody(false, userText("Please List the files now")), "I'll look.", "tool_use", KindMain, "msg_mock_t1_1"},
		{"set_model check", check, "ok", "max_tokens", KindSide, "msg_mock_side"},
		{"main: tool result", mainBody(false, toolResult("toolu_ls")), "There are two files.", "end_turn", KindMain, "msg_mock_t2_1"},
		{"suggestion", suggestion, "run the tests", "end_turn", KindSuggestion, "msg_mock_suggestion"},
		{"main: same text again", mainBody(false, userText("List the files")), "I'll look.", "tool_use", KindMain, "msg_mock_t1_2"},
	}
	for i, st := range steps {
		status, m, h := ask(t, base, st.body)
		if status != 200 || firstText(m) != st.wantText || m["stop_reason"] != st.wantStop {
			t.Errorf("%s: got %d %q %v, want 200 %q %s", st.name, status, firstText(m), m["stop_reason"], st.wantText, st.wantStop)
		}
		if got := seen()[i]; got.Kind != st.wantKind {
			t.Errorf("%s: kind %v, want %v", st.name, got.Kind, st.wantKind)
		}
		if h.Get("request-id") != fmt.Sprintf("req_mock_%d", i+1) || m["id"] != st.wantID {
			t.Errorf("%s: ids %q %v", st.name, h.Get("request-id"), m["id"])
		}
	}
	if got := seen()[3].Turn; got != 1 {
		t.Errorf("tool result answered by turn %d, want 1", got)
	}
}

func TestUnmatchedRequestIs400NamingTheMessage(t *testing.T) {
	script, _ := ParseYAML([]byte(routingScript))
	srv := New(script)
	base, closeFn, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	if status, _, _ := ask(t, base, mainBody(false, userText("List the files"))); status != 200 || len(srv.Unmatched()) != 0 {
		t.Fatalf("a matched request: %d, unmatched %v", status, srv.Unmatched())
	}
	long := "Something else " + strings.Repeat("x", 300)
	status, m, _ := ask(t, base, mainBody(false, userText(long)))
	typ, msg := errorOf(m)
	want := "mock-api: no turn matches the last user message: " + long[:200]
	if status != 400 || typ != "invalid_request_error" || msg != want || m["type"] != "error" {
		t.Errorf("got %d %v", status, m)
	}
	if u := srv.Unmatched(); len(u) != 1 || u[0].Seq != 2 || u[0].Status != 400 {
		t.Errorf("Unmatched: %+v", u)
	}
}

func TestErrorsThenReply(t *testing.T) {
	base, _ := startServer(t, `
turns:
  - when: {text: "changelog"}
    errors: [{status: 529}, {status: 429, retryAfter: 3}, {status: 500, message: "boom"}]
    reply: [{text: "Done."}]
  - when: {text: "login"}
    errors: [{status: 401}]
    repeatErrors: true
`)
	want := []struct {
		status     int
		typ, msg   string
		retryAfter string
	}{
		{529, "overloaded_error", "Overloaded", ""},
		{429, "rate_limit_error", errorMessages.Value("rate_limit_error"), "3"},
		{500, "api_error", "boom", ""},
	}
	for i, w := range want {
		status, m, h := ask(t, base, mainBody(false, userText("Write the changelog")))
		typ, msg := errorOf(m)
		if status != w.status || typ != w.typ || msg != w.msg || h.Get("retry-after") != w.retryAfter || h.Get("request-id") == "" {
			t.Errorf("attempt %d: got %d %s %q retry-after %q", i+1, status, typ, msg, h.Get("retry-after"))
		}
	}
	if status, m, _ := ask(t, base, mainBody(false, userText("Write the changelog"))); status != 200 || firstText(m) != "Done." {
		t.Errorf("after the errors: got %d %v", status, m)
	}
	for i := range 4 {
		status, m, _ := ask(t, base, mainBody(false, userText("login please")))
		if typ, _ := errorOf(m); status != 401 || typ != "authentication_error" {
			t.Errorf("repeatErrors attempt %d: got %d %v", i+1, status, m)
		}
	}
}

// sse reads server-sent events until the body ends and returns them with
// the read error (nil at a clean end).
func sse(body io.Reader) ([]map[string]any, error) {
	var out []map[string]any
	sc := bufio.NewScanner(body)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			var m map[string]any
			if err := json.Unmarshal([]byte(data), &m); err != nil {
				return out, err
			}
			out = append(out, m)
		}
	}
	return out, sc.Err()
}

func TestStreamedReply(t *testing.T) {
	base, _ := startServer(t, `
turns:
  - when: {text: "go"}
    reply:
      - thinking: "Let me think about it."
      - text: "I'll look at the files."
      - toolUse: {id: toolu_1, name: Bash, input: {command: "ls -la", description: "List files"}}
`)
	resp := post(t, context.Background(), base+"/v1/messages", mainBody(true, userText("go")))
	defer resp.Body.Close()
	if ct := resp.Header.Get("content-type"); ct != "text/event-stream" || resp.Header.Get("anthropic-ratelimit-unified-status") != "allowed" {
		t.Errorf("headers: %v", resp.Header)
	}
	events, err := sse(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	text, thinking, sig, input := "", "", "", ""
	deltas := map[string]int{}
	for _, e := range events {
		types = append(types, e["type"].(string))
		if d, ok := e["delta"].(map[string]any); ok && e["type"] == "content_block_delta" {
			deltas[d["type"].(string)]++
			text += str(d["text"])
			thinking += str(d["thinking"])
			sig += str(d["signature"])
			input += str(d["partial_json"])
		}
		if e["type"] == "message_delta" && e["delta"].(map[string]any)["stop_reason"] != "tool_use" {
			t.Errorf("stop reason: %v", e)
		}
	}
	if types[0] != "message_start" || types[1] != "ping" || types[len(types)-2] != "message_delta" || types[len(types)-1] != "message_stop" {
		t.Errorf("event order: %v", types)
	}
	if text != "I'll look at the files." || thinking != "Let me think about it." || sig == "" {
		t.Errorf("text %q thinking %q signature %q", text, thinking, sig)
	}
	if deltas["text_delta"] < 2 || deltas["thinking_delta"] < 2 || deltas["input_json_delta"] < 2 || deltas["signature_delta"] != 1 {
		t.Errorf("deltas: %v", deltas)
	}
	var in map[string]string
	if err := json.Unmarshal([]byte(input), &in); err != nil || in["command"] != "ls -la" {
		t.Errorf("tool input %q: %v", input, err)
	}
}

func str(v any) string { s, _ := v.(string); return s }

func TestDropMidStream(t *testing.T) {
	base, _ := startServer(t, `
turns:
  - when: {text: "drop"}
    reply: [{text: "this will never arrive in full"}]
    stream: {dropAfter: 3}
`)
	resp := post(t, context.Background(), base+"/v1/messages", mainBody(true, userText("drop")))
	defer resp.Body.Close()
	events, err := sse(resp.Body)
	if err == nil || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("read error: got %v, want unexpected EOF", err)
	}
	if len(events) != 3 {
		t.Errorf("got %d events before the drop, want 3", len(events))
	}
}

func TestHangUntilTheClientCloses(t *testing.T) {
	s, err := ParseYAML([]byte(`
turns:
  - when: {text: "hang"}
    reply: [{text: "partial answer"}]
    stream: {hang: true}
`))
	if err != nil {
		t.Fatal(err)
	}
	returned := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		New(s).ServeHTTP(w, r)
		close(returned)
	}))
	defer ts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := post(t, ctx, ts.URL+"/v1/messages", mainBody(true, userText("hang")))
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var last string
	for ok := true; ok && !strings.Contains(last, `answer"`); {
		select {
		case last, ok = <-lines:
		case <-time.After(5 * time.Second):
			t.Fatal("the text never arrived")
		}
	}
	select {
	case l := <-lines:
		if strings.HasPrefix(l, "event: content_block_stop") || strings.Contains(l, "message_stop") {
			t.Fatalf("stream went on after the text: %q", l)
		}
	case <-returned:
		t.Fatal("the handler returned before the client closed")
	case <-time.After(300 * time.Millisecond):
	}
	cancel()
	select {
	case <-returned:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler did not return after the client closed")
	}
}

func TestSlowStream(t *testing.T) {
	base, _ := startServer(t, `
turns:
  - when: {text: "slow"}
    reply: [{text: "ab"}]
    stream: {eventDelay: 40ms}
`)
	start := time.Now()
	resp := post(t, context.Background(), base+"/v1/messages", mainBody(true, userText("slow")))
	defer resp.Body.Close()
	events, err := sse(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	// 8 events: start, ping, block start, 2 deltas, block stop, delta, stop.
	if len(events) != 8 || time.Since(start) < 7*40*time.Millisecond {
		t.Errorf("got %d events in %v", len(events), time.Since(start))
	}
}

func TestOtherEndpoints(t *testing.T) {
	base, seen := startServer(t, routingScript)
	resp := post(t, context.Background(), base+"/v1/messages/count_tokens?beta=true", mainBody(false, userText("x")))
	var ct map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&ct)
	resp.Body.Close()
	if n, _ := ct["input_tokens"].(float64); resp.StatusCode != 200 || n < 1 {
		t.Errorf("count_tokens: %d %v", resp.StatusCode, ct)
	}
	for _, path := range []string{"/api/hello", "/v1/models"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		resp.Body.Close()
		if typ, msg := errorOf(m); resp.StatusCode != 404 || typ != "not_found_error" || !strings.Contains(msg, path) {
			t.Errorf("GET %s: %d %v", path, resp.StatusCode, m)
		}
	}
	big := bytes.Repeat([]byte("x"), MaxBodyBytes+1)
	resp2, err := http.Post(base+"/v1/messages", "application/json", bytes.NewReader(big))
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != 413 {
		t.Errorf("oversized body: got %d, want 413", resp2.StatusCode)
	}
	if k := seen()[0].Kind; k != KindCountTokens {
		t.Errorf("count_tokens kind: %v", k)
	}
}

func TestStartRefusesNonLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "localhost:0", "example.com:80", "127.0.0.1"} {
		if _, _, err := New(nil).Start(addr); err == nil {
			t.Errorf("Start(%q) succeeded", addr)
		}
	}
}

func TestConcurrentRequests(t *testing.T) {
	base, seen := startServer(t, `
turns:
  - when: {text: "flaky"}
    errors: [{status: 529}, {status: 529}, {status: 529}]
    reply: [{text: "fine"}]
`)
	var wg sync.WaitGroup
	codes := make(chan int, 10)
	for range 10 {
		wg.Go(func() {
			data, _ := json.Marshal(mainBody(false, userText("flaky")))
			resp, err := http.Post(base+"/v1/messages", "application/json", bytes.NewReader(data))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			codes <- resp.StatusCode
		})
	}
	wg.Wait()
	close(codes)
	n529 := 0
	for c := range codes {
		if c == 529 {
			n529++
		}
	}
	if n529 != 3 || len(seen()) != 10 {
		t.Errorf("got %d overloaded answers of %d, want 3 of 10", n529, len(seen()))
	}
}

func TestFirstEventDelay(t *testing.T) {
	base, _ := startServer(t, `
turns:
  - when: {text: "late"}
    reply: [{text: "ab"}]
    stream: {firstEventDelay: 300ms}
`)
	start := time.Now()
	resp := post(t, context.Background(), base+"/v1/messages", mainBody(true, userText("late")))
	defer resp.Body.Close()
	first := make([]byte, 1)
	if _, err := resp.Body.Read(first); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("message_start came after %v, want at least 300ms", d)
	}
}

// The plan file's path comes from plan mode's reminder, which the real CLI
// 2.1.318 sends in the role "system" message after the prompt ("You should
// create your plan at <config>/plans/<random words>.md using the Write
// tool.").
const captureScript = `
turns:
  - when: {text: "Plan a fix"}
    capture: {planFile: 'create your plan at (\S+\.md)'}
    reply:
      - toolUse: {id: toolu_write, name: Write, input: {file_path: "{{planFile}}", content: "1. Fix", keep: ["{{cwd}}"]}}
  - when: {toolResult: toolu_write}
    reply: [{text: "Wrote {{planFile}}."}]
`

func TestCaptureFillsThisAndLaterReplies(t *testing.T) {
	script, err := ParseYAML([]byte(captureScript))
	if err != nil {
		t.Fatal(err)
	}
	srv := New(script)
	base, closeFn, err := srv.Start("")
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	const path = "/tmp/run/home/.claude/plans/plan-a-fix-for-valiant-backus.md"
	body := mainBody(false, userText("Plan a fix for the parser."))
	body["messages"].([]any)[1] = map[string]any{"role": "system", "content": []map[string]string{
		{"type": "text", "text": "# Environment\n\nPlan mode is active.\nNo plan file exists yet. You should create your plan at " + path + " using the Write tool."},
	}}
	status, m, _ := ask(t, base, body)
	content, _ := m["content"].([]any)
	if status != 200 || len(content) != 1 {
		t.Fatalf("got %d %v", status, m)
	}
	input := content[0].(map[string]any)["input"].(map[string]any)
	if input["file_path"] != path || input["content"] != "1. Fix" || input["keep"].([]any)[0] != "{{cwd}}" {
		t.Errorf("tool input %v: want the captured path, and other placeholders as they are", input)
	}
	if got := script.Turns[0].Reply[0].ToolUse.Input["file_path"]; got != "{{planFile}}" {
		t.Errorf("the script was changed: %v", got)
	}
	if status, m, _ := ask(t, base, mainBody(false, toolResult("toolu_write"))); status != 200 || firstText(m) != "Wrote "+path+"." {
		t.Errorf("a later turn: got %d %q", status, firstText(m))
	}
	if u := srv.Unmatched(); len(u) != 0 {
		t.Errorf("Unmatched: %+v", u)
	}
}

func TestCaptureThatFindsNothingIs400(t *testing.T) {
	script, err := ParseYAML([]byte(captureScript))
	if err != nil {
		t.Fatal(err)
	}
	srv := New(script)
	base, closeFn, err := srv.Start("")
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	status, m, _ := ask(t, base, mainBody(false, userText("Plan a fix for the parser.")))
	_, msg := errorOf(m)
	if status != 400 || !strings.Contains(msg, "turn 0: capture planFile:") || !strings.Contains(msg, "finds nothing") {
		t.Errorf("got %d %q", status, msg)
	}
	if u := srv.Unmatched(); len(u) != 1 || u[0].Turn != 0 {
		t.Errorf("Unmatched: %+v", u)
	}
}

// side.titleError fails the title request, and only it: the turns and the
// other side requests are answered as usual.
func TestTitleError(t *testing.T) {
	base, seen := startServer(t, `
turns:
  - when: {text: "Count"}
    reply: [{text: "1, 2, 3."}]
side:
  titleError: {status: 529}
`)
	title := map[string]any{"model": "m", "max_tokens": 100, "tools": []any{},
		"output_config": map[string]any{"format": map[string]any{"type": "json_schema", "schema": map[string]any{"properties": map[string]any{"title": map[string]any{"type": "string"}}}}},
		"messages":      []any{map[string]any{"role": "user", "content": "<session>Count</session>"}}}
	status, m, _ := ask(t, base, title)
	if typ, _ := errorOf(m); status != 529 || typ != "overloaded_error" || seen()[0].Kind != KindTitle {
		t.Errorf("title request: got %d %v (kind %v), want 529 overloaded_error", status, m, seen()[0].Kind)
	}
	if status, m, _ := ask(t, base, mainBody(false, userText("Count to three"))); status != 200 || firstText(m) != "1, 2, 3." {
		t.Errorf("turn after the failed title: got %d %v", status, m)
	}
}
