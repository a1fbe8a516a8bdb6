package adapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/asynctasks"
	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/claude/claudetest"
	"github.com/airwire/airwire/adapter/sessionconfig"
	"github.com/airwire/airwire/adapter/subagents"
	"github.com/airwire/airwire/adapter/toolcall"
	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/internal/testroot"
)

// airSubagentCaps is the AIR client of the recorded subagent runs.
func airSubagentCaps() caps.Client {
	return caps.Parse(json.RawMessage(`{"_meta":{"jetbrains":{"air":{"version":1,"capabilities":` +
		`["nativeSubagentSessions","asyncTasks","sessionFailure","recommendedValue","diffPatch","rawInputRendering",` +
		`"planContentDelta","planFile","agentFileChangeReport"]}},"terminal_output":true,"terminal_output_delta":true},` +
		`"elicitation":{"form":{}},"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true}`))
}

// sentUpdate is one session/update the router sent.
type sentUpdate = goldentest.SessionUpdate

// TestChildSessionsAsTheReferenceSendsThem feeds the CLI frames of the
// recorded AIR runs to the child session router as the translator does
// (messages, tool reports, task frames, the subagent and own hooks), and
// compares what it sends of the child sessions with the golden: every
// `subagent_spawned` and `subagent_state_update`, and every update routed
// to a child session, in order and whole.
func TestChildSessionsAsTheReferenceSendsThem(t *testing.T) {
	root := testroot.Root(t)
	for _, name := range []string{"subagent-native-sessions", "subagent-agent-async", "subagent-late-child-update",
		"subagent-nested", "subagent-task-legacy", "subagent-sendmessage-resume"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(root, "goldens", name)
			want := goldentest.ChildLane(t, "<session-1>", goldentest.SessionUpdates(t, filepath.Join(dir, "air.golden")))
			got := goldentest.ChildLane(t, "<session-1>", replayChildSessions(t, filepath.Join(dir, "air.cassette"), airSubagentCaps()))
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
	h := &recordingHost{}
	tr := &translator{tools: toolcall.NewSession(cl, "{{cwd}}"), bg: newBackground(cl)}
	tr.sub = subagents.New(h, "<session-1>", "", cl)
	tr.sub.Initialize(&claude.Initialize{}, nil, subagents.HookFuncs{})
	subHooks, agents := map[string]bool{}, []string{}
	for _, ev := range c.Processes[0].Events {
		if ev.Msg == nil {
			continue
		}
		if ev.Dir == cassette.DirAgent {
			subagentHookIDs(ev.Msg, subHooks)
			continue
		}
		agents = feedFrame(t, tr, h, ev.Msg, subHooks, agents, cl)
	}
	return normalizeChildIDs(h.sent, agents)
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
func feedFrame(t *testing.T, tr *translator, host *recordingHost, msg json.RawMessage, subHooks map[string]bool, agents []string, cl caps.Client) []string {
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
	case h.Type == "control_response" && host.cfg == nil && bytes.Contains(h.Response.Response, []byte(`"models"`)):
		in, err := sessionconfig.ParseInit(h.Response.Response)
		if err != nil {
			t.Fatal(err)
		}
		cfg := sessionconfig.New(in, sessionconfig.Settings{}, sessionconfig.Options{Mode: "auto", BuiltInDefault: true,
			AllowAuto: true, AllowBypass: true, Recommended: cl.AIR.Has(caps.RecommendedValue), PresentationHints: cl.AIR.Client})
		host.cfg = cfg
	case h.Type == "control_request" && h.Request.Subtype == "hook_callback" && subHooks[h.Request.CallbackID]:
		tr.sub.HookReport(h.Request.Input)
	case h.Type == "control_request" && h.Request.Subtype == "hook_callback":
		tr.sendAll(tr.tools.Frame(msg))
	case h.Type == "assistant":
		tr.assistantOfSubagent(msg)
		tr.sendAll(tr.toolUpdates(claudetest.Frame(msg)))
	case h.Type == "user":
		tr.sub.Frame(claudetest.Frame(msg))
		tr.sendAll(tr.toolUpdates(claudetest.Frame(msg)))
	case h.Type == "system" && strings.HasPrefix(h.Subtype, "task_"):
		if h.Subtype == "task_started" && h.SubType != "" && !slices.Contains(agents, h.TaskID) {
			agents = append(agents, h.TaskID)
		}
		tr.sub.Frame(claudetest.Frame(msg))
	}
	return agents
}

// assistantOfSubagent is the translator's handling of a subagent message.
func (t *translator) assistantOfSubagent(line json.RawMessage) {
	if m, err := claude.DecodeFrame(line); err == nil && m.Parent != nil {
		t.subagentAssistant(*m.Parent, *m)
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
		out[i] = sentUpdate{SessionID: id, Update: json.RawMessage(text)}
	}
	return out
}

// TestChildAsyncTasksGoToTheChildSession: a background command that a
// subagent's Bash call started reports its async task on the child
// session, also after the child ended; a task of the root stays there.
func TestChildAsyncTasksGoToTheChildSession(t *testing.T) {
	h := &recordingHost{}
	r := subagents.New(h, "root", "", airSubagentCaps())
	air := caps.Client{AIR: caps.AIR{Client: true, Capabilities: []string{caps.AsyncTasks}}}
	tasks := asynctasks.New(air, asyncTasksHost{send: func(u any) { h.Notify("root", u) }, routeOf: r.RouteOfCall})
	r.ToolUpdate(toolcall.Update{SessionUpdate: "tool_call", ToolCallID: "L1",
		Meta: &toolcall.Meta{ClaudeCode: &toolcall.ClaudeCode{ToolName: "Agent"}}})
	r.Frame(claudetest.Frame([]byte(`{"type":"system","subtype":"task_started","task_id":"A1","tool_use_id":"L1","subagent_type":"x"}`)))
	r.ToolUpdate(toolcall.Update{SessionUpdate: "tool_call", ToolCallID: "B1",
		Meta: &toolcall.Meta{ClaudeCode: &toolcall.ClaudeCode{ToolName: "Bash", ParentToolUseID: "L1"}}})
	r.Frame(claudetest.Frame([]byte(`{"type":"system","subtype":"task_notification","task_id":"A1","tool_use_id":"L1","status":"completed"}`)))
	h.sent = nil
	for _, line := range []string{
		`{"type":"system","subtype":"task_started","task_id":"b1","tool_use_id":"B1","task_type":"local_bash","is_backgrounded":true,"description":"Watch"}`,
		`{"type":"system","subtype":"task_started","task_id":"b2","tool_use_id":"R1","task_type":"local_bash","is_backgrounded":true,"description":"Root"}`,
		`{"type":"system","subtype":"task_notification","task_id":"b1","status":"completed"}`,
	} {
		fh := claudetest.Frame([]byte(line))
		tasks.Frame(asyncHead(*fh), fh)
	}
	var got []string
	for _, s := range h.sent {
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

// recordingHost is a router's Host that records each update as JSON.
type recordingHost struct {
	sent []sentUpdate
	cfg  *sessionconfig.Session // once the CLI gave its lists
}

func (h *recordingHost) Notify(id string, u any) {
	if tu, ok := u.(toolcall.Update); ok {
		u = tu.JSON()
	}
	raw, _ := json.Marshal(u)
	h.sent = append(h.sent, sentUpdate{SessionID: id, Update: raw})
}

func (h *recordingHost) Config() subagents.Config {
	if h.cfg == nil {
		return nil
	}
	return h.cfg
}

func (h *recordingHost) Transcript() (string, bool) { return "", false }

// goldenClientCaps is the clientCapabilities that a golden's client
// declared in its initialize request.
func goldenClientCaps(t *testing.T, path string) caps.Client {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		body, ok := strings.CutPrefix(line, "client editor->agent ")
		if !ok {
			continue
		}
		var m struct {
			Method string `json:"method"`
			Params struct {
				ClientCapabilities json.RawMessage `json:"clientCapabilities"`
			} `json:"params"`
		}
		if json.Unmarshal([]byte(body), &m) == nil && m.Method == "initialize" {
			return caps.Parse(m.Params.ClientCapabilities)
		}
	}
	t.Fatal("the golden has no initialize request")
	return caps.Client{}
}

// rfdLane keeps what the RFD form sends of the child sessions: every
// update of a child session, and the announcements, work states and
// session messages on the root.
func rfdLane(t *testing.T, root string, all []sentUpdate) []string {
	return goldentest.Lane(t, all, func(sessionID, kind string) bool {
		return sessionID != root || kind == "subagent_update" || kind == "session_message"
	})
}

// cassettePlaceholders writes the cassettes' placeholders of the CLI's
// paths (the text of a launch's result) as the goldens normalize them.
var cassettePlaceholders = strings.NewReplacer("{{tmpdir}}", `<tmp>/tmp`,
	"{{project_dir}}", `<project-dir>`, "{{session_id_1}}", `<session-1>`)

// TestRFDChildSessionsAsTheReferenceSendsThem feeds the CLI frames of the
// recorded RFD runs (a client that is not AIR and declares `subagents`)
// to the router as the translator does, and compares what it sends of the
// child sessions with the golden, in order and whole: the announcement
// (`subagent_update` running, with its labels and `cancel`), the launch
// prompt and the hand-back as linked `session_message` pairs, the reply of
// a launch, the child's own updates, and its end (idle, end_turn).
func TestRFDChildSessionsAsTheReferenceSendsThem(t *testing.T) {
	root := testroot.Root(t)
	for _, name := range []string{"subagent-rfd-sessions", "subagent-rfd-foreground", "subagent-rfd-send-message",
		"subagent-rfd-cancel-child", "subagent-rfd-cancel", "subagent-rfd-nested"} {
		for _, profile := range []string{"plain", "zed"} {
			t.Run(name+"/"+profile, func(t *testing.T) {
				dir := filepath.Join(root, "goldens", name)
				cl := goldenClientCaps(t, filepath.Join(dir, profile+".golden"))
				if subagents.Form(cl) != "rfd" {
					t.Fatalf("form %q, want rfd", subagents.Form(cl))
				}
				want := rfdLane(t, "<session-1>", goldentest.SessionUpdates(t, filepath.Join(dir, profile+".golden")))
				got := rfdLane(t, "<session-1>", replayChildSessions(t, filepath.Join(dir, profile+".cassette"), cl))
				for i := range got {
					got[i] = cassettePlaceholders.Replace(got[i])
				}
				if !slices.ContainsFunc(want, func(s string) bool { return strings.Contains(s, `"subagent_update"`) }) {
					t.Fatal("the golden has no subagent_update")
				}
				if !slices.Equal(got, want) {
					t.Errorf("child lane differs\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
				}
			})
		}
	}
}
