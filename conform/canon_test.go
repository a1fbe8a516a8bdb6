package conform

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/journal"
)

func TestNormalizerLine(t *testing.T) {
	p := Paths{Root: "/tmp/aw-1", Cwd: "/tmp/aw-1/work", Home: "/tmp/aw-1/home", ConfigDir: "/tmp/aw-1/home/.claude",
		CLI: "/tmp/aw-1/bin/claude", Airwire: "/opt/airwire", Agent: []string{"/usr/bin/node", "/x/index.js", "--flag"}}
	const sid = "0b5c2a55-1111-4222-8333-444455556666"
	tests := []struct {
		name string
		in   string
		want string
	}{
		{name: "paths, longest first", in: `{"a":"/tmp/aw-1/work/x.ts","b":"/tmp/aw-1/home/.claude/projects/-tmp-aw-1-work/s.jsonl","c":"/tmp/aw-1/tmp/airwire-shim-123/claude","d":"/usr/bin/node","e":"--flag","f":"/tmp/aw-1/tmp/airwire-shim-4242-77/claude"}`,
			want: `{"a":"<cwd>/x.ts","b":"<config>/projects/<project-dir>/s.jsonl","c":"<tmp>/tmp/airwire-shim-N/claude","d":"<agent-argv-0>","e":"--flag","f":"<tmp>/tmp/airwire-shim-N/claude"}`},
		{name: "session ids and other uuids numbered apart", in: `{"sessionId":"` + sid + `","x":"AAAAAAAA-0000-4000-8000-000000000001","y":"aaaaaaaa-0000-4000-8000-000000000001 and ` + sid + `"}`,
			want: `{"sessionId":"<session-1>","x":"<uuid-1>","y":"<uuid-1> and <session-1>"}`},
		{name: "request ids", in: `{"request_id":"4eiunk3qx8g","response":{"request_id":"4eiunk3qx8g"},"z":{"request_id":"other"}}`,
			want: `{"request_id":"<req-1>","response":{"request_id":"<req-1>"},"z":{"request_id":"<req-2>"}}`},
		{name: "timestamps: wall clock replaced, scripted clock kept", in: `{"a":"2026-11-30T01:50:47.123Z","b":"2026-01-01T00:00:00.001Z","c":1764467447123,"d":1767225600001,"e":42}`,
			want: `{"a":"<timestamp>","b":"2026-01-01T00:00:00.001Z","c":"<epoch-ms>","d":1767225600001,"e":42}`},
		{name: "durations by key", in: `{"duration_ms":1234,"durationMs":5,"elapsedTimeSeconds":2,"timeout_ms":30000}`,
			want: `{"durationMs":"<duration>","duration_ms":"<duration>","elapsedTimeSeconds":"<duration>","timeout_ms":30000}`},
		{name: "the real CLI's per-run hash", in: `{"toolResponse":{"harnessSectionHash":"51d2d0dfb51ceaa8","status":"completed"}}`,
			want: `{"toolResponse":{"harnessSectionHash":"<hash>","status":"completed"}}`},
		{name: "agent version only under agentInfo", in: `{"agentInfo":{"name":"a","version":"0.101.0"},"version":1}`,
			want: `{"agentInfo":{"name":"a","version":"<agent-version>"},"version":1}`},
		{name: "cursors", in: `{"result":{"nextCursor":"eyJ2IjoxfQ=="},"params":{"cursor":"eyJ2IjoxfQ=="}}`,
			want: `{"params":{"cursor":"<cursor-1>"},"result":{"nextCursor":"<cursor-1>"}}`},
		{name: "ids the real CLI makes up, by key, then everywhere", in: `{"a":{"agentId":"a74ccbed12a3c2e9f"},"b":{"asyncTaskId":"bz45v0kfr","runId":"0mx481h7d-0704e0e3"},"c":"ID: bz45v0kfr at tasks/bz45v0kfr.output, agent a74ccbed12a3c2e9f","d":"background","e":"a74ccbed12a3c2e9"}`,
			want: `{"a":{"agentId":"<agent-1>"},"b":{"asyncTaskId":"<task-1>","runId":"<run-1>"},"c":"ID: <task-1> at tasks/<task-1>.output, agent <agent-1>","d":"background","e":"a74ccbed12a3c2e9"}`},
		{name: "a dynamic workflow's run id, in its paths too", in: `{"workflow_progress":[{"runId":"wf_40320578-0e3"}],"t":"Script file: /c/workflows/scripts/check-wf_40320578-0e3.js"}`,
			want: `{"t":"Script file: /c/workflows/scripts/check-<workflow-1>.js","workflow_progress":[{"runId":"<workflow-1>"}]}`},
		{name: "CLI text: subagent durations, plan files", in: `{"t":"tool_uses: 1\nduration_ms: 2232</usage>","p":"/h/.claude/plans/plan-a-fix-for-brave-otter.md"}`,
			want: `{"p":"/h/.claude/plans/<plan-file>.md","t":"tool_uses: 1\nduration_ms: <duration></usage>"}`},
		{name: "restored subagent generations", in: `{"subagentSessionId":"a9d369fae923f64f9:generation:1796141372319","b":"a9d369fae923f64f9:generation:2"}`,
			want: `{"b":"a9d369fae923f64f9:generation:2","subagentSessionId":"a9d369fae923f64f9:generation:<epoch-ms>"}`},
		{name: "a SendMessage resume: the id's prefix and the pin's ref", in: `{"text":"{\"success\":true,\"message\":\"Resuming agent abd15c5\",\"pin\":{\"id\":\"x\",\"ref\":\"1d797d\"}}"}`,
			want: `{"text":"{\"success\":true,\"message\":\"Resuming agent <agent-prefix>\",\"pin\":{\"id\":\"x\",\"ref\":\"<pin-ref>\"}}"}`},
		{name: "v2: the agent's version in the initialize answer's info", in: `{"result":{"info":{"name":"a","version":"0.101.0"},"protocolVersion":2}}`,
			want: `{"result":{"info":{"name":"a","version":"<agent-version>"},"protocolVersion":2}}`},
		{name: "v2: base64 terminal output gets the text rules", in: `{"update":{"output":{"data":"T3V0cHV0IGlzIGJlaW5nIHdyaXR0ZW4gdG86IC90bXAvYXctMS93b3JrL291dC50eHQ="},"sessionUpdate":"terminal_update"}}`,
			want: `{"update":{"output":{"data":"T3V0cHV0IGlzIGJlaW5nIHdyaXR0ZW4gdG86IDxjd2Q+L291dC50eHQ="},"sessionUpdate":"terminal_update"}}`},
		{name: "no HTML escaping, numbers kept", in: `{"hint":"<target> & more","n":1.50}`, want: `{"hint":"<target> & more","n":1.50}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := NewNormalizer(p)
			n.collectSessions(json.RawMessage(tt.in))
			got, err := n.Line(json.RawMessage(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// entries builds a journal from compact specs: "E:<json>" editor → agent,
// "A:<json>" agent → editor, "C:<proc>:<json>" agent → CLI, "O:<proc>:<json>"
// CLI → agent (the CLI's output), "S:<proc>:<argv>" a CLI spawn (argv words
// separated by spaces).
func entries(t *testing.T, specs ...string) []journal.Entry {
	t.Helper()
	var out []journal.Entry
	// Like the recorder, give a response the method of the request it answers.
	asked := map[string]string{} // dir + id → method
	for i, s := range specs {
		e := journal.Entry{Seq: uint64(i + 1), Kind: journal.KindMsg}
		kind, rest, _ := strings.Cut(s, ":")
		switch kind {
		case "E", "A":
			e.Lane, e.Dir = journal.LaneClient, journal.DirEditor
			if kind == "A" {
				e.Dir = journal.DirAgent
			}
			e.Msg = json.RawMessage(rest)
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if err := json.Unmarshal(e.Msg, &m); err != nil {
				t.Fatal(err)
			}
			e.ID, e.Method = m.ID, m.Method
			switch {
			case m.Method != "" && len(m.ID) > 0:
				asked[string(e.Dir)+string(m.ID)] = m.Method
			case m.Method == "" && len(m.ID) > 0:
				other := journal.DirAgent
				if e.Dir == journal.DirAgent {
					other = journal.DirEditor
				}
				e.Method = asked[string(other)+string(m.ID)]
			}
		case "C", "O":
			proc, msg, _ := strings.Cut(rest, ":")
			e.Lane, e.Dir, e.Proc, e.Msg = journal.LaneCLI, journal.DirAgent, proc, json.RawMessage(msg)
			if kind == "O" {
				e.Dir = journal.DirCLI
			}
		case "S":
			proc, argv, _ := strings.Cut(rest, ":")
			e.Lane, e.Kind, e.Proc, e.Argv = journal.LaneCLI, journal.KindSpawn, proc, strings.Fields(argv)
		}
		out = append(out, e)
	}
	return out
}

// TestAgentProgramFoundOnPath: an agent started as a bare program name
// ("node") still has its path masked, both where PATH finds it and where
// that symlink leads, since the reference reports the real interpreter.
func TestAgentProgramFoundOnPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows; the rule is the same")
	}
	dir := t.TempDir()
	real := filepath.Join(dir, "pkg", "bin", "node")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(dir, "bin", "node")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", filepath.Join(dir, "bin"))
	n := NewNormalizer(Paths{Agent: []string{"node", "index.js"}})
	in := `{"a":"` + real + `","b":"` + filepath.Join(dir, "bin", "node") + `","c":"index.js"}`
	got, err := n.Line(json.RawMessage(in))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a":"<agent-argv-0>","b":"<agent-argv-0>","c":"index.js"}`; string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestCanonicalPlacement(t *testing.T) {
	// The journal's arrival order is deliberately unlucky: the auth update
	// before the initialize response, the title in mid-turn, the prompt
	// request journaled after an update it did not wait for, the auth
	// probe spawned between stream-json processes, the CLI title request
	// after a later control request.
	es := entries(t,
		`E:{"id":0,"method":"initialize"}`,
		`A:{"method":"_auth/status_update","params":{}}`,
		`A:{"id":0,"result":{}}`,
		`E:{"id":1,"method":"session/new"}`,
		`A:{"id":1,"result":{"sessionId":"s"}}`,
		`A:{"method":"session/update","params":{"update":{"sessionUpdate":"available_commands_update"}}}`,
		`E:{"id":2,"method":"session/prompt"}`,
		`A:{"method":"session/update","params":{"update":{"sessionUpdate":"session_info_update","title":"T"}}}`,
		`A:{"method":"session/update","params":{"update":{"sessionUpdate":"session_info_update","_meta":{"x":1}}}}`,
		`A:{"id":0,"method":"session/request_permission"}`,
		`E:{"id":0,"result":{}}`,
		`A:{"id":2,"result":{"stopReason":"end_turn"}}`,
		`S:cli-1:claude --output-format stream-json`,
		`S:cli-2:claude auth status --json`,
		`S:cli-3:claude auth status --json`,
		`C:cli-1:{"type":"user"}`,
		`C:cli-1:{"type":"control_request","request":{"subtype":"get_context_usage"}}`,
		`C:cli-1:{"type":"control_request","request":{"subtype":"generate_session_title"}}`,
	)
	// Editor frames: initialize at the start, session/new after the
	// initialize response (agent frame 1), the prompt after the session/new
	// response (agent frame 2), the answer after the permission request (6).
	r := &Result{Entries: es, Anchors: []int{-1, 1, 2, 6}}
	got, err := Canonical(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `client editor->agent {"id":0,"method":"initialize"}
client agent->editor {"id":0,"result":{}}
client agent->editor {"method":"_auth/status_update","params":{}}
client editor->agent {"id":1,"method":"session/new"}
client agent->editor {"id":1,"result":{"sessionId":"s"}}
client editor->agent {"id":2,"method":"session/prompt"}
client agent->editor {"method":"session/update","params":{"update":{"sessionUpdate":"available_commands_update"}}}
client agent->editor {"method":"session/update","params":{"update":{"_meta":{"x":1},"sessionUpdate":"session_info_update"}}}
client agent->editor {"id":0,"method":"session/request_permission"}
client editor->agent {"id":0,"result":{}}
client agent->editor {"id":2,"result":{"stopReason":"end_turn"}}
client agent->editor {"method":"session/update","params":{"update":{"sessionUpdate":"session_info_update","title":"T"}}}
cli:1 spawn {"argv":["<cli>","--output-format","stream-json"]}
cli:1 agent->cli {"type":"user"}
cli:1 agent->cli {"request":{"subtype":"generate_session_title"},"type":"control_request"}
cli:1 agent->cli {"request":{"subtype":"get_context_usage"},"type":"control_request"}
cli:run spawn {"argv":["auth","status","--json"]}
`
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if err := CheckLanes(got); err != nil {
		t.Error(err)
	}
	if _, err := Canonical(&Result{Entries: es, Anchors: []int{-1}}); err == nil {
		t.Error("Canonical accepted fewer anchors than editor frames")
	}
}

// The answer to a v2 background cancel follows its request, wherever it
// arrived among the stop's own reports.
func TestBackgroundCancelAnswerFollowsItsRequest(t *testing.T) {
	es := entries(t,
		`E:{"id":4,"method":"tool_call/cancel"}`,
		`A:{"method":"session/update","params":{"update":{"sessionUpdate":"tool_call_update","status":"cancelled"}}}`,
		`A:{"method":"session/update","params":{"update":{"sessionUpdate":"state_update"}}}`,
		`A:{"id":4,"result":{}}`,
		`S:cli-1:claude --output-format stream-json`,
	)
	got, err := Canonical(&Result{Entries: es, Anchors: []int{-1}})
	if err != nil {
		t.Fatal(err)
	}
	want := `client editor->agent {"id":4,"method":"tool_call/cancel"}
client agent->editor {"id":4,"result":{}}
client agent->editor {"method":"session/update","params":{"update":{"sessionUpdate":"tool_call_update","status":"cancelled"}}}
client agent->editor {"method":"session/update","params":{"update":{"sessionUpdate":"state_update"}}}
cli:1 spawn {"argv":["<cli>","--output-format","stream-json"]}
`
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestCheckLanes(t *testing.T) {
	for name, tt := range map[string]struct {
		in   string
		fail bool
	}{
		"both":      {in: "client a {}\ncli:1 spawn {}\n"},
		"only run":  {in: "client a {}\ncli:run spawn {}\n"},
		"no cli":    {in: "client a {}\n", fail: true},
		"no client": {in: "cli:1 spawn {}\n", fail: true},
	} {
		if err := CheckLanes([]byte(tt.in)); (err != nil) != tt.fail {
			t.Errorf("%s: CheckLanes = %v", name, err)
		}
	}
}

func TestCommandsUpdatePlacement(t *testing.T) {
	// The first update is written before the prompt reached the agent and
	// stays (after the prompt, which the canonical form places right after
	// the session/new response); the skill refresh arrives mid-turn in one
	// run, after the response in another, and just after the prompt in a
	// third: every run places it after the response.
	const (
		setup   = `A:{"method":"session/update","params":{"update":{"sessionUpdate":"available_commands_update","availableCommands":[]}}}`
		refresh = `A:{"method":"session/update","params":{"update":{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"skill"}]}}}`
		chunk   = `A:{"method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk"}}}`
		resp    = `A:{"id":2,"result":{"stopReason":"end_turn"}}`
	)
	head := []string{`E:{"id":1,"method":"session/new"}`, `A:{"id":1,"result":{"sessionId":"s"}}`, setup, `E:{"id":2,"method":"session/prompt"}`}
	tail := []string{`S:cli-1:claude --output-format stream-json`, `C:cli-1:{"type":"user"}`}
	var got [3]string
	for i, turn := range [][]string{{chunk, refresh, resp}, {chunk, resp, refresh}, {refresh, chunk, resp}} {
		es := entries(t, append(append(append([]string{}, head...), turn...), tail...)...)
		c, err := Canonical(&Result{Entries: es, Anchors: []int{-1, 0}})
		if err != nil {
			t.Fatal(err)
		}
		got[i] = string(c)
	}
	for i := range got {
		if got[i] != got[0] {
			t.Fatalf("the refresh's arrival changed the transcript:\n%s\nvs\n%s", got[0], got[i])
		}
	}
	lines := strings.Split(got[0], "\n")
	want := []string{"session/new", `"sessionId":"s"`, "session/prompt", `"availableCommands":[]`, "agent_message_chunk", `"stopReason"`, `"name":"skill"`}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d: %s\nwant it to hold %s", i, lines[i], w)
		}
	}
}

func TestCLIBusy(t *testing.T) {
	msg := func(proc, m string) journal.Entry {
		return journal.Entry{Lane: journal.LaneCLI, Dir: journal.DirCLI, Kind: journal.KindMsg, Proc: proc, Msg: json.RawMessage(m)}
	}
	ok := `{"type":"result","subtype":"success","is_error":false}`
	tests := []struct {
		name string
		in   []journal.Entry
		want bool
	}{
		{"no turn yet", nil, false},
		{"a success without its suggestion", []journal.Entry{msg("cli-1", ok)}, true},
		{"the suggestion came", []journal.Entry{msg("cli-1", ok), msg("cli-1", `{"type":"prompt_suggestion"}`)}, false},
		{"a failed turn gets none", []journal.Entry{msg("cli-1", `{"type":"result","subtype":"success","is_error":true}`)}, false},
		{"an error result gets none", []journal.Entry{msg("cli-1", `{"type":"result","subtype":"error_during_execution"}`)}, false},
		{"per process", []journal.Entry{msg("cli-1", ok), msg("cli-2", `{"type":"prompt_suggestion"}`)}, true},
		{"a later turn waits again", []journal.Entry{msg("cli-1", ok), msg("cli-1", `{"type":"prompt_suggestion"}`), msg("cli-1", ok)}, true},
	}
	running := msg("cli-1", `{"type":"system","subtype":"session_state_changed","state":"running"}`)
	idle := msg("cli-1", `{"type":"system","subtype":"session_state_changed","state":"idle"}`)
	if !cliBusy([]journal.Entry{running}, true, nil) || cliBusy([]journal.Entry{running}, false, nil) || cliBusy([]journal.Entry{running, idle}, true, nil) {
		t.Error("a turn the CLI runs on its own: busy only at the end of a run, until idle")
	}
	ask := msg("cli-1", `{"type":"control_request","request_id":"r1","request":{"subtype":"get_context_usage"}}`)
	ask.Dir = journal.DirAgent
	answer := msg("cli-1", `{"type":"control_response","response":{"subtype":"success","request_id":"r1"}}`)
	if !cliBusy([]journal.Entry{ask}, true, nil) || cliBusy([]journal.Entry{ask}, false, nil) || cliBusy([]journal.Entry{ask, answer}, true, nil) {
		t.Error("an unanswered control request: busy only at the end of a run, until answered")
	}
	if !controlOwed([]journal.Entry{ask}) || controlOwed([]journal.Entry{ask, answer}) || controlOwed(nil) {
		t.Error("controlOwed: owed from the request until its answer")
	}
	for _, tt := range tests {
		if got := cliBusy(tt.in, false, nil); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestCLIBusyWaitsForAToolsPostHook(t *testing.T) {
	msg := func(m string) journal.Entry {
		return journal.Entry{Lane: journal.LaneCLI, Dir: journal.DirCLI, Kind: journal.KindMsg, Proc: "cli-1", Msg: json.RawMessage(m)}
	}
	hook := func(event string) journal.Entry {
		return msg(`{"type":"control_request","request_id":"h","request":{"subtype":"hook_callback","input":{"hook_event_name":"` + event + `","tool_use_id":"toolu_1"}}}`)
	}
	idle := msg(`{"type":"system","subtype":"session_state_changed","state":"idle"}`)
	pre := []journal.Entry{hook("PreToolUse"), idle}
	if !cliBusy(pre, true, nil) || cliBusy(pre, false, nil) {
		t.Error("a tool past PreToolUse without its Post* hook: busy only at the end of a run")
	}
	for name, end := range map[string]journal.Entry{
		"PostToolUse":        hook("PostToolUse"),
		"PostToolUseFailure": hook("PostToolUseFailure"),
		"a tool_result":      msg(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1"}]}}`),
		"the exit":           {Lane: journal.LaneCLI, Kind: journal.KindExit, Proc: "cli-1"},
	} {
		if cliBusy(append(append([]journal.Entry{}, pre...), end), true, nil) {
			t.Errorf("%s ends the wait for the tool's Post* hook", name)
		}
	}
	other := msg(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2"}]}}`)
	if !cliBusy(append(append([]journal.Entry{}, pre...), other), true, nil) {
		t.Error("another tool's result must not end the wait")
	}
}

func TestCommandsUpdateOfAnEarlierTurn(t *testing.T) {
	// The refresh of the first turn is written after its response but
	// before the second prompt reaches the agent; the canonical form places
	// the second prompt right after the first response, before the refresh.
	es := entries(t,
		`E:{"id":2,"method":"session/prompt"}`,
		`A:{"id":2,"result":{"stopReason":"end_turn"}}`,
		`A:{"method":"session/update","params":{"update":{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"skill"}]}}}`,
		`E:{"id":3,"method":"session/prompt"}`,
		`A:{"id":3,"result":{"stopReason":"end_turn"}}`,
		`S:cli-1:claude --output-format stream-json`,
		`C:cli-1:{"type":"user"}`,
	)
	got, err := Canonical(&Result{Entries: es, Anchors: []int{-1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(got), "\n")
	want := []string{`"id":2,"method":"session/prompt"`, `"id":2,"result"`, `"name":"skill"`, `"id":3,"method":"session/prompt"`, `"id":3,"result"`}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d: %s\nwant it to hold %s", i, lines[i], w)
		}
	}
}

// Sessions are numbered by where they were created (the scenario's stored
// sessions in its order, then the session/new response), so rows listed in
// another order read differently; a duration the CLI wrote is kept, one it
// did not write is not (issue 12, sensitivity).
func TestCanonicalNumbersSessionsByCreationAndKeepsFixedDurations(t *testing.T) {
	const a, b, n = "a1111111-0000-4000-8000-000000000001", "a1111111-0000-4000-8000-000000000002", "0b5c2a55-1111-4222-8333-444455556666"
	sc := &scenario.Scenario{Sessions: []scenario.Transcript{{SessionID: a, Modified: "2026-01-02T10:00:00Z"}, {SessionID: b}}}
	row := func(id string) string { return `{"sessionId":"` + id + `","updatedAt":"2026-01-02T10:00:00.002Z"}` }
	run := func(first, second string) string {
		es := entries(t,
			`E:{"id":0,"method":"initialize"}`,
			`A:{"id":0,"result":{}}`,
			`E:{"id":1,"method":"session/list"}`,
			`A:{"id":1,"result":{"sessions":[`+row(first)+`,`+row(second)+`]}}`,
			`E:{"id":2,"method":"session/new"}`,
			`A:{"id":2,"result":{"sessionId":"`+n+`"}}`,
			`A:{"method":"session/update","params":{"sessionId":"`+n+`","update":{"_meta":{"toolResponse":{"elapsedTimeSeconds":5,"durationMs":7}},"sessionUpdate":"tool_call_update"}}}`,
			`S:cli-1:claude --output-format stream-json --session-id `+n,
			`O:cli-1:{"type":"tool_progress","elapsed_time_seconds":5.0,"session_id":"`+n+`"}`,
		)
		got, err := Canonical(&Result{Scenario: sc, Entries: es, Anchors: []int{-1, 0, 1}})
		if err != nil {
			t.Fatal(err)
		}
		return string(got)
	}
	want := `client editor->agent {"id":0,"method":"initialize"}
client agent->editor {"id":0,"result":{}}
client editor->agent {"id":1,"method":"session/list"}
client agent->editor {"id":1,"result":{"sessions":[{"sessionId":"<session-2>","updatedAt":"2026-01-02T10:00:00.002Z"},{"sessionId":"<session-1>","updatedAt":"2026-01-02T10:00:00.002Z"}]}}
client editor->agent {"id":2,"method":"session/new"}
client agent->editor {"id":2,"result":{"sessionId":"<session-3>"}}
client agent->editor {"method":"session/update","params":{"sessionId":"<session-3>","update":{"_meta":{"toolResponse":{"durationMs":"<duration>","elapsedTimeSeconds":5}},"sessionUpdate":"tool_call_update"}}}
cli:1 spawn {"argv":["<cli>","--output-format","stream-json","--session-id","<session-3>"]}
`
	if got := run(b, a); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if got, other := run(b, a), run(a, b); got == other {
		t.Errorf("rows listed in the other order read the same:\n%s", got)
	}
}

// A live run compares with its durations masked: the real CLI measured them
// anew; the text in a subagent's result is masked too, and a duration the
// CLI wrote in a text is kept by the normalizer.
func TestDurationsInTextAndMasking(t *testing.T) {
	n := NewNormalizer(Paths{})
	n.FixDurations([]json.RawMessage{json.RawMessage(`{"content":"tool_uses: 1\nduration_ms: 2232</usage>"}`)})
	got, err := n.Line(json.RawMessage(`{"a":"duration_ms: 2232","b":"duration_ms: 99","durationMs":2232}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a":"duration_ms: 2232","b":"duration_ms: <duration>","durationMs":2232}`; string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	canon := "client agent->editor " + string(got) + "\ncli:run spawn {\"argv\":[\"auth\"]}\n"
	want := "client agent->editor {\"a\":\"duration_ms: <duration>\",\"b\":\"duration_ms: <duration>\",\"durationMs\":\"<duration>\"}\ncli:run spawn {\"argv\":[\"auth\"]}\n"
	if masked := string(MaskMeasured([]byte(canon))); masked != want {
		t.Errorf("masked:\n%s\nwant:\n%s", masked, want)
	}
}

// The `/usage` table's API and active times are measured by the real CLI:
// masked in a live run, cost and other text kept.
func TestMaskUsageTimes(t *testing.T) {
	canon := `client agent->editor {"text":"| Cost | API time | Active |\n|:--|:--|:--|\n| $0.13 | 1m 5s | 2s |\n| Input | 12s |"}` + "\n"
	want := `client agent->editor {"text":"| Cost | API time | Active |\n|:--|:--|:--|\n| $0.13 | <duration> | <duration> |\n| Input | 12s |"}` + "\n"
	if got := string(MaskMeasured([]byte(canon))); got != want {
		t.Errorf("MaskMeasured:\n%s\nwant:\n%s", got, want)
	}
}

// Two recordings (airwire diff) mask the CLI's token estimates besides the
// durations; a live run keeps them (its run directory keeps them stable).
func TestMaskRecordedTokens(t *testing.T) {
	canon := `client agent->editor {"contextCompaction":{"durationMs":86,"postTokens":2508,"preTokens":22,"version":1},"totalTokens":5}` + "\n"
	want := `client agent->editor {"contextCompaction":{"durationMs":"<duration>","postTokens":"<tokens>","preTokens":"<tokens>","version":1},"totalTokens":5}` + "\n"
	if got := string(MaskRecorded([]byte(canon))); got != want {
		t.Errorf("MaskRecorded:\n%s\nwant:\n%s", got, want)
	}
	if got := string(MaskMeasured([]byte(canon))); strings.Contains(got, "<tokens>") || !strings.Contains(got, `"durationMs":"<duration>"`) {
		t.Errorf("MaskMeasured: %s", got)
	}
	report := `client agent->editor {"text":"## Context Usage\n\n**Tokens:** 10.1k / 1m (1%)\n| Free space | 956.9k | 95.7% |"}` + "\n" +
		`client agent->editor {"text":"Read 10.1k files"}` + "\n"
	want = `client agent->editor {"text":"## Context Usage\n\n**Tokens:** <tokens> / 1m (1%)\n| Free space | <tokens> | 95.7% |"}` + "\n" +
		`client agent->editor {"text":"Read 10.1k files"}` + "\n"
	if got := string(MaskRecorded([]byte(report))); got != want {
		t.Errorf("the /context report:\n%s\nwant:\n%s", got, want)
	}
}

func TestScriptedDay(t *testing.T) {
	if got := scenario.ClockBase().Format("2006-01-02"); got != scriptedDay {
		t.Errorf("scriptedDay = %q, but scenario.ClockBase is on %q", scriptedDay, got)
	}
	if got, want := textDurRE.String(), regexp.QuoteMeta(textDurPrefix)+"[0-9]+"; got != want {
		t.Errorf("textDurRE = %s, want %s", got, want)
	}
}

// TestLearnMadeIDs: a subagent id the CLI made up that the adapter shows
// only inside text (no agentId key on the client lane) is replaced there,
// learned from the CLI's own frames, as is a background task id (an ACP v2
// terminal's base64 output names it); other CLI strings, and an id the
// scenario's fixture holds, are not learned.
func TestLearnMadeIDs(t *testing.T) {
	n := NewNormalizer(Paths{})
	n.LearnMadeIDs([]json.RawMessage{
		json.RawMessage(`{"type":"system","subtype":"task_started","task_id":"bnsdrtv1x","task_type":"local_bash"}`),
		json.RawMessage(`{"type":"user","tool_use_result":{"agentId":"a74ccbed12a3c2e9f","status":"async_launched"}}`),
		json.RawMessage(`{"type":"user","tool_use_result":{"agentId":"a9d369fae923f64f9"}}`),
		json.RawMessage(`{"type":"system","subtype":"init","model":"a0000000000000000","cwd":"a1111111111111111"}`),
		json.RawMessage(`not json`),
	}, []byte(`{"transcript":{"lines":["agent a9d369fae923f64f9"]}}`))
	got, err := n.Line(json.RawMessage(`{"text":"agentId: a74ccbed12a3c2e9f (a1111111111111111, a9d369fae923f64f9)"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"text":"agentId: <agent-1> (a1111111111111111, a9d369fae923f64f9)"}`; string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	out := base64.StdEncoding.EncodeToString([]byte("Command running in background with ID: bnsdrtv1x."))
	got, err = n.Line(json.RawMessage(`{"output":{"data":"` + out + `"}}`))
	if err != nil {
		t.Fatal(err)
	}
	masked := base64.StdEncoding.EncodeToString([]byte("Command running in background with ID: <task-1>."))
	if want := `{"output":{"data":"` + masked + `"}}`; string(got) != want {
		t.Errorf("terminal output: got  %s\nwant %s", got, want)
	}
}

// The exit line Claude Code appends to a background command's output file
// races with the adapter's read of it: a terminal's output is the same
// with it and without it.
func TestTerminalOutputWithoutExitLine(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	var lines []string
	for _, text := range []string{"dev server stopped\n", "dev server stopped\n\n[exited with code 0]\n", "dev server stopped\n\n[exited with code 137]\n"} {
		got, err := NewNormalizer(Paths{}).Line(json.RawMessage(`{"output":{"data":"` + b64(text) + `"}}`))
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(got))
	}
	if lines[0] != lines[1] || lines[0] != lines[2] {
		t.Errorf("the output differs with its exit line:\n%s", strings.Join(lines, "\n"))
	}
	kept, _ := NewNormalizer(Paths{}).Line(json.RawMessage(`{"output":{"data":"` + b64("[exited with code 0] is what it printed; more\n") + `"}}`))
	if !strings.Contains(string(kept), b64("[exited with code 0] is what it printed; more\n")) {
		t.Errorf("a line that is not the last one was changed: %s", kept)
	}
}

// A flat subagent's tool result names its agent only in the handback
// sentence; the normalizer numbers that id as an agent, as it does the
// id under agentId, so an editor-lane run compares with its golden.
func TestHandbackNamesAnAgent(t *testing.T) {
	text := `This agent's report was delivered to you as a message from "aedf99104d489ed42" (its SubagentHandback call).`
	line := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"x","update":{"content":[{"type":"content","content":{"type":"text","text":` + strconv.Quote(text) + `}}]}}}`)
	n := NewNormalizer(Paths{})
	n.collectSessions(line)
	out, err := n.Line(line)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	if strings.Contains(got, "aedf99104d489ed42") || !strings.Contains(got, `from \"<agent-1>\"`) {
		t.Errorf("normalized:\n%s", got)
	}
}
