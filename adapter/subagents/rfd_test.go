package subagents

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/claude/claudetest"
	"github.com/airwire/airwire/adapter/toolcall"
)

// TestRFDRoutingRules drives the RFD form by hand through what the
// recordings do not show: a launch that never made a child is shown as
// one tool call with its final status, a failed hand-back is shown to the
// child, a SendMessage that reached no child is shown to its sender once
// final, a failure reports its error, and a cancel of the root reports
// nothing.
func TestRFDRoutingRules(t *testing.T) {
	var sent []sentUpdate
	r := newRouter(true, "root", sendRecorder(func(id string, raw []byte) { sent = append(sent, sentUpdate{SessionID: id, Update: raw}) }), nil)
	r.rfd = true
	call := func(id, kind, tool, status, parent, input string) {
		u := toolcall.Update{ToolCallID: id, SessionUpdate: kind, Status: status, RawInput: json.RawMessage(input),
			Meta: &toolcall.Meta{ClaudeCode: &toolcall.ClaudeCode{ToolName: tool, ParentToolUseID: parent}}}
		r.ToolUpdate(u)
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
	r.Frame(claudetest.Frame(`{"subtype":"task_started","task_id":"c1","tool_use_id":"a2","subagent_type":"Explore","prompt":"Look around."}`))
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
	r.ParentCancelled()
	r.Frame(claudetest.Frame(`{"subtype":"task_updated","task_id":"c1","patch":{"status":"failed","error":"boom"}}`))
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
	r := newRouter(true, "root", func(_ string, u any) {
		if m, ok := u.(map[string]any); ok && m["sessionUpdate"] == "subagent_update" {
			states = append(states, m["state"].(map[string]any)["state"].(string))
		}
	}, nil)
	r.rfd = true
	r.Frame(claudetest.Frame(`{"subtype":"task_started","task_id":"c1","subagent_type":"general-purpose"}`))
	first, second := r.OpenRequest("c1"), r.OpenRequest("c1")
	r.OpenRequest("root")(false)
	first(false)
	second(false)
	third := r.OpenRequest("c1")
	r.ParentCancelled()
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
	r := newRouter(true, "root", sendRecorder(func(id string, raw []byte) { sent = append(sent, id+" "+string(raw)) }), nil)
	r.rfd = true
	r.Frame(claudetest.Frame(`{"subtype":"task_started","task_id":"c1","subagent_type":"Explore"}`))
	r.Frame(claudetest.Frame(`{"subtype":"task_updated","task_id":"c1","patch":{"status":"completed"}}`))
	sent = nil
	send := func(status string) {
		r.ToolUpdate(toolcall.Update{ToolCallID: "s1", SessionUpdate: map[bool]string{true: "tool_call", false: "tool_call_update"}[status == "pending"],
			Status: status, RawInput: json.RawMessage(`{"to":"c1","message":"More, please."}`),
			Meta: &toolcall.Meta{ClaudeCode: &toolcall.ClaudeCode{ToolName: "SendMessage"}}})
	}
	result := json.RawMessage(`{"type":"user","tool_use_result":{"success":true,"resumedAgentId":"c1"},` +
		`"message":{"content":[{"type":"tool_result","tool_use_id":"s1"}]}}`)
	send("pending")
	r.Frame(claudetest.Frame(string(result)))
	send("completed")
	want := []string{
		`root {"sessionId":"c1","sessionUpdate":"subagent_update","state":{"state":"running"}}`,
		`root {"content":[{"text":"More, please.","type":"text"}],"messageId":"s1","recipientMessageId":"s1","recipientSessionId":"c1","senderSessionId":"root","sessionUpdate":"session_message"}`,
		`c1 {"content":[{"text":"More, please.","type":"text"}],"messageId":"s1","recipientSessionId":"c1","senderMessageId":"s1","senderSessionId":"root","sessionUpdate":"session_message"}`,
	}
	if !slices.Equal(sent, want) {
		t.Errorf("sent\n%s\nwant\n%s", strings.Join(sent, "\n"), strings.Join(want, "\n"))
	}
	r.Frame(claudetest.Frame(`{"subtype":"task_updated","task_id":"c1","patch":{"status":"completed"}}`))
	sent = nil
	send("pending")
	r.Frame(claudetest.Frame(string(result)))
	if len(sent) != 0 {
		t.Errorf("a result of an ended run sent %q", sent)
	}
}
