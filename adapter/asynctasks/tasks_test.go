package asynctasks

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/claude/claudetest"
	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/internal/testroot"
)

// sendHost is a Host that hands each update to send and routes no task.
type sendHost func(update any)

func (h sendHost) Send(u any)                     { h(u) }
func (sendHost) RouteOf(string) (func(any), bool) { return nil, false }

// head is the Head of a CLI frame.
func head(msg json.RawMessage) Head {
	var h struct {
		Type    string  `json:"type"`
		Subtype string  `json:"subtype"`
		Parent  *string `json:"parent_tool_use_id"`
	}
	_ = json.Unmarshal(msg, &h)
	return Head{Type: h.Type, Subtype: h.Subtype, Root: h.Parent == nil}
}

// The async task updates replayed from the AIR cassette match the AIR
// golden's, less the reference's task of a turn Claude Code runs on its
// own (DEVIATIONS.md 27): spawn held until the tool call id, released at the turn end,
// spawned without it when the task ends first, the output path from the
// tool result, the list's stopped state and the event's correction.
func TestAsyncTasksReplayMatchesTheGolden(t *testing.T) {
	// The scenarios with a cassette (the scripted ones have none). The
	// golden's run can end before the cassette does: its updates are a prefix.
	for _, scenario := range []string{"bash-background", "async-task-held-until-tool-id", "async-task-stop"} {
		t.Run(scenario, func(t *testing.T) {
			want := goldenTaskUpdates(t, scenario)
			got := replayAsyncTasks(t, filepath.Join(testroot.Root(t), "goldens", scenario, "air.cassette"))
			if len(want) == 0 {
				t.Fatal("the golden has no async task update")
			}
			if len(got) > len(want) {
				got = got[:len(want)]
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("replayed:\n%s\ngolden:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// goldenTaskUpdates are the golden's async task updates, in order, as
// comparable text.
func goldenTaskUpdates(t *testing.T, scenario string) []string {
	var out []string
	for _, line := range goldentest.Tagged(t, scenario, "air", "client agent->editor") {
		var m struct {
			Params struct {
				Update map[string]any `json:"update"`
			} `json:"params"`
		}
		_ = json.Unmarshal([]byte(line), &m)
		if u := m.Params.Update; u != nil && !strings.HasPrefix(fmt.Sprint(u["asyncTaskId"]), "autonomous-turn-") {
			out = appendTaskUpdate(out, u, map[string]string{})
		}
	}
	return out
}

// replayAsyncTasks feeds a cassette's CLI frames to an async task registry
// as the translator does (a turn open until its result) and returns its
// updates as comparable text, the CLI's task ids numbered as the golden's.
func replayAsyncTasks(t *testing.T, path string) []string {
	t.Helper()
	c, err := cassette.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	r, sent := recordingTasks()
	for _, ev := range c.Processes[0].Events {
		if ev.Dir != cassette.DirCLI || ev.Msg == nil {
			continue
		}
		// The replay's temporary directory: a path must be absolute.
		msg := json.RawMessage(strings.ReplaceAll(string(ev.Msg), "{{tmpdir}}", "/tmp"))
		r.Frame(head(msg), claudetest.Frame(msg))
	}
	ids := map[string]string{}
	var out []string
	for _, u := range *sent {
		out = appendTaskUpdate(out, u, ids)
	}
	return out
}

// appendTaskUpdate appends an async task update of a task as text: task
// ids renamed through ids (<task-N> in order; a golden's ids are already
// so), an output path reduced to its task file.
func appendTaskUpdate(out []string, u map[string]any, ids map[string]string) []string {
	kind, _ := u["sessionUpdate"].(string)
	id, _ := u["asyncTaskId"].(string)
	if !strings.HasPrefix(kind, "async_task_") {
		return out
	}
	rename := func(s string) string {
		if strings.HasPrefix(s, "<task-") {
			return s
		}
		if ids[s] == "" {
			ids[s] = fmt.Sprintf("<task-%d>", len(ids)+1)
		}
		return ids[s]
	}
	c := map[string]any{}
	for k, v := range u {
		c[k] = v
	}
	c["asyncTaskId"] = rename(id)
	if p, ok := c["outputFilePath"].(string); ok {
		file := p[strings.LastIndexAny(p, `/\`)+1:]
		c["outputFilePath"] = rename(strings.TrimSuffix(file, ".output")) + ".output"
	}
	for _, k := range []string{"name", "description"} {
		if s, ok := c[k].(string); ok {
			for real, placeholder := range ids {
				s = strings.ReplaceAll(s, real, placeholder)
			}
			c[k] = s
		}
	}
	b, _ := json.Marshal(c)
	return append(out, string(b))
}

// A stop claims a task once: a second stop, an unknown task and a task
// that a monitor started cannot stop; the stop publishes the state and one
// transcript line, also when the CLI's own end came first.
func TestAsyncTaskStop(t *testing.T) {
	var sent []string
	r := newTasks(true, false, sendHost(func(u any) { b, _ := json.Marshal(u); sent = append(sent, string(b)) }))
	r.tools["toolu_m"] = toolUse{name: "Monitor"}
	shell, yes := "local_bash", true
	r.started(taskEventFrame{ToolUseID: "toolu_b", Task: claude.Task{TaskID: "b1", TaskType: &shell, IsBackgrounded: &yes, Description: "Watch"}}, false)
	r.started(taskEventFrame{ToolUseID: "toolu_m", Task: claude.Task{TaskID: "m1", TaskType: &shell, IsBackgrounded: &yes}}, false)
	if r.ClaimStop("nope") {
		t.Fatal("an unknown task can stop")
	}
	if r.ClaimStop("m1") {
		t.Fatal("an unknown task or a monitor can stop")
	}
	if len(sent) != 1 || !strings.Contains(sent[0], `"asyncTaskId":"b1"`) {
		t.Fatalf("want only b1's spawn (a Monitor's task is no async task), got %q", sent)
	}
	first := r.ClaimStop("b1")
	second := r.ClaimStop("b1")
	if !first || second {
		t.Fatal("the first stop must claim the task, the second must not")
	}
	r.notification(taskEventFrame{Task: claude.Task{TaskID: "b1"}, Status: "stopped"})
	sent = nil
	r.Stopped("b1")
	r.Stopped("b1")
	want := []string{`{"content":{"text":"**Task stopped by user:** Watch.","type":"text"},"sessionUpdate":"agent_message_chunk"}`}
	if !reflect.DeepEqual(sent, want) {
		t.Errorf("sent %q, want %q", sent, want)
	}
}

// Without the capability nothing is published.
func TestAsyncTasksOffWithoutTheCapability(t *testing.T) {
	r := newTasks(false, false, sendHost(func(any) { t.Error("published without asyncTasks") }))
	line := json.RawMessage(`{"type":"system","subtype":"task_started","task_id":"b1","tool_use_id":"x","is_backgrounded":true}`)
	r.Frame(Head{Type: "system", Subtype: "task_started", Root: true}, claudetest.Frame(line))
}

// A turn Claude Code starts with no prompt open (on a task notification)
// is no async task: no tool result or task event names it (contract
// "Async tasks": "An async task comes only from structured data";
// DEVIATIONS.md 27). Its frames publish nothing here.
func TestATurnWithoutAPromptIsNoTask(t *testing.T) {
	r := newTasks(true, false, sendHost(func(u any) { t.Errorf("published %v", u) }))
	for _, f := range []string{
		`{"type":"system","subtype":"session_state_changed","state":"running"}`,
		`{"type":"stream_event","parent_tool_use_id":null,"event":{"type":"message_start"}}`,
		`{"type":"assistant","parent_tool_use_id":null,"message":{"role":"assistant","content":[{"type":"text","text":"The dev server exited."}]}}`,
		`{"type":"result","subtype":"success","num_turns":1,"origin":{"kind":"task-notification"}}`,
		`{"type":"system","subtype":"session_state_changed","state":"idle"}`,
	} {
		msg := json.RawMessage(f)
		r.Frame(head(msg), claudetest.Frame(msg))
	}
}

// An output path that arrives after the task ended (a task_notification
// after task_updated said completed) goes out as async_task_progress: the
// terminal state goes out once (contract "Updates"; DEVIATIONS.md 26).
func TestLatePathOfAnEndedTaskIsProgress(t *testing.T) {
	r, sent := recordingTasks()
	play(r,
		`{"type":"assistant","parent_tool_use_id":null,"message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_bash","name":"Bash","input":{"command":"./index.sh","run_in_background":true}}]}}`,
		`{"type":"system","subtype":"task_started","task_id":"bash_9","run_id":"r9","tool_use_id":"toolu_bash","description":"Index","task_type":"local_bash"}`,
		`{"type":"user","parent_tool_use_id":null,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_bash","content":"Command running in background with ID: bash_9."}]},"tool_use_result":{"stdout":"","stderr":"","interrupted":false,"isImage":false,"backgroundTaskId":"bash_9"}}`,
		`{"type":"system","subtype":"task_updated","task_id":"bash_9","run_id":"r9","patch":{"status":"completed","end_time":1767225600000}}`,
		`{"type":"system","subtype":"task_notification","task_id":"bash_9","run_id":"r9","tool_use_id":"toolu_bash","status":"completed","output_file":"/c/tasks/bash_9.output","summary":"Indexed 300 files"}`,
	)
	var kinds []string
	var progress map[string]any
	for _, u := range *sent {
		kind, _ := u["sessionUpdate"].(string)
		kinds = append(kinds, kind)
		if kind == "async_task_progress" {
			progress = u
		}
	}
	want := []string{"async_task_spawned", "async_task_state_update", "async_task_progress"}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("updates %q, want %q (%v)", kinds, want, *sent)
	}
	if progress["outputFilePath"] != "/c/tasks/bash_9.output" || progress["state"] != nil {
		t.Errorf("the late path's update: %v", progress)
	}
}

// TestShutdownStopsOpenTasks: at the agent's shutdown the task still
// running ends stopped, the one that completed gets nothing more, and a
// second shutdown sends nothing (contract "Liveness").
func TestShutdownStopsOpenTasks(t *testing.T) {
	r, sent := recordingTasks()
	play(r,
		`{"type":"assistant","parent_tool_use_id":null,"message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"sleep 120","run_in_background":true}},{"type":"tool_use","id":"toolu_2","name":"Bash","input":{"command":"make","run_in_background":true}}]}}`,
		`{"type":"system","subtype":"task_started","task_id":"bash_1","run_id":"r1","tool_use_id":"toolu_1","description":"Watch","task_type":"local_bash"}`,
		`{"type":"system","subtype":"task_started","task_id":"bash_2","run_id":"r2","tool_use_id":"toolu_2","description":"Build","task_type":"local_bash"}`,
		`{"type":"user","parent_tool_use_id":null,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"Command running in background with ID: bash_1."}]},"tool_use_result":{"stdout":"","stderr":"","interrupted":false,"isImage":false,"backgroundTaskId":"bash_1"}}`,
		`{"type":"user","parent_tool_use_id":null,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2","content":"Command running in background with ID: bash_2."}]},"tool_use_result":{"stdout":"","stderr":"","interrupted":false,"isImage":false,"backgroundTaskId":"bash_2"}}`,
		`{"type":"system","subtype":"task_notification","task_id":"bash_2","run_id":"r2","tool_use_id":"toolu_2","status":"completed","summary":"Built"}`,
	)
	before := len(*sent)
	if before != 3 {
		t.Fatalf("before the shutdown: %v, want two spawns and a completion", *sent)
	}
	r.Shutdown()
	r.Shutdown()
	got := (*sent)[before:]
	if len(got) != 1 || got[0]["sessionUpdate"] != "async_task_state_update" || got[0]["asyncTaskId"] != "bash_1" || got[0]["state"] != "stopped" {
		t.Errorf("updates at shutdown: %v, want bash_1 stopped only", got)
	}
}

// recordingTasks is a Tasks for an asyncTasks client whose updates land,
// decoded, in the list it returns.
func recordingTasks() (*Tasks, *[]map[string]any) {
	sent := &[]map[string]any{}
	r := newTasks(true, false, sendHost(func(u any) {
		b, _ := json.Marshal(u)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		*sent = append(*sent, m)
	}))
	return r, sent
}

// play hands r each CLI line as a frame.
func play(r *Tasks, lines ...string) {
	for _, f := range lines {
		msg := json.RawMessage(f)
		r.Frame(head(msg), claudetest.Frame(msg))
	}
}
