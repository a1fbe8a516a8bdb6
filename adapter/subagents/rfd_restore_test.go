package subagents

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/claude/claudetest"
	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/adapter/toolcall"
)

// lineageHistory is a subagent history with one lineage.
type lineageHistory []history.LineageEntry

func (h lineageHistory) lineage(agentID string) []history.LineageEntry {
	if len(h) > 0 && h[len(h)-1].AgentID == agentID {
		return h
	}
	return nil
}

func (h lineageHistory) launchedBy(string) string { return "" }

// An agent from before a load that a SendMessage call resumes (RFD form)
// is restored under its agent id after its ancestor, which gets no work
// state; the SubagentHook report that comes right after its task_started
// reaches it before the SendMessage message, which waits for the next
// frame (the order of the golden subagent-rfd-restore-after-load).
func TestRfdRestoreAfterLoad(t *testing.T) {
	var sent []string
	r := newRouter(true, "root", sendRecorder(func(id string, raw []byte) { sent = append(sent, id+" "+string(raw)) }), nil)
	r.rfd = true
	r.restore.history = lineageHistory{
		{AgentID: "parent", LaunchID: "toolu_parent", Name: "Planner"},
		{AgentID: "child", LaunchID: "toolu_child", ParentAgentID: "parent", AgentType: "Explore", Description: "Explore layout"},
	}
	name := "SendMessage"
	r.ToolUpdate(toolcall.Update{SessionUpdate: "tool_call", ToolCallID: "toolu_send", Status: "pending",
		RawInput: json.RawMessage(`{"to":"child","message":"Are there any tests?"}`),
		Meta:     &toolcall.Meta{ClaudeCode: &toolcall.ClaudeCode{ToolName: name}}})
	r.Frame(claudetest.Frame(`{"subtype":"task_started","task_id":"child","tool_use_id":"toolu_send","subagent_type":"Explore","prompt":"Are there any tests?"}`))
	r.HookReport(json.RawMessage(`{"agent_id":"child","agent_type":"Explore","hook_event_name":"SubagentStart"}`))
	r.ResumeDeferred()
	want := []string{
		`root {"sessionId":"parent","sessionUpdate":"subagent_update","title":"Planner"}`,
		`parent {"capabilities":{"cancel":{}},"description":"Explore","sessionId":"child","sessionUpdate":"subagent_update","state":{"state":"running"},"title":"Explore layout"}`,
		`child {"configOptions":[{"currentValue":"Explore","description":"Subagent type","id":"agent","name":"Agent","options":[{"name":"Explore","value":"Explore"}],"type":"select"}],"sessionUpdate":"config_option_update"}`,
		`root {"content":[{"text":"Are there any tests?","type":"text"}],"messageId":"toolu_send","recipientMessageId":"toolu_send","recipientSessionId":"child","senderSessionId":"root","sessionUpdate":"session_message"}`,
		`child {"content":[{"text":"Are there any tests?","type":"text"}],"messageId":"toolu_send","recipientSessionId":"child","senderMessageId":"toolu_send","senderSessionId":"root","sessionUpdate":"session_message"}`,
	}
	if got := strings.Join(sent, "\n"); got != strings.Join(want, "\n") {
		t.Fatalf("sent:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}
