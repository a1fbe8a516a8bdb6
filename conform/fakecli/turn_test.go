package fakecli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const toolScript = `
turns:
  - steps:
      - tool:
          name: Write
          input: {file_path: "{{cwd}}/a.txt", content: "hi\n"}
          permission: ask
          blockedPath: "{{cwd}}/a.txt"
          decisionReason: "Write needs approval"
          suggestions: [{type: setMode, mode: acceptEdits, destination: session}]
          hooks: [PreToolUse, PostToolUse]
          writeFile: {path: a.txt, content: "hi\n"}
          result: "File created successfully"
      - text: "Done."
`

// initHooks registers PreToolUse and PostToolUse callbacks like the adapter.
func initHooks(p *proc) {
	p.control("init", map[string]any{"subtype": "initialize", "hooks": map[string]any{
		"PreToolUse":  []any{map[string]any{"hookCallbackIds": []any{"hook_3"}}},
		"PostToolUse": []any{map[string]any{"hookCallbackIds": []any{"hook_4", "hook_5"}}},
	}})
	p.response("init")
}

func TestToolCallAllowed(t *testing.T) {
	p := start(t, streamArgv, toolScript)
	initHooks(p)
	p.prompt("write it")
	var seen []map[string]any
	var canUse map[string]any
	for {
		f := p.next()
		seen = append(seen, f)
		if f["type"] == "control_request" {
			req := f["request"].(map[string]any)
			if req["subtype"] == "can_use_tool" {
				canUse = req
				p.answer(f, map[string]any{"behavior": "allow", "updatedInput": req["input"], "toolUseID": req["tool_use_id"]})
			} else {
				p.answer(f, map[string]any{"continue": true})
			}
		}
		if isIdle(f) {
			break
		}
	}
	want := "state:running system:init status:requesting " +
		"event:message_start event:content_block_start event:content_block_delta event:content_block_delta assistant hook:PreToolUse event:content_block_stop event:message_delta event:message_stop " +
		"state:requires_action request:can_use_tool state:running hook:PostToolUse hook:PostToolUse user " +
		"status:requesting event:message_start event:content_block_start event:content_block_delta event:content_block_delta assistant event:content_block_stop event:message_delta event:message_stop " +
		"result:success state:idle"
	if got := labels(seen); got != want {
		t.Fatalf("frame order:\n got %s\nwant %s", got, want)
	}
	cwd, _ := filepath.EvalSymlinks(p.cwd)
	if canUse["tool_use_id"] != "toolu_write" || canUse["blocked_path"] != cwd+"/a.txt" || canUse["decision_reason"] != "Write needs approval" {
		t.Errorf("can_use_tool = %v", canUse)
	}
	if s, _ := canUse["permission_suggestions"].([]any); len(s) != 1 {
		t.Errorf("permission_suggestions = %v", canUse["permission_suggestions"])
	}
	if b, err := os.ReadFile(filepath.Join(p.cwd, "a.txt")); err != nil || string(b) != "hi\n" {
		t.Errorf("tool file = %q, %v", b, err)
	}
	res := seen[len(seen)-2]
	if res["result"] != "Done." || res["num_turns"] != float64(2) || len(res["permission_denials"].([]any)) != 0 {
		t.Errorf("result = %v", res)
	}
	// The hook input carries the tool and the common fields.
	for _, f := range seen {
		if label(f) == "hook:PostToolUse" {
			in := f["request"].(map[string]any)["input"].(map[string]any)
			if in["tool_name"] != "Write" || in["session_id"] != testSession || in["tool_response"] != "File created successfully" {
				t.Errorf("PostToolUse input = %v", in)
			}
		}
	}
}

func TestToolCallDenied(t *testing.T) {
	p := start(t, streamArgv, toolScript)
	initHooks(p)
	p.prompt("write it")
	var seen []map[string]any
	for {
		f := p.next()
		seen = append(seen, f)
		if f["type"] == "control_request" {
			req := f["request"].(map[string]any)
			if req["subtype"] == "can_use_tool" {
				p.answer(f, map[string]any{"behavior": "deny", "message": "User refused", "toolUseID": req["tool_use_id"]})
			} else {
				p.answer(f, map[string]any{"continue": true})
			}
		}
		if isIdle(f) {
			break
		}
	}
	got := labels(seen)
	if strings.Contains(got, "hook:PostToolUse") {
		t.Errorf("a denied tool must not run its PostToolUse hook: %s", got)
	}
	if _, err := os.Stat(filepath.Join(p.cwd, "a.txt")); err == nil {
		t.Error("a denied tool wrote its file")
	}
	var toolResult map[string]any
	for _, f := range seen {
		if f["type"] == "user" {
			toolResult = f["message"].(map[string]any)["content"].([]any)[0].(map[string]any)
		}
	}
	if toolResult["content"] != "User refused" || toolResult["is_error"] != true {
		t.Errorf("tool_result = %v", toolResult)
	}
	res := seen[len(seen)-2]
	d := res["permission_denials"].([]any)
	if len(d) != 1 || d[0].(map[string]any)["tool_use_id"] != "toolu_write" {
		t.Errorf("permission_denials = %v", res["permission_denials"])
	}
}

func TestInterruptDuringPause(t *testing.T) {
	p := start(t, streamArgv, "turns: [{steps: [{text: partial}, {pause: {until: interrupt}}, {text: never}]}]\n")
	p.prompt("go")
	p.until(func(f map[string]any) bool { return f["type"] == "assistant" })
	p.control("int", map[string]any{"subtype": "interrupt"})
	fs := p.until(isIdle)
	got := labels(fs)
	if !strings.Contains(got, "user result:error_during_execution state:idle") {
		t.Fatalf("interrupted turn ended with %s", got)
	}
	for _, f := range fs {
		if f["type"] == "result" && f["terminal_reason"] != "aborted_streaming" {
			t.Errorf("terminal_reason = %v", f["terminal_reason"])
		}
		if f["type"] == "assistant" {
			t.Errorf("the step after the pause ran: %v", f)
		}
	}
}

func TestInterruptWithdrawsPendingPermission(t *testing.T) {
	p := start(t, streamArgv, "turns: [{steps: [{tool: {name: Bash, input: {command: ls}, permission: ask}}]}]\n")
	p.prompt("go")
	fs := p.until(func(f map[string]any) bool { return label(f) == "request:can_use_tool" })
	reqID := fs[len(fs)-1]["request_id"]
	p.control("int", map[string]any{"subtype": "interrupt"})
	rest := p.until(isIdle)
	var cancelled bool
	for _, f := range rest {
		cancelled = cancelled || (f["type"] == "control_cancel_request" && f["request_id"] == reqID)
	}
	if !cancelled {
		t.Errorf("no control_cancel_request for %v in %s", reqID, labels(rest))
	}
}

func TestReplayUserMessages(t *testing.T) {
	p := start(t, append(append([]string{}, streamArgv...), "--replay-user-messages", ""),
		"turns: [{steps: [{tool: {name: Bash, input: {command: ls}, permission: ask}}]}]\n")
	p.send(map[string]any{"type": "user", "uuid": "client-uuid", "message": map[string]any{"role": "user", "content": "hello"}})
	fs := p.until(func(f map[string]any) bool { return label(f) == "request:can_use_tool" })
	if got := labels(fs[:6]); got != "state:running command_lifecycle command_lifecycle system:init status:requesting user" {
		t.Fatalf("turn opening = %s", got)
	}
	if fs[1]["state"] != "queued" || fs[2]["state"] != "started" || fs[1]["command_uuid"] != "client-uuid" {
		t.Errorf("lifecycle = %v, %v", fs[1], fs[2])
	}
	if u, _ := fs[4]["user_message_uuids"].([]any); len(u) != 1 || u[0] != "client-uuid" {
		t.Errorf("status user_message_uuids = %v", fs[4]["user_message_uuids"])
	}
	if echo := fs[5]; echo["isReplay"] != true || echo["message"].(map[string]any)["content"] != "hello" || echo["uuid"] != "client-uuid" {
		t.Errorf("echo = %v", echo)
	}
	for _, f := range fs {
		if f["type"] == "system" && f["subtype"] == "session_state_changed" {
			if _, ok := f["sdk_host_only"]; ok {
				t.Errorf("session_state_changed carries sdk_host_only: %v", f)
			}
		}
	}
	req := fs[len(fs)-1]
	p.answer(req, map[string]any{"behavior": "allow", "updatedInput": map[string]any{"command": "ls"}})
	echoed := p.next()
	if echoed["type"] != "control_response" || echoed["response"].(map[string]any)["request_id"] != req["request_id"] {
		t.Errorf("control_response not echoed first: %v", echoed)
	}
}

func TestQueuedPromptsRunInOrder(t *testing.T) {
	p := start(t, streamArgv, `
turns:
  - match: first
    steps: [{text: one}, {pause: {until: prompt}}, {text: one-end}]
  - match: second
    steps: [{text: two}]
`)
	p.prompt("first")
	p.until(func(f map[string]any) bool { return f["type"] == "assistant" })
	p.prompt("second")
	// The real CLI goes from the first turn's result straight into the
	// queued prompt: no idle/running pair between them.
	fs := p.until(isIdle)
	var results []string
	for _, f := range fs {
		if f["type"] == "result" {
			results = append(results, f["result"].(string))
		}
		if len(results) == 1 && f["type"] == "system" && f["subtype"] == "session_state_changed" {
			t.Errorf("state change between queued prompts: %v", f["state"])
		}
	}
	if strings.Join(results, ",") != "one-end,two" {
		t.Errorf("results = %q", results)
	}
}

func TestPauseUntilControl(t *testing.T) {
	p := start(t, streamArgv, `
turns:
  - steps:
      - system: {subtype: task_started, task_id: t1, description: bg}
      - pause: {until: "control:stop_task"}
      - system: {subtype: task_notification, task_id: t1, status: stopped, output_file: "", summary: stopped}
`)
	p.prompt("go")
	p.until(func(f map[string]any) bool { return f["subtype"] == "task_started" })
	p.control("s", map[string]any{"subtype": "stop_task", "task_id": "t1"})
	fs := p.until(isIdle)
	got := labels(fs)
	if !strings.Contains(got, "system:task_notification result:success state:idle") {
		t.Errorf("after stop_task: %s", got)
	}
}

// A next-pause waits for a request sent after the step before it, not one
// the host sent earlier; atMost lets the turn go on without it.
func TestPauseForTheNextControl(t *testing.T) {
	p := start(t, streamArgv, `
turns:
  - steps:
      - system: {subtype: task_started, task_id: t1, description: bg}
      - pause: {until: "control:stop_task", next: true}
      - text: after
  - steps:
      - system: {subtype: task_started, task_id: t2, description: bg}
      - pause: {until: "control:stop_task", next: true, atMost: 10ms}
      - text: bounded
`)
	p.control("early", map[string]any{"subtype": "stop_task", "task_id": "t0"})
	p.response("early")
	p.prompt("go")
	p.until(func(f map[string]any) bool { return f["subtype"] == "task_started" })
	// The request that came before the prompt does not end the pause: no
	// text comes while the host sends nothing.
	select {
	case f := <-p.frames:
		t.Fatalf("the turn went on before the next request: %s", label(f))
	case <-time.After(300 * time.Millisecond):
	}
	p.control("late", map[string]any{"subtype": "stop_task", "task_id": "t1"})
	got := labels(p.until(isIdle))
	if !strings.Contains(got, "control_response") || !strings.Contains(got, "result:success state:idle") {
		t.Errorf("after the next request: %s", got)
	}
	p.prompt("again")
	if got := labels(p.until(isIdle)); !strings.Contains(got, "result:success state:idle") {
		t.Errorf("the bounded pause did not let the turn go on: %s", got)
	}
}

func TestTranscriptResumeAndFork(t *testing.T) {
	p := start(t, streamArgv, "turns: [{steps: [{text: answer}]}]\n")
	p.prompt("question")
	p.until(isIdle)
	rows := readTranscript(t, p, testSession)
	var types []string
	for _, r := range rows {
		types = append(types, r["type"].(string))
	}
	if strings.Join(types, ",") != "user,assistant,last-prompt" {
		t.Fatalf("rows = %v", types)
	}
	if rows[1]["parentUuid"] != rows[0]["uuid"] || rows[2]["leafUuid"] != rows[1]["uuid"] || rows[2]["lastPrompt"] != "question" {
		t.Errorf("rows are not linked: %v", rows)
	}

	// A second process resumes the same file and appends to it.
	fork := "aaaaaaaa-0000-4000-8000-000000000001"
	home, cwd := p.home, p.cwd
	p.stdin.Close()
	<-p.code
	run := func(argv []string, prompt string) {
		t.Helper()
		in := &bytes.Buffer{}
		b, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": prompt}})
		in.Write(append(b, '\n'))
		env := map[string]string{"HOME": home, "CLAUDE_CONFIG_DIR": filepath.Join(home, ".claude")}
		code := Run(context.Background(), Options{Args: argv, In: in, Out: io.Discard, ErrOut: io.Discard, Getenv: func(k string) string { return env[k] }, Cwd: cwd})
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
	}
	base := []string{"--output-format", "stream-json", "--verbose", "--input-format", "stream-json"}
	run(append(append([]string{}, base...), "--resume", testSession), "again")
	if n := len(readTranscript(t, p, testSession)); n != 6 {
		t.Errorf("after resume the file has %d rows, want 6", n)
	}
	run(append(append([]string{}, base...), "--resume", testSession, "--fork-session", "--session-id", fork), "forked")
	frows := readTranscript(t, p, fork)
	if len(frows) != 9 {
		t.Fatalf("fork has %d rows, want 9 (6 copied + 3 new)", len(frows))
	}
	for _, r := range frows {
		if sid, ok := r["sessionId"]; ok && sid != fork {
			t.Errorf("fork row keeps sessionId %v", sid)
		}
	}
	if ff, _ := frows[0]["forkedFrom"].(map[string]any); ff["sessionId"] != testSession {
		t.Errorf("forkedFrom = %v", frows[0]["forkedFrom"])
	}
}

func TestExitOnEOFAndSignal(t *testing.T) {
	t.Run("stdin EOF", func(t *testing.T) {
		p := start(t, streamArgv, "")
		p.stdin.Close()
		p.wantExit(0, "no exit after EOF")
	})
	t.Run("SIGTERM while a turn waits", func(t *testing.T) {
		p := start(t, streamArgv, "turns: [{steps: [{pause: {until: interrupt}}]}]\n")
		p.prompt("wait")
		p.until(func(f map[string]any) bool { return label(f) == "status:requesting" })
		p.cancel()
		p.wantExit(0, "no exit after SIGTERM")
	})
	t.Run("exit step", func(t *testing.T) {
		p := start(t, streamArgv, "turns: [{steps: [{text: bye}, {exit: {code: 3, stderr: lost}}]}]\n")
		p.prompt("go")
		p.wantExit(3, "no exit")
	})
}

func TestAuthStatus(t *testing.T) {
	tests := []struct {
		name, script string
		wantCode     int
		wantLogged   bool
	}{
		{name: "logged in with an API key", wantCode: 0, wantLogged: true},
		{name: "scripted logout", script: "auth: {loggedIn: false, authMethod: none}\n", wantCode: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			env := map[string]string{"HOME": dir}
			if tt.script != "" {
				path := filepath.Join(dir, "s.yaml")
				os.WriteFile(path, []byte(tt.script), 0o644)
				env[EnvScript] = path
			}
			var out bytes.Buffer
			code := Run(context.Background(), Options{Args: []string{"auth", "status", "--json"}, In: strings.NewReader(""), Out: &out, ErrOut: io.Discard, Getenv: func(k string) string { return env[k] }, Cwd: dir})
			var st map[string]any
			if err := json.Unmarshal(out.Bytes(), &st); err != nil {
				t.Fatalf("output %q: %v", out.String(), err)
			}
			if code != tt.wantCode || st["loggedIn"] != tt.wantLogged {
				t.Errorf("code %d loggedIn %v", code, st["loggedIn"])
			}
			if tt.script == "" {
				if st["configDirectory"] != filepath.Join(dir, ".claude") || st["apiKeySource"] != "ANTHROPIC_API_KEY" {
					t.Errorf("status = %v", st)
				}
				// The real CLI's key order.
				if !strings.HasPrefix(out.String(), "{\n  \"loggedIn\": true,\n  \"authMethod\": \"api_key\",\n  \"apiProvider\"") {
					t.Errorf("output = %q", out.String())
				}
			}
		})
	}
}

func TestDenyWithInterruptEndsTurnAtToolUse(t *testing.T) {
	p := start(t, streamArgv, "turns: [{steps: [{tool: {name: ExitPlanMode, input: {plan: p}, permission: ask}}, {text: never}]}]\n")
	p.prompt("plan")
	fs := p.until(func(f map[string]any) bool { return label(f) == "request:can_use_tool" })
	p.answer(fs[len(fs)-1], map[string]any{"behavior": "deny", "message": "keep planning", "interrupt": true})
	rest := p.until(isIdle)
	var res, marker map[string]any
	for _, f := range rest {
		switch f["type"] {
		case "result":
			res = f
		case "user":
			if c := f["message"].(map[string]any)["content"].([]any)[0].(map[string]any); c["type"] == "text" {
				marker = c
			}
		case "assistant":
			t.Errorf("the step after an interrupting deny ran: %v", f)
		}
	}
	if marker["text"] != "[Request interrupted by user for tool use]" {
		t.Errorf("marker = %v", marker)
	}
	errs, _ := res["errors"].([]any)
	if res["subtype"] != "error_during_execution" || len(errs) != 1 || !strings.Contains(errs[0].(string), "stop_reason=tool_use") {
		t.Errorf("result = %v", res)
	}
}

func TestSkipHooksMutation(t *testing.T) {
	tests := []struct {
		name     string
		skip     string
		wantHook bool
	}{
		{name: "hooks sent", skip: "", wantHook: true},
		{name: "PostToolUse skipped", skip: "PostToolUse", wantHook: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := startEnv(t, streamArgv, "turns: [{steps: [{tool: {name: Read, input: {file_path: /a}, result: x}}]}]\n", map[string]string{EnvSkipHooks: tt.skip})
			initHooks(p)
			p.prompt("read")
			var got bool
			for {
				f := p.next()
				if label(f) == "hook:PostToolUse" {
					got = true
				}
				if strings.HasPrefix(label(f), "hook:") {
					p.answer(f, map[string]any{"continue": true})
				}
				if isIdle(f) {
					break
				}
			}
			if got != tt.wantHook {
				t.Errorf("PostToolUse hook sent = %v, want %v", got, tt.wantHook)
			}
		})
	}
}

func TestModeChangeDuringTurn(t *testing.T) {
	p := start(t, streamArgv, `
turns:
  - steps:
      - text: "before"
      - pause: {until: "control:set_permission_mode"}
      - hook: {event: PostToolUse, input: {tool_name: Bash}}
`)
	initHooks(p)
	p.prompt("go")
	p.until(func(f map[string]any) bool { return f["type"] == "assistant" })
	p.control("m", map[string]any{"subtype": "set_permission_mode", "mode": "acceptEdits"})
	fs := p.until(func(f map[string]any) bool { return label(f) == "hook:PostToolUse" })
	hook := fs[len(fs)-1]
	in := hook["request"].(map[string]any)["input"].(map[string]any)
	if in["permission_mode"] != "acceptEdits" {
		t.Errorf("hook permission_mode = %v, want the mode set during the turn", in["permission_mode"])
	}
	p.answer(hook, map[string]any{"continue": true})
	p.answer(p.until(func(f map[string]any) bool { return label(f) == "hook:PostToolUse" })[0], map[string]any{"continue": true})
	p.until(isIdle)
}

func TestAPIErrorFraming(t *testing.T) {
	p := start(t, append(append([]string{}, streamArgv...), "--replay-user-messages", ""), `
turns:
  - steps:
      - system: {subtype: api_retry, attempt: 1, max_retries: 1, retry_delay_ms: 500, error_status: 529, error: overloaded}
      - apiError: {status: 529}
`)
	p.send(map[string]any{"type": "user", "uuid": "u1", "message": map[string]any{"role": "user", "content": "go"}})
	fs := p.until(isIdle)
	want := "state:running command_lifecycle command_lifecycle system:init status:requesting system:api_retry user assistant result:success command_lifecycle state:idle"
	if got := labels(fs); got != want {
		t.Fatalf("frames:\n got %s\nwant %s", got, want)
	}
	msg, res, end := fs[7], fs[8], fs[9]
	if msg["message"].(map[string]any)["model"] != "<synthetic>" || msg["error"] != "server_error" || msg["is_api_error_message"] != true {
		t.Errorf("synthetic message = %v", msg)
	}
	if res["is_error"] != true || res["stop_reason"] != "stop_sequence" || res["terminal_reason"] != "api_error" ||
		!strings.HasPrefix(res["result"].(string), "API Error: 529 Overloaded. This is a server-side issue") {
		t.Errorf("result = %v", res)
	}
	if end["state"] != "cancelled" {
		t.Errorf("lifecycle end = %v", end)
	}
}

func TestInterruptWithPermissionOpen(t *testing.T) {
	p := start(t, streamArgv, "turns: [{steps: [{tool: {name: Bash, input: {command: rm}, permission: ask, hooks: []}}, {text: never}]}]\n")
	p.prompt("go")
	p.until(func(f map[string]any) bool { return label(f) == "request:can_use_tool" })
	p.control("int", map[string]any{"subtype": "interrupt"})
	fs := p.until(isIdle)
	var refused, marker, res map[string]any
	for _, f := range fs {
		switch f["type"] {
		case "user":
			c := f["message"].(map[string]any)["content"].([]any)[0].(map[string]any)
			if c["type"] == "tool_result" {
				refused = f
			} else {
				marker = c
			}
		case "result":
			res = f
		}
	}
	if refused == nil || refused["message"].(map[string]any)["content"].([]any)[0].(map[string]any)["is_error"] != true {
		t.Fatalf("no refused tool_result in %s", labels(fs))
	}
	meta := refused["tool_result_meta"].([]any)[0].(map[string]any)
	if meta["non_execution_kind"] != "user-rejected" {
		t.Errorf("tool_result_meta = %v", meta)
	}
	if marker["text"] != "[Request interrupted by user for tool use]" {
		t.Errorf("marker = %v", marker)
	}
	if res["subtype"] != "error_during_execution" || res["stop_reason"] != "tool_use" || res["terminal_reason"] != "aborted_tools" {
		t.Errorf("result = %v", res)
	}
}
