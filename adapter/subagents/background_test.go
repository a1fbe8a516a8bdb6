package subagents

import (
	"reflect"
	"testing"

	"github.com/airwire/airwire/adapter/bgwork"
	"github.com/airwire/airwire/adapter/claude/claudetest"
)

// lists is the router's lists as session → listed children.
func lists(r *Router, rootState string) (map[string][]string, []string) {
	out, order := map[string][]string{}, []string{}
	for _, l := range r.BackgroundLists(rootState, nil) {
		out[l.SessionID] = l.Subagents
		order = append(order, l.SessionID+":"+l.State)
	}
	return out, order
}

// A child is listed in its parent's list while it works and Claude Code's
// live background set (without ambient tasks) holds its task, and while
// it is idle with a listed child of its own; deeper lists come first.
func TestBackgroundLists(t *testing.T) {
	r := newRouter(true, "root", func(string, any) {}, nil)
	r.rfd = true
	r.children = []*childSession{
		{taskID: "t1", sessionID: "c1", parentSessionID: "root", announced: true, rfdChild: rfdChild{workState: "running"}},
		{taskID: "t2", sessionID: "c2", parentSessionID: "c1", announced: true, rfdChild: rfdChild{workState: "running"}},
		{taskID: "t3", sessionID: "c3", parentSessionID: "root", rfdChild: rfdChild{workState: "running"}},
	}
	got, order := lists(r, "running")
	if want := map[string][]string{"root": {}, "c1": {}, "c2": {}}; !reflect.DeepEqual(got, want) {
		t.Errorf("before any live set: %v, want %v", got, want)
	}
	if want := []string{"c2:running", "c1:running", "root:running"}; !reflect.DeepEqual(order, want) {
		t.Errorf("order = %v, want %v", order, want)
	}
	r.taskFrame(claudetest.Frame([]byte(`{"type":"system","subtype":"background_tasks_changed","tasks":[` +
		`{"task_id":"t1"},{"task_id":"t2","ambient":true},{"task_id":"t3"}]}`)))
	got, _ = lists(r, "idle")
	if want := map[string][]string{"root": {"c1"}, "c1": {}, "c2": {}}; !reflect.DeepEqual(got, want) {
		t.Errorf("c1 live, c2 ambient, c3 unannounced: %v, want %v", got, want)
	}
	r.level = map[string]bool{"t2": true}
	r.children[0].workState = "idle"
	got, _ = lists(r, "idle")
	if want := map[string][]string{"root": {"c1"}, "c1": {"c2"}, "c2": {}}; !reflect.DeepEqual(got, want) {
		t.Errorf("idle c1 with live c2: %v, want %v", got, want)
	}
	r.level = map[string]bool{}
	got, _ = lists(r, "idle")
	if want := map[string][]string{"root": {}, "c1": {}, "c2": {}}; !reflect.DeepEqual(got, want) {
		t.Errorf("nothing live: %v, want %v", got, want)
	}
}

// The AIR form lists no child sessions: only the root's list, empty.
func TestBackgroundListsAIRForm(t *testing.T) {
	r := newRouter(true, "root", func(string, any) {}, nil)
	r.children = []*childSession{{taskID: "t1", sessionID: "c1", parentSessionID: "root", announced: true,
		rfdChild: rfdChild{workState: "running"}}}
	r.level = map[string]bool{"t1": true}
	got, _ := lists(r, "running")
	if want := map[string][]string{"root": {}}; !reflect.DeepEqual(got, want) {
		t.Errorf("AIR form: %v, want %v", got, want)
	}
}

// Each item of work goes in the list of the session that runs it: a
// command or tool call in the list of the child whose Agent call made it
// (none for a child that is not announced), a task in the list of the
// child whose task runs it (the root's for an unknown one); a child idle
// with work of its own is listed in its parent's list.
func TestBackgroundListsWork(t *testing.T) {
	r := newRouter(true, "root", func(string, any) {}, nil)
	r.rfd = true
	r.children = []*childSession{
		{taskID: "t1", sessionID: "c1", parentSessionID: "root", launchID: "toolu_agent", announced: true, rfdChild: rfdChild{workState: "idle"}},
	}
	listed := func(work []bgwork.Item) map[string][]string {
		out := map[string][]string{}
		for _, l := range r.BackgroundLists("idle", work) {
			out[l.SessionID] = []string{}
			for _, it := range l.Items {
				out[l.SessionID] = append(out[l.SessionID], it.TerminalID+it.ToolCallID+it.TaskID)
			}
			out[l.SessionID] = append(out[l.SessionID], l.Subagents...)
		}
		return out
	}
	if got, want := listed(nil), map[string][]string{"root": {}, "c1": {}}; !reflect.DeepEqual(got, want) {
		t.Errorf("no work: %v, want %v", got, want)
	}
	work := []bgwork.Item{
		{TerminalID: "toolu_bash1"},
		{TerminalID: "toolu_bash2", ParentToolUseID: "toolu_agent"},
		{TerminalID: "toolu_bash3", ParentToolUseID: "toolu_unknown"},
		{ToolCallID: "toolu_workflow"},
		{ToolCallID: "toolu_mcp", ParentToolUseID: "toolu_agent"},
		{TaskID: "x1", ParentTaskID: "t1"},
		{TaskID: "x2", ParentTaskID: "t9"},
	}
	want := map[string][]string{"root": {"toolu_bash1", "toolu_workflow", "x2", "c1"}, "c1": {"toolu_bash2", "toolu_mcp", "x1"}}
	if got := listed(work); !reflect.DeepEqual(got, want) {
		t.Errorf("all work: %v, want %v", got, want)
	}
	if got, want := listed(work[:1]), map[string][]string{"root": {"toolu_bash1"}, "c1": {}}; !reflect.DeepEqual(got, want) {
		t.Errorf("only the root's command: %v, want %v", got, want)
	}
}
