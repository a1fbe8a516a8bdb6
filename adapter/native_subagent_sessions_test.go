package adapter

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/adapter/sessionconfig"
	"github.com/airwire/airwire/adapter/toolcall"
	"github.com/airwire/airwire/internal/cassette"
)

// airSubagentCaps is the AIR client of the recorded subagent runs.
func airSubagentCaps() caps.Client {
	return caps.Parse(json.RawMessage(`{"_meta":{"jetbrains":{"air":{"version":1,"capabilities":` +
		`["nativeSubagentSessions","asyncTasks","sessionFailure","recommendedValue","diffPatch","rawInputRendering",` +
		`"planContentDelta","planFile","agentFileChangeReport"]}},"terminal_output":true,"terminal_output_delta":true},` +
		`"elicitation":{"form":{}},"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true}`))
}

// sentUpdate is one session/update the router sent.
type sentUpdate struct {
	SessionID string          `json:"sessionId"`
	Update    json.RawMessage `json:"update"`
}

// childLane keeps the updates that the child sessions are about: every
// update of a child session, and the announcements and ends on any.
func childLane(root string, all []sentUpdate) []string {
	var out []string
	for _, u := range all {
		var h struct {
			SessionUpdate string `json:"sessionUpdate"`
		}
		_ = json.Unmarshal(u.Update, &h)
		if u.SessionID != root || strings.HasPrefix(h.SessionUpdate, "subagent_") {
			out = append(out, canonicalJSON(u))
		}
	}
	return out
}

func canonicalJSON(v any) string {
	raw, _ := json.Marshal(v)
	var x any
	_ = json.Unmarshal(raw, &x)
	out, _ := json.Marshal(x)
	return string(out)
}

// goldenUpdates are the session/update params of a golden's client lane.
func goldenUpdates(t *testing.T, path string) []sentUpdate {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	var out []sentUpdate
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "client agent->editor ")
		if !ok {
			continue
		}
		var m struct {
			Method string     `json:"method"`
			Params sentUpdate `json:"params"`
		}
		if json.Unmarshal([]byte(line), &m) == nil && m.Method == "session/update" {
			out = append(out, m.Params)
		}
	}
	return out
}

// TestChildSessionsAsTheReferenceSendsThem feeds the CLI frames of the
// recorded AIR runs to the child session router as the translator does
// (messages, tool reports, task frames, the subagent and own hooks), and
// compares what it sends of the child sessions with the golden: every
// `subagent_spawned` and `subagent_state_update`, and every update routed
// to a child session, in order and whole.
func TestChildSessionsAsTheReferenceSendsThem(t *testing.T) {
	root := moduleRoot(t)
	for _, name := range []string{"subagent-native-sessions", "subagent-agent-async", "subagent-late-child-update",
		"subagent-nested", "subagent-task-legacy", "subagent-sendmessage-resume"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(root, "goldens", name)
			want := childLane("<session-1>", goldenUpdates(t, filepath.Join(dir, "air.golden")))
			got := childLane("<session-1>", replayChildSessions(t, filepath.Join(dir, "air.cassette"), airSubagentCaps()))
			if len(want) == 0 {
				t.Fatal("the golden has no child session update")
			}
			if !slices.Equal(got, want) {
				t.Errorf("child lane differs\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
			}
		})
	}
}

// replayChildSessions runs a cassette's CLI frames through a router and
// returns what it sent, with the normalization of the goldens.
func replayChildSessions(t *testing.T, path string, cl caps.Client) []sentUpdate {
	t.Helper()
	c, err := cassette.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var sent []sentUpdate
	tr := &translator{tools: toolcall.NewSession(cl, "{{cwd}}"), bg: newBackground(cl)}
	tr.sub = newSubagentRouter(true, "<session-1>", func(id string, u any) {
		if tu, ok := u.(toolcall.Update); ok {
			u = tu.JSON()
		}
		raw, _ := json.Marshal(u)
		sent = append(sent, sentUpdate{id, raw})
	}, nil)
	tr.sub.rfd = subagentForm(cl) == "rfd"
	tr.sub.forward = true
	subHooks, agents := map[string]bool{}, []string{}
	for _, ev := range c.Processes[0].Events {
		if ev.Msg == nil {
			continue
		}
		if ev.Dir == cassette.DirAgent {
			subagentHookIDs(ev.Msg, subHooks)
			continue
		}
		agents = feedFrame(t, tr, ev.Msg, subHooks, agents, cl)
	}
	return normalizeChildIDs(sent, agents)
}

// subagentHookIDs reads the agent's initialize: the first callback of each
// subagent hook event is the subagent configuration hook (sessionHooks).
func subagentHookIDs(msg json.RawMessage, ids map[string]bool) {
	var m struct {
		Request struct {
			Subtype string `json:"subtype"`
			Hooks   map[string][]struct {
				IDs []string `json:"hookCallbackIds"`
			} `json:"hooks"`
		} `json:"request"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Request.Subtype != "initialize" {
		return
	}
	for _, ev := range []string{"SubagentStart", "SubagentStop", "PostToolUseFailure", "PreToolUse", "PostToolUse", "PostModelSwitch"} {
		if ms := m.Request.Hooks[ev]; len(ms) > 0 && len(ms[0].IDs) > 0 {
			ids[ms[0].IDs[0]] = true
		}
	}
}

// feedFrame gives one CLI frame to the translator parts the router serves.
func feedFrame(t *testing.T, tr *translator, msg json.RawMessage, subHooks map[string]bool, agents []string, cl caps.Client) []string {
	var h struct {
		Type    string `json:"type"`
		Subtype string `json:"subtype"`
		TaskID  string `json:"task_id"`
		SubType string `json:"subagent_type"`
		Request struct {
			Subtype    string          `json:"subtype"`
			CallbackID string          `json:"callback_id"`
			Input      json.RawMessage `json:"input"`
		} `json:"request"`
		Response struct {
			Response json.RawMessage `json:"response"`
		} `json:"response"`
	}
	_ = json.Unmarshal(msg, &h)
	switch {
	case h.Type == "control_response" && tr.sub.config == nil && bytes.Contains(h.Response.Response, []byte(`"models"`)):
		in, err := sessionconfig.ParseInit(h.Response.Response)
		if err != nil {
			t.Fatal(err)
		}
		cfg := sessionconfig.New(in, sessionconfig.Settings{}, sessionconfig.Options{Mode: "auto", BuiltInDefault: true,
			AllowAuto: true, AllowBypass: true, Recommended: cl.AIR.Has(caps.RecommendedValue), PresentationHints: cl.AIR.Client})
		tr.sub.config = sessionChildConfig{&Session{cfg: cfg}}
	case h.Type == "control_request" && h.Request.Subtype == "hook_callback" && subHooks[h.Request.CallbackID]:
		tr.sub.subagentHookReport(h.Request.Input)
	case h.Type == "control_request" && h.Request.Subtype == "hook_callback":
		tr.sendAll(tr.tools.Frame(msg))
	case h.Type == "assistant":
		tr.assistantOfSubagent(msg)
		tr.sendAll(tr.toolUpdates(cliFrame(msg)))
	case h.Type == "user":
		tr.sub.userFrame(msg)
		tr.sendAll(tr.toolUpdates(cliFrame(msg)))
	case h.Type == "system" && strings.HasPrefix(h.Subtype, "task_"):
		if h.Subtype == "task_started" && h.SubType != "" && !slices.Contains(agents, h.TaskID) {
			agents = append(agents, h.TaskID)
		}
		tr.sub.taskFrame(msg)
	}
	return agents
}

// assistantOfSubagent is the translator's handling of a subagent message.
func (t *translator) assistantOfSubagent(line json.RawMessage) {
	var m assistantLine
	if json.Unmarshal(line, &m) == nil && m.Parent != nil {
		t.subagentAssistant(*m.Parent, m)
	}
}

// normalizeChildIDs writes the agent ids and the cwd as the goldens do.
func normalizeChildIDs(sent []sentUpdate, agents []string) []sentUpdate {
	out := make([]sentUpdate, len(sent))
	for i, u := range sent {
		text := strings.ReplaceAll(string(u.Update), "{{cwd}}", "<cwd>")
		id := u.SessionID
		for n, a := range agents {
			text = strings.ReplaceAll(text, a, fmt.Sprintf("<agent-%d>", n+1))
			id = strings.ReplaceAll(id, a, fmt.Sprintf("<agent-%d>", n+1))
		}
		out[i] = sentUpdate{id, json.RawMessage(text)}
	}
	return out
}

// TestChildSessionRoutingRules drives the router by hand through what the
// recordings do not show: a child's work before its announcement waits
// for it (a model report replaces the one that waits), a child ends once
// and gets nothing after its end, a launch that failed before any child
// started is shown as a tool call, and a client without the AIR form gets
// everything on the root session.
func TestChildSessionRoutingRules(t *testing.T) {
	var sent []sentUpdate
	r := newSubagentRouter(true, "root", sendRecorder(func(id string, raw []byte) { sent = append(sent, sentUpdate{id, raw}) }), nil)
	child := func(tool, id, parent string) toolcall.Update {
		return toolcall.Update{SessionUpdate: "tool_call", ToolCallID: id,
			Meta: &toolcall.Meta{ClaudeCode: &toolcall.ClaudeCode{ToolName: tool, ParentToolUseID: parent}}}
	}
	launch := child("Agent", "L1", "")
	launch.RawInput = json.RawMessage(`{"description":"Look","prompt":"Look around."}`)
	r.toolUpdate(child("Read", "R1", "L1")) // before the launch's task: waits
	r.toolUpdate(launch)
	r.chunk(map[string]any{"sessionUpdate": "agent_message_chunk"}, "L1")
	if len(sent) != 0 {
		t.Fatalf("sent %d updates before the child started", len(sent))
	}
	r.taskFrame(json.RawMessage(`{"subtype":"task_started","task_id":"A1","tool_use_id":"L1","subagent_type":"x"}`))
	want := []string{`root {"capabilities":{},"name":"Look","prompt":"Look around.","sessionUpdate":"subagent_spawned","subagentSessionId":"A1","task":"Look around."}`,
		`A1 {"_meta":{"claudeCode":{"parentToolUseId":"L1","toolName":"Read"}},"sessionUpdate":"tool_call","toolCallId":"R1"}`,
		`A1 {"sessionUpdate":"agent_message_chunk"}`}
	checkSent(t, sent, want)
	sent = nil
	r.toolUpdate(toolcall.Update{SessionUpdate: "tool_call_update", ToolCallID: "R1", Status: "completed"})
	r.taskFrame(json.RawMessage(`{"subtype":"task_updated","task_id":"A1","patch":{"status":"killed"}}`))
	r.taskFrame(json.RawMessage(`{"subtype":"task_notification","task_id":"A1","tool_use_id":"L1","status":"completed"}`))
	r.toolUpdate(child("Bash", "B1", "L1"))
	checkSent(t, sent, []string{`A1 {"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"R1"}`,
		`root {"sessionUpdate":"subagent_state_update","state":"cancelled","subagentSessionId":"A1"}`})

	sent = nil
	r.toolUpdate(child("Task", "L2", ""))
	r.toolUpdate(toolcall.Update{SessionUpdate: "tool_call_update", ToolCallID: "L2", Status: "failed"})
	checkSent(t, sent, []string{`root {"_meta":{"claudeCode":{"toolName":"Task"}},"sessionUpdate":"tool_call","status":"failed","toolCallId":"L2"}`})

	sent = nil
	off := newSubagentRouter(false, "root", r.send, nil)
	off.toolUpdate(child("Agent", "L3", ""))
	off.toolUpdate(child("Read", "R3", "L3"))
	if len(sent) != 2 || sent[0].SessionID != "root" || sent[1].SessionID != "root" {
		t.Fatalf("without the AIR form: %v", sent)
	}
}

// TestChildSessionBufferBounds: the updates that wait for children are
// bounded per child and in all, and only the latest model report waits.
func TestChildSessionBufferBounds(t *testing.T) {
	r := newSubagentRouter(true, "root", func(string, any) {}, nil)
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
		got = append(got, s.SessionID+" "+canonicalJSON(s.Update))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("sent\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestReplayedChildSessionsAsTheReferenceSendsThem replays the history of
// the subagent-transcript-extension scenario (a finished Agent launch) and
// compares the child session updates with the golden's; a launch whose
// tool result failed or was interrupted, or that has none, ends as such.
func TestReplayedChildSessionsAsTheReferenceSendsThem(t *testing.T) {
	launch := `{"role":"assistant","id":"m2","content":[{"type":"tool_use","id":"toolu_agent","name":"Agent",` +
		`"input":{"description":"Explore","prompt":"Describe the repository","subagent_type":"Explore"}}]}`
	result := `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_agent","content":[{"type":"text","text":"A Go module."}]}]}`
	msgs := []history.Message{{Type: "assistant", Message: json.RawMessage(launch)}, {Type: "user", Message: json.RawMessage(result)}}
	r := newReplaySubagents("<session-1>", msgs)
	var got []sentUpdate
	add := func(out []replayed) {
		for _, o := range out {
			got = append(got, sentUpdate{o.sessionID, o.update})
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
	golden := goldenUpdates(t, filepath.Join(moduleRoot(t), "goldens", "subagent-transcript-extension", "air.golden"))
	want := childLane("<session-1>", golden)
	if g := childLane("<session-1>", got); !slices.Equal(g, want) {
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

// TestChildAsyncTasksGoToTheChildSession: a background command that a
// subagent's Bash call started reports its async task on the child
// session, also after the child ended; a task of the root stays there.
func TestChildAsyncTasksGoToTheChildSession(t *testing.T) {
	var sent []sentUpdate
	r := newSubagentRouter(true, "root", sendRecorder(func(id string, raw []byte) { sent = append(sent, sentUpdate{id, raw}) }), nil)
	tasks := newAsyncTasks(true, false, func(u any) { r.send("root", u) })
	tasks.routeOf = r.routeOfCall
	r.toolUpdate(toolcall.Update{SessionUpdate: "tool_call", ToolCallID: "L1",
		Meta: &toolcall.Meta{ClaudeCode: &toolcall.ClaudeCode{ToolName: "Agent"}}})
	r.taskFrame(json.RawMessage(`{"subtype":"task_started","task_id":"A1","tool_use_id":"L1","subagent_type":"x"}`))
	r.toolUpdate(toolcall.Update{SessionUpdate: "tool_call", ToolCallID: "B1",
		Meta: &toolcall.Meta{ClaudeCode: &toolcall.ClaudeCode{ToolName: "Bash", ParentToolUseID: "L1"}}})
	r.taskFrame(json.RawMessage(`{"subtype":"task_notification","task_id":"A1","tool_use_id":"L1","status":"completed"}`))
	sent = nil
	shell, yes := "local_bash", true
	tasks.started(taskEventFrame{TaskID: "b1", ToolUseID: "B1", TaskType: &shell, IsBackgrounded: &yes, Description: "Watch"}, false)
	tasks.started(taskEventFrame{TaskID: "b2", ToolUseID: "R1", TaskType: &shell, IsBackgrounded: &yes, Description: "Root"}, false)
	tasks.notification(taskEventFrame{TaskID: "b1", Status: "completed"})
	var got []string
	for _, s := range sent {
		var u struct {
			Kind string `json:"sessionUpdate"`
			ID   string `json:"asyncTaskId"`
		}
		_ = json.Unmarshal(s.Update, &u)
		got = append(got, s.SessionID+" "+u.Kind+" "+u.ID)
	}
	want := []string{"A1 async_task_spawned b1", "root async_task_spawned b2", "A1 async_task_state_update b1"}
	if !slices.Equal(got, want) {
		t.Fatalf("sent %q, want %q", got, want)
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
