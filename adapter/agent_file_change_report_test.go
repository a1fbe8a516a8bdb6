package adapter

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/conform/goldentest"
)

func requestMeta(request string) json.RawMessage {
	return json.RawMessage(`{"jetbrains":{"air":{"agentFileChangeReportRequest":` + request + `}}}`)
}

// Contract "Request": exactly `version` (1) and `requestId` (1 to 128 of
// [A-Za-z0-9._:-]); anything else is ignored.
func TestFileChangeRequestValidation(t *testing.T) {
	long := strings.Repeat("a", 128)
	cases := map[string]string{
		`{"version":1,"requestId":"report-1"}`:            "report-1",
		`{"requestId":"a.b_c:d-E9","version":1}`:          "a.b_c:d-E9",
		`{"version":1.0,"requestId":"x"}`:                 "x",
		`{"version":1,"requestId":"` + long + `"}`:        long,
		`{"version":1,"requestId":"` + long + `a"}`:       "",
		`{"version":1,"requestId":""}`:                    "",
		`{"version":1,"requestId":"bad id with spaces!"}`: "",
		`{"version":1,"requestId":"é"}`:                   "",
		`{"version":1,"requestId":"x\n"}`:                 "",
		`{"version":1,"requestId":"ok-id","extra":true}`:  "",
		`{"version":2,"requestId":"x"}`:                   "",
		`{"version":"1","requestId":"x"}`:                 "",
		`{"version":1,"requestId":7}`:                     "",
		`{"requestId":"x"}`:                               "",
		`{"version":1}`:                                   "",
		`{"version":1,"requestid":"x"}`:                   "",
		`["version","requestId"]`:                         "",
		`null`:                                            "",
		`"x"`:                                             "",
	}
	for req, want := range cases {
		if got := fileChangeRequestOf(requestMeta(req)); got != want {
			t.Errorf("%s: got %q, want %q", req, got, want)
		}
	}
	for _, meta := range []string{``, `null`, `{}`, `{"jetbrains":{"air":"x"}}`, `{"agentFileChangeReportRequest":{"version":1,"requestId":"x"}}`} {
		if got := fileChangeRequestOf(json.RawMessage(meta)); got != "" {
			t.Errorf("meta %s: got %q", meta, got)
		}
	}
}

// The scenario's malformed requests (the golden's prompts) are ignored.
func TestFileChangeMalformedGoldenRequestsIgnored(t *testing.T) {
	n := 0
	for _, l := range goldentest.Tagged(t, "file-change-report-malformed", "air", "client editor->agent") {
		var m struct {
			Method string `json:"method"`
			Params struct {
				Meta json.RawMessage `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal([]byte(l), &m) != nil || m.Method != "session/prompt" {
			continue
		}
		n++
		if id := fileChangeRequestOf(m.Params.Meta); id != "" {
			t.Errorf("accepted %q from %s", id, m.Params.Meta)
		}
	}
	if n != 2 {
		t.Fatalf("%d prompts in the golden, want 2", n)
	}
}

func airClient(t *testing.T, capabilities ...string) caps.Client {
	t.Helper()
	list, _ := json.Marshal(capabilities)
	return caps.Parse(json.RawMessage(`{"_meta":{"jetbrains":{"air":{"version":1,"capabilities":` + string(list) + `}}}}`))
}

// A repeated request id is ignored; without the capability nothing is.
func TestFileChangeRequestsOncePerIDAndOnlyWithTheCapability(t *testing.T) {
	r := newFileChanges(airClient(t, caps.AgentFileChangeReport), t.TempDir())
	if !r.checkpointsOn() {
		t.Fatal("checkpointing off with the capability")
	}
	if got := r.request(requestMeta(`{"version":1,"requestId":"a"}`)); got == nil || got.id != "a" {
		t.Fatalf("first request: %v", got)
	}
	if got := r.request(requestMeta(`{"version":1,"requestId":"a"}`)); got != nil {
		t.Errorf("repeated id accepted")
	}
	if got := r.request(requestMeta(`{"version":1,"requestId":"a","x":1}`)); got != nil {
		t.Errorf("malformed accepted")
	}
	if got := r.request(requestMeta(`{"version":1,"requestId":"b"}`)); got == nil {
		t.Errorf("a new id refused")
	}
	for _, c := range []caps.Client{airClient(t, caps.DiffPatch), caps.Parse(json.RawMessage(`{}`))} {
		off := newFileChanges(c, t.TempDir())
		if off.checkpointsOn() || off.request(requestMeta(`{"version":1,"requestId":"a"}`)) != nil {
			t.Errorf("report on without the capability")
		}
		off.setRoots("/x", nil) // a nil state takes no roots and does not panic
	}
}

func rawStrings(list ...any) []json.RawMessage {
	var out []json.RawMessage
	for _, v := range list {
		b, _ := json.Marshal(v)
		out = append(out, b)
	}
	return out
}

// canonicalTemp is a temporary directory without symbolic links in its
// path (the filters compare canonical paths).
func canonicalTemp(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Contract "Report": canonical absolute paths inside a root, not a root,
// no control characters, at most 4,096 characters; dropping sets
// truncated, a repeat does not.
func TestReportedPathFilters(t *testing.T) {
	base := canonicalTemp(t)
	cwd, extra, outside := filepath.Join(base, "work"), filepath.Join(base, "extra"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(cwd, "src"), extra, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(base, "link") // a symbolic link to the cwd
	if err := os.Symlink(cwd, link); err != nil {
		t.Fatal(err)
	}
	r := &fileChanges{}
	r.setRoots(link, []string{"../extra", extra, "../missing/dir"})
	wantRoots := []string{cwd, extra, filepath.Join(base, "missing", "dir")}
	if !reflect.DeepEqual(r.roots, wantRoots) {
		t.Fatalf("roots %v, want %v", r.roots, wantRoots)
	}
	maxName := strings.Repeat("é", fileChangeMaxPathLen-len(cwd)-1) // é is one UTF-16 unit
	cases := []struct {
		name      string
		in        []any
		want      []string
		truncated bool
	}{
		{"kept", []any{cwd + "/src/a.ts", "src/b.ts", link + "/src/c.ts", extra + "/d.ts", "new/dir/e.ts"},
			[]string{cwd + "/src/a.ts", cwd + "/src/b.ts", cwd + "/src/c.ts", extra + "/d.ts", cwd + "/new/dir/e.ts"}, false},
		{"repeat", []any{"src/a.ts", cwd + "/src/a.ts", "./src/../src/a.ts"}, []string{cwd + "/src/a.ts"}, false},
		{"outside", []any{outside + "/x", "../outside/y", "/etc/passwd", "src/a.ts"}, []string{cwd + "/src/a.ts"}, true},
		{"root", []any{cwd, link, extra + "/", "."}, nil, true},
		{"control", []any{"src/a\tb", "src/\x7f", "src/\u0085", "src/ok"}, []string{cwd + "/src/ok"}, true},
		{"blank", []any{"", "  ", "\ufeff"}, nil, true},
		{"not a string", []any{7, nil, map[string]any{}}, nil, true},
		{"length", []any{cwd + "/" + maxName, cwd + "/" + maxName + "x"}, []string{cwd + "/" + maxName}, true},
		{"astral", []any{cwd + "/" + strings.Repeat("😀", (fileChangeMaxPathLen-len(cwd))/2+1)}, nil, true},
	}
	for _, c := range cases {
		got, truncated := reportedPaths(rawStrings(c.in...), r.roots)
		if !reflect.DeepEqual(got, c.want) || truncated != c.truncated {
			t.Errorf("%s: got %v %v, want %v %v", c.name, got, truncated, c.want, c.truncated)
		}
	}
}

// Contract "Report": at most 1,024 paths and 256 KiB of paths.
func TestReportedPathLimits(t *testing.T) {
	cwd := canonicalTemp(t)
	var in []any
	for i := range fileChangeMaxPaths + 1 {
		in = append(in, fmt.Sprintf("f%d", i))
	}
	in = append(in, "f0") // a repeat after the limit is not a drop
	paths, truncated := reportedPaths(rawStrings(in...), []string{cwd})
	if len(paths) != fileChangeMaxPaths || !truncated || paths[fileChangeMaxPaths-1] != cwd+"/f1023" {
		t.Errorf("1,025 paths: kept %d, truncated %v", len(paths), truncated)
	}

	long := strings.Repeat("x", 4000-len(cwd)) // 4,001-byte paths: 65 fit in 256 KiB
	in = nil
	for i := range 70 {
		in = append(in, fmt.Sprintf("%s%03d", long, i))
	}
	in = append(in, "short") // still fits after the long ones stop fitting
	paths, truncated = reportedPaths(rawStrings(in...), []string{cwd})
	bytes := 0
	for _, p := range paths {
		bytes += len(p)
	}
	if len(paths) != 66 || !truncated || bytes > fileChangeMaxBytes || paths[65] != cwd+"/short" {
		t.Errorf("long paths: kept %d (%d bytes), truncated %v", len(paths), bytes, truncated)
	}
}

// Contract "Report": the serialized report has at most 256 KiB; paths come
// off its end until it fits, and it is then truncated. Paths whose JSON
// escapes double their size need that.
func TestFileChangeReportFitsIn256KiB(t *testing.T) {
	var paths []string
	for i := range 40 {
		paths = append(paths, fmt.Sprintf("/w/%04d", i)+strings.Repeat(`"\`, 2000))
	}
	report := fitFileChangeReport("r", paths, false)
	b, _ := json.Marshal(report)
	kept := report["paths"].([]string)
	if len(b) > fileChangeMaxBytes || report["truncated"] != true || len(kept) == len(paths) {
		t.Fatalf("%d bytes, truncated %v, %d paths", len(b), report["truncated"], len(kept))
	}
	more := fitFileChangeReport("r", paths[:len(kept)+1], true)
	if b, _ := json.Marshal(map[string]any{"version": 1, "requestId": "r", "status": "reported",
		"paths": paths[:len(kept)+1], "declaredComplete": false, "truncated": true}); len(b) <= fileChangeMaxBytes {
		t.Errorf("one more path would still fit (%d bytes)", len(b))
	}
	if len(more["paths"].([]string)) != len(kept) {
		t.Errorf("not the longest prefix that fits")
	}
	small := fitFileChangeReport("r", []string{"/w/a"}, false)
	if small["truncated"] != false || small["declaredComplete"] != false || len(small["paths"].([]string)) != 1 {
		t.Errorf("small report: %v", small)
	}
	if empty, _ := json.Marshal(fitFileChangeReport("r", nil, false)); !strings.Contains(string(empty), `"paths":[]`) {
		t.Errorf("an empty list is sent as []: %s", empty)
	}
}

// The golden's report is what the filters make of the CLI's dry-run
// answer in its cassette.
func TestFileChangeReportMatchesTheGolden(t *testing.T) {
	cassette, err := os.ReadFile(filepath.Join(repoRoot(t), "goldens", "file-change-report-reported", "air.cassette"))
	if err != nil {
		t.Fatal(err)
	}
	var files []json.RawMessage
	for _, l := range strings.Split(string(cassette), "\n") {
		var f struct {
			Msg struct {
				Response struct {
					Response rewindPreview `json:"response"`
				} `json:"response"`
			} `json:"msg"`
		}
		if strings.Contains(l, `"filesChanged"`) && json.Unmarshal([]byte(l), &f) == nil {
			files = f.Msg.Response.Response.FilesChanged
		}
	}
	if files == nil {
		t.Fatal("no dry-run answer in the cassette")
	}
	cwd := canonicalTemp(t)
	for i, f := range files {
		files[i] = json.RawMessage(strings.ReplaceAll(string(f), "{{cwd}}", cwd))
	}
	paths, truncated := reportedPaths(files, []string{cwd})
	got, _ := json.Marshal(map[string]any{"sessionUpdate": "session_info_update", "_meta": map[string]any{
		"jetbrains": map[string]any{"air": map[string]any{"version": 1,
			caps.AgentFileChangeReport: fitFileChangeReport("report-1", paths, truncated)}}}})
	want := goldenUpdate(t, "file-change-report-reported", "air", `"agentFileChangeReport":{`)
	var gotUpdate any
	_ = json.Unmarshal([]byte(strings.ReplaceAll(string(got), cwd, "<cwd>")), &gotUpdate)
	if !reflect.DeepEqual(gotUpdate, want) {
		t.Errorf("got  %v\nwant %v", gotUpdate, want)
	}
}

// fakeRewind is the test CLI's answer to a rewind_files request in the
// file-change modes (ok reports it handled the request; "" leaves it
// unanswered): "interruptible" ends its turn at the interrupt;
// "rewind-ok" lists files when checkpointing is on and the
// request names the last prompt, "rewind-error" fails, "rewind-hang" never
// answers; any other mode answers {} (no file list).
func fakeRewind(mode string, line []byte, prompt string) (string, bool) {
	var m struct {
		RequestID string `json:"request_id"`
		Request   struct {
			Subtype       string `json:"subtype"`
			UserMessageID string `json:"user_message_id"`
			DryRun        bool   `json:"dry_run"`
		} `json:"request"`
	}
	success := func(body string) string {
		return fmt.Sprintf(`{"type":"control_response","response":{"subtype":"success","request_id":%q,"response":%s}}`, m.RequestID, body)
	}
	if json.Unmarshal(line, &m) == nil && (mode == "interruptible" || mode == "ask-then-wait") && m.Request.Subtype == "interrupt" {
		return success(`{}`) + "\n" + `{"type":"result","subtype":"error_during_execution","is_error":false}`, true
	}
	if m.Request.Subtype != "rewind_files" {
		return "", false
	}
	cwd, _ := os.Getwd()
	switch mode {
	case "rewind-ok":
		if os.Getenv("CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING") != "true" || m.Request.UserMessageID != prompt || !m.Request.DryRun {
			return success(`{"canRewind":false,"error":"no checkpoint"}`), true
		}
		files, _ := json.Marshal([]string{cwd + "/a.txt", "b/c.txt", "/etc/passwd", cwd})
		return success(`{"canRewind":true,"filesChanged":` + string(files) + `,"insertions":1,"deletions":0}`), true
	case "rewind-error":
		return fmt.Sprintf(`{"type":"control_response","response":{"subtype":"error","request_id":%q,"error":"no checkpoint"}}`, m.RequestID), true
	case "rewind-hang":
		return "", true
	}
	return success(`{}`), true
}

// openAIRSession opens a session of an AIR client that declared the
// file-change report, in cwd.
func (e *editor) openAIRSession(cwd string) string {
	e.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"_meta":{"jetbrains":{"air":{"version":1,"capabilities":["agentFileChangeReport"]}}}}}}`)
	e.reply(0)
	e.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + cwd + `","mcpServers":[]}}`)
	res, _ := e.reply(1)["result"].(map[string]any)
	id, _ := res["sessionId"].(string)
	if id == "" {
		e.t.Fatal("session/new failed")
	}
	return id
}

// reportBefore sends a prompt with request id and returns the file-change
// report that came before its response (nil for none) and the response.
func (e *editor) reportBefore(id float64, session, requestID string) (map[string]any, map[string]any) {
	e.t.Helper()
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"hi"}],`+
		`"_meta":{"jetbrains":{"air":{"agentFileChangeReportRequest":{"version":1,"requestId":%q}}}}}}`, id, session, requestID))
	var report map[string]any
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m := <-e.lines:
			if m["id"] == id && m["method"] == nil {
				return report, m
			}
			b, _ := json.Marshal(m)
			if strings.Contains(string(b), `"agentFileChangeReport"`) {
				if report != nil {
					e.t.Errorf("a second report: %s", b)
				}
				var u struct {
					Params struct {
						Update struct {
							Meta struct {
								JetBrains struct {
									AIR map[string]any `json:"air"`
								} `json:"jetbrains"`
							} `json:"_meta"`
						} `json:"update"`
					} `json:"params"`
				}
				_ = json.Unmarshal(b, &u)
				report, _ = u.Params.Update.Meta.JetBrains.AIR[caps.AgentFileChangeReport].(map[string]any)
			}
		case <-timeout:
			e.t.Fatalf("no reply to %v within 10s", id)
		}
	}
}

// End to end against the test CLI: the report of each outcome comes
// before the response and does not change it.
func TestFileChangeReportOutcomes(t *testing.T) {
	defer func(d time.Duration) { fileChangeTimeout = d }(fileChangeTimeout)
	fileChangeTimeout = 300 * time.Millisecond
	for mode, want := range map[string]map[string]any{
		"rewind-ok":    {"status": "reported", "declaredComplete": false, "truncated": true},
		"rewind-error": {"status": "unavailable", "reason": "providerError"},
		"rewind-hang":  {"status": "unavailable", "reason": "timeout"},
		"rewind-empty": {"status": "unavailable", "reason": "invalidOutput"},
		"turn-fails":   {"status": "unavailable", "reason": "providerError"},
	} {
		t.Run(mode, func(t *testing.T) {
			e := startAgent(t, mode)
			cwd := canonicalTemp(t)
			sid := e.openAIRSession(cwd)
			report, resp := e.reportBefore(2, sid, "req-"+mode)
			if resp["error"] != nil && mode != "turn-fails" {
				t.Fatalf("prompt failed: %v", resp)
			}
			if report == nil {
				t.Fatal("no report before the response")
			}
			want["version"], want["requestId"] = 1.0, "req-"+mode
			if mode == "rewind-ok" {
				want["paths"] = []any{cwd + "/a.txt", cwd + "/b/c.txt"}
			}
			if !reflect.DeepEqual(report, want) {
				t.Errorf("report %v\nwant   %v", report, want)
			}
			if mode != "rewind-ok" {
				return
			}
			again, resp := e.reportBefore(3, sid, "req-"+mode)
			if again != nil || resp["result"] == nil {
				t.Errorf("a repeated request id got %v (%v)", again, resp)
			}
		})
	}
}

// A cancelled prompt reports `cancelled` before its cancelled response.
func TestFileChangeReportCancelled(t *testing.T) {
	e := startAgent(t, "interruptible")
	sid := e.openAIRSession(canonicalTemp(t))
	go func() {
		time.Sleep(300 * time.Millisecond)
		e.send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"` + sid + `"}}`)
	}()
	report, resp := e.reportBefore(2, sid, "c1")
	res, _ := resp["result"].(map[string]any)
	if res["stopReason"] != "cancelled" || report["status"] != "unavailable" || report["reason"] != "cancelled" {
		t.Errorf("report %v, response %v", report, resp)
	}
}

// A cancel while the checkpoint preview runs ends the wait at once: the
// report says cancelled and the prompt ends cancelled.
func TestFileChangeCancelDuringPreview(t *testing.T) {
	defer func(d time.Duration) { fileChangeTimeout = d }(fileChangeTimeout)
	fileChangeTimeout = time.Minute
	e := startAgent(t, "rewind-hang")
	sid := e.openAIRSession(canonicalTemp(t))
	go func() {
		time.Sleep(300 * time.Millisecond)
		e.send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"` + sid + `"}}`)
	}()
	start := time.Now()
	report, resp := e.reportBefore(2, sid, "p1")
	res, _ := resp["result"].(map[string]any)
	if res["stopReason"] != "cancelled" || report["reason"] != "cancelled" || time.Since(start) > 5*time.Second {
		t.Errorf("report %v, response %v after %v", report, resp, time.Since(start))
	}
}

// A session without the capability has no file-change reports: a failed
// turn's report of its active request is then nothing, not a crash.
func TestFileChangesActiveUnavailableWithoutCapability(t *testing.T) {
	var f *fileChanges
	f.activeUnavailable(fileChangeProviderError)
	f.unavailable(nil, fileChangeCancelled)
}
