package adapter

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/toolcall"
)

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
func rfdLane(root string, all []sentUpdate) []string {
	var out []string
	for _, u := range all {
		var h struct {
			SessionUpdate string `json:"sessionUpdate"`
		}
		_ = json.Unmarshal(u.Update, &h)
		if u.SessionID != root || h.SessionUpdate == "subagent_update" || h.SessionUpdate == "session_message" {
			out = append(out, canonicalJSON(u))
		}
	}
	return out
}

// cassettePlaceholders writes the cassettes' placeholders of the CLI's
// paths (the text of a launch's result) as the goldens normalize them.
var cassettePlaceholders = strings.NewReplacer("{{tmpdir}}", `\u003ctmp\u003e/tmp`,
	"{{project_dir}}", `\u003cproject-dir\u003e`, "{{session_id_1}}", `\u003csession-1\u003e`)

// TestRFDChildSessionsAsTheReferenceSendsThem feeds the CLI frames of the
// recorded RFD runs (a client that is not AIR and declares `subagents`)
// to the router as the translator does, and compares what it sends of the
// child sessions with the golden, in order and whole: the announcement
// (`subagent_update` running, with its labels and `cancel`), the launch
// prompt and the hand-back as linked `session_message` pairs, the reply of
// a launch, the child's own updates, and its end (idle, end_turn).
func TestRFDChildSessionsAsTheReferenceSendsThem(t *testing.T) {
	root := moduleRoot(t)
	for _, name := range []string{"subagent-rfd-sessions", "subagent-rfd-foreground", "subagent-rfd-send-message",
		"subagent-rfd-cancel-child", "subagent-rfd-cancel", "subagent-rfd-nested"} {
		for _, profile := range []string{"plain", "zed"} {
			t.Run(name+"/"+profile, func(t *testing.T) {
				dir := filepath.Join(root, "goldens", name)
				cl := goldenClientCaps(t, filepath.Join(dir, profile+".golden"))
				if subagentForm(cl) != "rfd" {
					t.Fatalf("form %q, want rfd", subagentForm(cl))
				}
				want := rfdLane("<session-1>", goldenUpdates(t, filepath.Join(dir, profile+".golden")))
				got := rfdLane("<session-1>", replayChildSessions(t, filepath.Join(dir, profile+".cassette"), cl))
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

// TestRFDRoutingRules drives the RFD form by hand through what the
// recordings do not show: a launch that never made a child is shown as
// one tool call with its final status, a failed hand-back is shown to the
// child, a SendMessage that reached no child is shown to its sender once
// final, a failure reports its error, and a cancel of the root reports
// nothing.
func TestRFDRoutingRules(t *testing.T) {
	var sent []sentUpdate
	r := newSubagentRouter(true, "root", sendRecorder(func(id string, raw []byte) { sent = append(sent, sentUpdate{id, raw}) }), nil)
	r.rfd = true
	call := func(id, kind, tool, status, parent, input string) {
		u := toolcall.Update{ToolCallID: id, SessionUpdate: kind, Status: status, RawInput: json.RawMessage(input),
			Meta: &toolcall.Meta{ClaudeCode: &toolcall.ClaudeCode{ToolName: tool, ParentToolUseID: parent}}}
		r.toolUpdate(u)
	}
	take := func() []string {
		out := make([]string, len(sent))
		for i, u := range sent {
			out[i] = u.SessionID + " " + string(u.Update)
		}
		sent = nil
		return out
	}
	// A foreground launch that failed before its child started.
	call("a1", "tool_call", "Agent", "pending", "", `{"prompt":"p"}`)
	call("a1", "tool_call_update", "Agent", "failed", "", "")
	if got := take(); len(got) != 1 || !strings.HasPrefix(got[0], "root ") ||
		!strings.Contains(got[0], `"sessionUpdate":"tool_call"`) || !strings.Contains(got[0], `"status":"failed"`) {
		t.Errorf("unexposed launch = %q", got)
	}
	// A child: announced running, with its prompt as linked messages.
	call("a2", "tool_call", "Agent", "pending", "", `{"description":"Look","prompt":"Look around.","subagent_type":"Explore"}`)
	r.taskFrame(json.RawMessage(`{"subtype":"task_started","task_id":"c1","tool_use_id":"a2","subagent_type":"Explore","prompt":"Look around."}`))
	got := take()
	if len(got) != 3 || !strings.Contains(got[0], `"title":"Look"`) || !strings.Contains(got[0], `"description":"Explore"`) ||
		!strings.Contains(got[1], `"recipientMessageId":"a2"`) || !strings.HasPrefix(got[2], "c1 ") {
		t.Fatalf("announcement = %q", got)
	}
	// A failed hand-back is shown to the child; a SendMessage to nobody to its sender, once final.
	call("h1", "tool_call", "SubagentHandback", "pending", "a2", `{"message":"m"}`)
	call("h1", "tool_call_update", "SubagentHandback", "failed", "a2", "")
	call("s1", "tool_call", "SendMessage", "pending", "", `{"to":"x"}`)
	if got := take(); len(got) != 1 || !strings.HasPrefix(got[0], "c1 ") || !strings.Contains(got[0], `"status":"failed"`) {
		t.Errorf("failed hand-back = %q", got)
	}
	call("s1", "tool_call_update", "SendMessage", "completed", "", "")
	if got := take(); len(got) != 1 || !strings.HasPrefix(got[0], "root ") || !strings.Contains(got[0], `"status":"completed"`) {
		t.Errorf("SendMessage = %q", got)
	}
	// A cancel of the root reports nothing; a failure reports its error.
	r.parentCancelled()
	r.taskFrame(json.RawMessage(`{"subtype":"task_updated","task_id":"c1","patch":{"status":"failed","error":"boom"}}`))
	if got := take(); len(got) != 1 || !strings.Contains(got[0], `"stopReason":"error"`) || !strings.Contains(got[0], `"message":"boom"`) {
		t.Errorf("failure = %q", got)
	}
}

// TestRFDAwaitingUser: a child that asks is requires_action while its
// requests are open and running after the last one; a request withdrawn
// after a cancel of the root reports no running (the child is being
// stopped); a request of the root session changes nothing.
func TestRFDAwaitingUser(t *testing.T) {
	var states []string
	tr := &translator{}
	tr.sub = newSubagentRouter(true, "root", func(_ string, u any) {
		if m, ok := u.(map[string]any); ok && m["sessionUpdate"] == "subagent_update" {
			states = append(states, m["state"].(map[string]any)["state"].(string))
		}
	}, nil)
	tr.sub.rfd = true
	tr.sub.taskFrame(json.RawMessage(`{"subtype":"task_started","task_id":"c1","subagent_type":"general-purpose"}`))
	child, root := json.RawMessage(`{"sessionId":"c1"}`), json.RawMessage(`{"sessionId":"root"}`)
	first, second := tr.awaitUser(child), tr.awaitUser(child)
	tr.awaitUser(root)(false)
	first(false)
	second(false)
	third := tr.awaitUser(child)
	tr.sub.parentCancelled()
	third(true)
	want := []string{"running", "requires_action", "running", "requires_action"}
	if !slices.Equal(states, want) {
		t.Errorf("states = %v, want %v", states, want)
	}
}

// TestRFDSendMessageResult: a SendMessage result that resumed an idle
// child, with no task_started before it, runs the child again and gives
// it the message as linked session messages, which replace the call; a
// result for a run that already ended resumes nothing.
func TestRFDSendMessageResult(t *testing.T) {
	var sent []string
	r := newSubagentRouter(true, "root", sendRecorder(func(id string, raw []byte) { sent = append(sent, id+" "+string(raw)) }), nil)
	r.rfd = true
	r.taskFrame(json.RawMessage(`{"subtype":"task_started","task_id":"c1","subagent_type":"Explore"}`))
	r.taskFrame(json.RawMessage(`{"subtype":"task_updated","task_id":"c1","patch":{"status":"completed"}}`))
	sent = nil
	send := func(status string) {
		r.toolUpdate(toolcall.Update{ToolCallID: "s1", SessionUpdate: map[bool]string{true: "tool_call", false: "tool_call_update"}[status == "pending"],
			Status: status, RawInput: json.RawMessage(`{"to":"c1","message":"More, please."}`),
			Meta: &toolcall.Meta{ClaudeCode: &toolcall.ClaudeCode{ToolName: "SendMessage"}}})
	}
	result := json.RawMessage(`{"type":"user","tool_use_result":{"success":true,"resumedAgentId":"c1"},` +
		`"message":{"content":[{"type":"tool_result","tool_use_id":"s1"}]}}`)
	send("pending")
	r.sendMessageResult(result)
	send("completed")
	want := []string{
		`root {"sessionId":"c1","sessionUpdate":"subagent_update","state":{"state":"running"}}`,
		`root {"content":[{"text":"More, please.","type":"text"}],"messageId":"s1","recipientMessageId":"s1","recipientSessionId":"c1","senderSessionId":"root","sessionUpdate":"session_message"}`,
		`c1 {"content":[{"text":"More, please.","type":"text"}],"messageId":"s1","recipientSessionId":"c1","senderMessageId":"s1","senderSessionId":"root","sessionUpdate":"session_message"}`,
	}
	if !slices.Equal(sent, want) {
		t.Errorf("sent\n%s\nwant\n%s", strings.Join(sent, "\n"), strings.Join(want, "\n"))
	}
	r.taskFrame(json.RawMessage(`{"subtype":"task_updated","task_id":"c1","patch":{"status":"completed"}}`))
	sent = nil
	send("pending")
	r.sendMessageResult(result)
	if len(sent) != 0 {
		t.Errorf("a result of an ended run sent %q", sent)
	}
}
