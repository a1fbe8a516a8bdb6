package bgwork

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/claude/claudetest"
	"github.com/airwire/airwire/adapter/toolcall"
)

func ref(id, typ string) claude.TaskRef {
	return claude.TaskRef{TaskID: id, TaskType: &typ, Description: "task " + id}
}

// result reads a user line through w, with the tool uses the session knows.
func result(w *Work, line string, uses map[string]string, live map[string]string) map[string]bool {
	return w.Results(Result{
		Frame: claudetest.Frame([]byte(line)),
		Use: func(id string) (toolcall.ToolUse, bool) {
			name, ok := uses[id]
			return toolcall.ToolUse{ID: id, Name: name, Input: json.RawMessage(`{}`)}, ok
		},
		TaskOf: func(id string) string { return live[id] },
	})
}

func noTerminal(string) (Item, bool) { return Item{}, false }

func status(u toolcall.Update) string {
	raw, _ := json.Marshal(u)
	return string(raw)
}

// A Workflow result names its task: the call is registered while the task
// is in the live set and is no command or subagent; the list holds it until
// the task ends, with the final status its end says.
func TestWorkflowCallRunsUntilItsTaskEnds(t *testing.T) {
	var w Work
	w.Level([]claude.TaskRef{ref("w1", "local_workflow")})
	got := result(&w, `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_wf","content":"launched"}]},"tool_use_result":{"taskId":"w1"}}`,
		map[string]string{"toolu_wf": "Workflow"}, nil)
	if !got["toolu_wf"] {
		t.Fatalf("registered = %v, want toolu_wf", got)
	}
	items := w.Items(noTerminal, func(string) (Live, bool) { return Live{ToolUseID: "toolu_wf"}, true })
	if want := []Item{{ToolCallID: "toolu_wf"}}; !reflect.DeepEqual(items, want) {
		t.Errorf("items = %v, want %v", items, want)
	}
	if w.TaskOf("toolu_wf") != "w1" {
		t.Errorf("TaskOf = %q", w.TaskOf("toolu_wf"))
	}
	if u, ok := w.Paused("w1", true); !ok || u.Status != Paused {
		t.Errorf("paused: %v %v", status(u), ok)
	}
	if _, ok := w.Paused("w1", true); ok {
		t.Error("a second pause reported again")
	}
	if cur := w.Current([]string{"toolu_wf"}); len(cur) != 1 || cur[0].Status != Paused || cur[0].Use.Name != "Workflow" {
		t.Errorf("current = %+v", cur)
	}
	u, ok := w.Ended("w1", "stopped")
	if want := `{"toolCallId":"toolu_wf","sessionUpdate":"tool_call_update","status":"cancelled"}`; !ok || status(u) != want {
		t.Errorf("ended: %s, want %s", status(u), want)
	}
	if _, ok := w.Ended("w1", "completed"); ok {
		t.Error("a task ended twice")
	}
}

// Calls that do not run on are not registered: a failed result, a task not
// in the live set, housekeeping, a command (its terminal is listed) or a
// subagent (its session is), and a second result beside a structured one.
func TestCallsThatDoNotRunOnAreNotRegistered(t *testing.T) {
	cases := map[string]struct {
		level []claude.TaskRef
		line  string
	}{
		"error":    {[]claude.TaskRef{ref("w1", "local_workflow")}, `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_wf","is_error":true}]},"tool_use_result":{"taskId":"w1"}}`},
		"not live": {nil, `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_wf"}]},"tool_use_result":{"taskId":"w1"}}`},
		"ambient":  {[]claude.TaskRef{{TaskID: "w1", Ambient: true}}, `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_wf"}]},"tool_use_result":{"taskId":"w1"}}`},
		"monitor":  {[]claude.TaskRef{ref("w1", "local_bash")}, `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_wf"}]},"tool_use_result":{"taskId":"w1"}}`},
		"subagent": {[]claude.TaskRef{ref("w1", "local_agent")}, `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_wf"}]},"tool_use_result":{"taskId":"w1"}}`},
		"two results": {[]claude.TaskRef{ref("w1", "local_workflow")}, `{"type":"user","message":{"content":[` +
			`{"type":"tool_result","tool_use_id":"toolu_wf"},{"type":"tool_result","tool_use_id":"toolu_read"}]},"tool_use_result":{"taskId":"w1"}}`},
	}
	for name, c := range cases {
		var w Work
		w.Level(c.level)
		if got := result(&w, c.line, map[string]string{"toolu_wf": "Workflow", "toolu_read": "Read"}, nil); len(got) != 0 {
			t.Errorf("%s: registered %v", name, got)
		}
	}
}

// A call that names no task in its result, such as a backgrounded MCP
// call, is registered by the live task it started; the level that drops
// its task ends it completed, and a closed CLI cancels the root's calls but
// leaves a subagent's.
func TestMCPCallByItsLiveTaskAndTheLevel(t *testing.T) {
	var w Work
	w.Level([]claude.TaskRef{ref("m1", "remote_tool_call"), ref("m2", "remote_tool_call")})
	uses := map[string]string{"toolu_mcp": "mcp__srv__slow", "toolu_sub": "mcp__srv__slow"}
	live := map[string]string{"toolu_mcp": "m1", "toolu_sub": "m2"}
	result(&w, `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_mcp"}]}}`, uses, live)
	result(&w, `{"type":"user","parent_tool_use_id":"toolu_agent","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_sub"}]}}`, uses, live)
	items := w.Items(noTerminal, func(string) (Live, bool) { return Live{}, true })
	if want := []Item{{ToolCallID: "toolu_mcp"}, {ToolCallID: "toolu_sub", ParentToolUseID: "toolu_agent"}}; !reflect.DeepEqual(items, want) {
		t.Fatalf("items = %v, want %v", items, want)
	}
	ended := w.Level([]claude.TaskRef{ref("m2", "remote_tool_call")})
	if len(ended) != 1 || ended[0].ToolCallID != "toolu_mcp" || ended[0].Status != "completed" {
		t.Errorf("level ended %+v", ended)
	}
	if got := w.Closed(); len(got) != 0 {
		t.Errorf("closed ended a subagent's call: %+v", got)
	}
	if w.TaskOf("toolu_sub") != "m2" {
		t.Error("a subagent's call was dropped at the close")
	}
}

// A task no call is registered for is listed as a `_claude/task` item once
// it started and the call that started it returned; commands without a
// terminal, subagents and housekeeping are not listed, and a command with
// a terminal is listed as its terminal, in the live set's order.
func TestOtherTasksAreListed(t *testing.T) {
	var w Work
	w.Level([]claude.TaskRef{ref("b1", "local_bash"), ref("s1", "local_script"), ref("a1", "local_agent"),
		{TaskID: "h1", Ambient: true}, ref("s2", "local_script"), ref("b2", "local_bash")})
	live := map[string]Live{"s1": {ToolUseID: "toolu_script"}, "s2": {}, "a1": {Subagent: true}}
	liveOf := func(id string) (Live, bool) { l, ok := live[id]; return l, ok }
	terminal := func(task string) (Item, bool) {
		return Item{TerminalID: "toolu_bash"}, task == "b2"
	}
	ids := func() []string {
		var out []string
		for _, it := range w.Items(terminal, liveOf) {
			out = append(out, it.TerminalID+it.ToolCallID+it.TaskID)
		}
		return out
	}
	if got, want := ids(), []string{"s2", "toolu_bash"}; !reflect.DeepEqual(got, want) {
		t.Errorf("before the script's call returned: %v, want %v", got, want)
	}
	result(&w, `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_script","is_error":true}]}}`, nil, nil)
	if got, want := ids(), []string{"s1", "s2", "toolu_bash"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after: %v, want %v", got, want)
	}
	if it := w.Items(terminal, liveOf)[0]; it.Description != "task s1" {
		t.Errorf("description = %q", it.Description)
	}
}

// The returned calls stay bounded.
func TestReturnedCallsAreBounded(t *testing.T) {
	var w Work
	for i := range maxReturned + 10 {
		w.returnedCall(string(rune('a'+i%26)) + string(rune(i)))
	}
	if len(w.returned) != maxReturned {
		t.Errorf("returned holds %d, want %d", len(w.returned), maxReturned)
	}
}
