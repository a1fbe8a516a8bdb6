package subagents

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude/claudetest"
	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/adapter/toolcall"
	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/internal/testroot"
)

// sentUpdate is one session/update the router sent.
type sentUpdate = goldentest.SessionUpdate

// TestChildSessionRoutingRules drives the router by hand through what the
// recordings do not show: a child's work before its announcement waits
// for it (a model report replaces the one that waits), a child ends once
// and gets nothing after its end, a launch that failed before any child
// started is shown as a tool call, and a client without the AIR form gets
// everything on the root session.
func TestChildSessionRoutingRules(t *testing.T) {
	var sent []sentUpdate
	r := newRouter(true, "root", sendRecorder(func(id string, raw []byte) { sent = append(sent, sentUpdate{SessionID: id, Update: raw}) }), nil)
	child := func(tool, id, parent string) toolcall.Update {
		return toolcall.Update{SessionUpdate: "tool_call", ToolCallID: id,
			Meta: &toolcall.Meta{ClaudeCode: &toolcall.ClaudeCode{ToolName: tool, ParentToolUseID: parent}}}
	}
	launch := child("Agent", "L1", "")
	launch.RawInput = json.RawMessage(`{"description":"Look","prompt":"Look around."}`)
	r.ToolUpdate(child("Read", "R1", "L1")) // before the launch's task: waits
	r.ToolUpdate(launch)
	r.chunk(map[string]any{"sessionUpdate": "agent_message_chunk"}, "L1")
	if len(sent) != 0 {
		t.Fatalf("sent %d updates before the child started", len(sent))
	}
	r.Frame(claudetest.Frame(`{"subtype":"task_started","task_id":"A1","tool_use_id":"L1","subagent_type":"x"}`))
	want := []string{`root {"capabilities":{},"name":"Look","prompt":"Look around.","sessionUpdate":"subagent_spawned","subagentSessionId":"A1","task":"Look around."}`,
		`A1 {"_meta":{"claudeCode":{"parentToolUseId":"L1","toolName":"Read"}},"sessionUpdate":"tool_call","toolCallId":"R1"}`,
		`A1 {"sessionUpdate":"agent_message_chunk"}`}
	checkSent(t, sent, want)
	sent = nil
	r.ToolUpdate(toolcall.Update{SessionUpdate: "tool_call_update", ToolCallID: "R1", Status: "completed"})
	r.Frame(claudetest.Frame(`{"subtype":"task_updated","task_id":"A1","patch":{"status":"killed"}}`))
	r.Frame(claudetest.Frame(`{"subtype":"task_notification","task_id":"A1","tool_use_id":"L1","status":"completed"}`))
	r.ToolUpdate(child("Bash", "B1", "L1"))
	checkSent(t, sent, []string{`A1 {"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"R1"}`,
		`root {"sessionUpdate":"subagent_state_update","state":"cancelled","subagentSessionId":"A1"}`})

	sent = nil
	r.ToolUpdate(child("Task", "L2", ""))
	r.ToolUpdate(toolcall.Update{SessionUpdate: "tool_call_update", ToolCallID: "L2", Status: "failed"})
	checkSent(t, sent, []string{`root {"_meta":{"claudeCode":{"toolName":"Task"}},"sessionUpdate":"tool_call","status":"failed","toolCallId":"L2"}`})

	sent = nil
	off := newRouter(false, "root", r.send, nil)
	off.ToolUpdate(child("Agent", "L3", ""))
	off.ToolUpdate(child("Read", "R3", "L3"))
	if len(sent) != 2 || sent[0].SessionID != "root" || sent[1].SessionID != "root" {
		t.Fatalf("without the AIR form: %v", sent)
	}
}

// TestChildSessionBufferBounds: the updates that wait for children are
// bounded per child and in all, and only the latest model report waits.
func TestChildSessionBufferBounds(t *testing.T) {
	r := newRouter(true, "root", func(string, any) {}, nil)
	for i := range 40 {
		r.route(routed{update: i, parent: "L"})
	}
	if got := len(r.pending["L"]); got != maxPendingPerParent {
		t.Fatalf("%d updates wait for one child, want %d", got, maxPendingPerParent)
	}
	for i := range 2 {
		r.route(routed{parent: "M", modelOnly: []childOption{{id: "model", raw: json.RawMessage(fmt.Sprint(i))}}})
	}
	if got := r.pending["M"]; len(got) != 1 || string(got[0].modelOnly[0].raw) != "1" {
		t.Fatalf("model reports waiting: %v", got)
	}
	for i := range 300 {
		r.route(routed{update: i, parent: fmt.Sprint("P", i)})
	}
	if len(r.pending) > maxPendingParents || r.npending > maxPendingUpdates {
		t.Fatalf("%d children and %d updates wait", len(r.pending), r.npending)
	}
}

func checkSent(t *testing.T, sent []sentUpdate, want []string) {
	t.Helper()
	var got []string
	for _, s := range sent {
		got = append(got, s.SessionID+" "+goldentest.Canon(t, s.Update))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("sent\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestReplayedChildSessionsAsTheReferenceSendsThem replays the history of
// the subagent-transcript-extension scenario (a finished Agent launch) and
// compares the child session updates with the golden's, but for the
// `prompt` that our `subagent_spawned` carries from the launch input
// (contract, Native subagent sessions; DEVIATIONS.md entry 17) and the
// reference's lacks; a launch whose tool result failed or was interrupted,
// or that has none, ends as such.
func TestReplayedChildSessionsAsTheReferenceSendsThem(t *testing.T) {
	launch := `{"role":"assistant","id":"m2","content":[{"type":"tool_use","id":"toolu_agent","name":"Agent",` +
		`"input":{"description":"Explore","prompt":"Describe the repository","subagent_type":"Explore"}}]}`
	result := `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_agent","content":[{"type":"text","text":"A Go module."}]}]}`
	msgs := []history.Message{{Type: "assistant", Message: json.RawMessage(launch)}, {Type: "user", Message: json.RawMessage(result)}}
	r := newReplaySubagents("<session-1>", msgs)
	var got []sentUpdate
	add := func(out []replayed) {
		for _, o := range out {
			got = append(got, sentUpdate{SessionID: o.sessionID, Update: o.update})
		}
	}
	for _, u := range []string{`{"sessionUpdate":"tool_call","toolCallId":"toolu_agent","_meta":{"claudeCode":{"toolName":"Agent"}}}`,
		`{"sessionUpdate":"tool_call_update","toolCallId":"toolu_agent"}`} {
		if !r.launchReport(json.RawMessage(u)) {
			t.Errorf("the launch's report %s is sent", u)
		}
	}
	if r.launchReport(json.RawMessage(`{"sessionUpdate":"tool_call","toolCallId":"toolu_bash","_meta":{"claudeCode":{"toolName":"Bash"}}}`)) {
		t.Error("a Bash call is taken for a launch")
	}
	for _, launch := range launchesOf(history.Message{Type: "assistant", Message: json.RawMessage(launch)}) {
		add(r.announce(launch, nil))
	}
	add(r.finish())
	golden := goldentest.SessionUpdates(t, filepath.Join(testroot.Root(t), "goldens", "subagent-transcript-extension", "air.golden"))
	want := goldentest.ChildLane(t, "<session-1>", golden)
	const refSpawn, ourSpawn = `"name":"Explore",`, `"name":"Explore","prompt":"Describe the repository",`
	for i, w := range want {
		if strings.Contains(w, `"subagent_spawned"`) {
			if strings.Contains(w, `"prompt"`) || !strings.Contains(w, refSpawn) {
				t.Fatalf("the golden's subagent_spawned changed: %s", w)
			}
			want[i] = strings.Replace(w, refSpawn, ourSpawn, 1)
		}
	}
	if g := goldentest.ChildLane(t, "<session-1>", got); !slices.Equal(g, want) {
		t.Fatalf("replayed\n  %s\nwant\n  %s", strings.Join(g, "\n  "), strings.Join(want, "\n  "))
	}

	for _, c := range []struct{ block, state string }{
		{`{"type":"tool_result","tool_use_id":"L","is_error":true,"content":"Agent was interrupted by the user"}`, "cancelled"},
		{`{"type":"tool_result","tool_use_id":"L","is_error":true,"content":"boom"}`, "failed"},
		{`{"type":"text","text":"<task-notification><task-id>a</task-id><tool-use-id>L</tool-use-id><status>killed</status></task-notification>"}`, "cancelled"},
		{`{"type":"text","text":"nothing"}`, "disconnected"},
	} {
		msgs := []history.Message{
			{Message: json.RawMessage(`{"content":[{"type":"tool_use","id":"L","name":"Task","input":{}}]}`)},
			{Message: json.RawMessage(`{"content":[` + c.block + `]}`)}}
		r := newReplaySubagents("s", msgs)
		r.announce("L", nil)
		out := r.finish()
		if len(out) != 1 || !strings.Contains(string(out[0].update), `"state":"`+c.state+`"`) {
			t.Errorf("%s: end %s, want %s", c.block, out, c.state)
		}
	}
}

// sendRecorder is a router's send that hands record each update as JSON.
func sendRecorder(record func(id string, raw []byte)) func(string, any) {
	return func(id string, u any) {
		if tu, ok := u.(toolcall.Update); ok {
			u = tu.JSON()
		}
		raw, _ := json.Marshal(u)
		record(id, raw)
	}
}

// TestNoLoadedReplay: a session that was opened without a replay (a new,
// resumed or forked one) holds no Loaded state, and publishing it after
// the answer sends nothing.
func TestNoLoadedReplay(t *testing.T) {
	var l *Loaded
	l.PublishStates()
	l.PublishModels()
}

// A session's own perTaskStopAffordance option wins over the RFD form's
// default, both ways (goldens/per-task-stop-option).
func TestPerTaskStop(t *testing.T) {
	rfd := caps.Client{Subagents: true}
	for _, c := range []struct {
		name      string
		c         caps.Client
		meta      string
		stop, set bool
	}{
		{"rfd default", rfd, ``, true, true},
		{"rfd, option false", rfd, `{"claudeCode":{"options":{"perTaskStopAffordance":false}}}`, false, true},
		{"plain, no option", caps.Client{}, `{"claudeCode":{"options":{}}}`, false, false},
		{"plain, option true", caps.Client{}, `{"claudeCode":{"options":{"perTaskStopAffordance":true}}}`, true, true},
		{"rfd, option not a boolean", rfd, `{"claudeCode":{"options":{"perTaskStopAffordance":"no"}}}`, true, true},
	} {
		if stop, set := PerTaskStop(c.c, json.RawMessage(c.meta)); stop != c.stop || set != c.set {
			t.Errorf("%s: PerTaskStop = %v, %v; want %v, %v", c.name, stop, set, c.stop, c.set)
		}
	}
}
