package adapter

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/cassette"
)

// The async task updates of a task (not the autonomous turn, whose spawn
// needs the turn state) replayed from the AIR cassette match the AIR
// golden: spawn held until the tool call id, released at the turn end,
// spawned without it when the task ends first, the output path from the
// tool result, the list's stopped state and the event's correction.
func TestAsyncTasksReplayMatchesTheGolden(t *testing.T) {
	// The scenarios with a cassette (the scripted ones have none). The
	// golden's run can end before the cassette does: its updates are a prefix.
	for _, scenario := range []string{"bash-background", "async-task-held-until-tool-id", "async-task-stop"} {
		t.Run(scenario, func(t *testing.T) {
			want := goldenTaskUpdates(t, scenario)
			got := replayAsyncTasks(t, filepath.Join(repoRoot(t), "goldens", scenario, "air.cassette"))
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
	for _, line := range goldenLines(t, scenario, "air", "client agent->editor") {
		var m struct {
			Params struct {
				Update map[string]any `json:"update"`
			} `json:"params"`
		}
		_ = json.Unmarshal([]byte(line), &m)
		if u := m.Params.Update; u != nil {
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
	var sent []map[string]any
	r := newAsyncTasks(true, false, func(u any) {
		b, _ := json.Marshal(u)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		sent = append(sent, m)
	})
	for _, ev := range c.Processes[0].Events {
		if ev.Dir != cassette.DirCLI || ev.Msg == nil {
			continue
		}
		// The replay's temporary directory: a path must be absolute.
		msg := json.RawMessage(strings.ReplaceAll(string(ev.Msg), "{{tmpdir}}", "/tmp"))
		var h frameHead
		_ = json.Unmarshal(msg, &h)
		r.asyncFrame(h, msg, false)
	}
	ids := map[string]string{}
	var out []string
	for _, u := range sent {
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
	if !strings.HasPrefix(kind, "async_task_") || strings.HasPrefix(id, "autonomous-turn-") {
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

func TestTaskOutputPaths(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"posix sentence", "Output is being written to: /tmp/x/tasks/b1.output. You will be notified.", []string{"/tmp/x/tasks/b1.output"}},
		{"spaces in path", "written to: /home/a b/tasks/b2.output", []string{"/home/a b/tasks/b2.output"}},
		{"windows drive", `written to: C:\Users\a\tasks\b3.output` + "\n", []string{`C:\Users\a\tasks\b3.output`}},
		{"unc", `written to: \\srv\share\tasks\b4.output end`, []string{`\\srv\share\tasks\b4.output`}},
		{"relative", "written to: tasks/b5.output", nil},
		{"across a line", "written to: /tmp\n/tasks/b6.output", nil},
		{"no colon", "see /tmp/tasks/b7.output", nil},
		{"word after the period", "written to: /tmp/tasks/b8.outputs", nil},
		{"period then word", "written to: /tmp/tasks/b9.output.x", nil},
		{"two paths", "a: /t/tasks/c1.output and b: /u/tasks/c2.output", []string{"/t/tasks/c1.output", "/u/tasks/c2.output"}},
		{"second path needs its own colon", "a: /t/tasks/c1.output /u/tasks/c2.output", []string{"/t/tasks/c1.output"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := taskOutputPaths(tc.text); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("taskOutputPaths(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

// A stop claims a task once: a second stop, an unknown task and a task
// that a monitor started cannot stop; the stop publishes the state and one
// transcript line, also when the CLI's own end came first.
func TestAsyncTaskStop(t *testing.T) {
	var sent []string
	r := newAsyncTasks(true, false, func(u any) { b, _ := json.Marshal(u); sent = append(sent, string(b)) })
	r.tools["toolu_m"] = toolUse{name: "Monitor"}
	shell, yes := "local_bash", true
	r.started(taskEventFrame{TaskID: "b1", ToolUseID: "toolu_b", TaskType: &shell, IsBackgrounded: &yes, Description: "Watch"}, false)
	r.started(taskEventFrame{TaskID: "m1", ToolUseID: "toolu_m", TaskType: &shell, IsBackgrounded: &yes}, false)
	if r.claimStop("nope") || r.claimStop("m1") {
		t.Fatal("an unknown task or a monitor can stop")
	}
	if len(sent) != 1 || !strings.Contains(sent[0], `"asyncTaskId":"b1"`) {
		t.Fatalf("want only b1's spawn (a Monitor's task is no async task), got %q", sent)
	}
	if !r.claimStop("b1") || r.claimStop("b1") {
		t.Fatal("the first stop must claim the task, the second must not")
	}
	r.notification(taskEventFrame{TaskID: "b1", Status: "stopped"})
	sent = nil
	r.taskStopped("b1")
	r.taskStopped("b1")
	want := []string{`{"content":{"text":"**Task stopped by user:** Watch.","type":"text"},"sessionUpdate":"agent_message_chunk"}`}
	if !reflect.DeepEqual(sent, want) {
		t.Errorf("sent %q, want %q", sent, want)
	}
}

// Without the capability nothing is published.
func TestAsyncTasksOffWithoutTheCapability(t *testing.T) {
	r := newAsyncTasks(false, false, func(any) { t.Error("published without asyncTasks") })
	line := json.RawMessage(`{"type":"system","subtype":"task_started","task_id":"b1","tool_use_id":"x","is_backgrounded":true}`)
	r.asyncFrame(frameHead{Type: "system", Subtype: "task_started"}, line, true)
	r.asyncFrame(frameHead{Type: "system", Subtype: "session_state_changed"}, json.RawMessage(`{"state":"running"}`), true)
}
