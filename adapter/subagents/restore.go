package subagents

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/airwire/airwire/adapter/asynctasks"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/adapter/toolcall"
)

// Contract "Native subagent sessions", AIR form, when a finished agent runs
// again: "A resumed generation gets the SendMessage `message` text". The
// CLI resumes an agent under its agent id, with a new `task_started` whose
// tool use is the SendMessage call, a running `task_updated`, or a
// SendMessage result that names `resumedAgentId`. Each opens one new
// generation of the child (`<agent id>:generation:<n>`), announced on the
// root (or the live session that launched it) with the message as its
// prompt.
//
// An agent that ran before a `session/load` or `session/resume` is not
// known to this process: it is restored from the session's subagent
// history (history.Lineage), as a generation numbered by the clock in
// epoch milliseconds (the client may hold `<agent id>:generation:2` from
// before the restart), with the call that launched it as its launch, since
// the CLI sends the resumed run's output under that call. A frame under a
// launch call that this process never saw restores the agent that the
// call launched (history.LaunchedBy).

// restorer is the router's part for resumed and restored agents: their
// state and the steps that open them.
type restorer struct {
	*Router
	// history gives the subagent history of the root session; nil: none.
	history subagentHistory
	// sends are the SendMessage calls of this process, by tool use id, with
	// their input once known; order keeps them oldest first.
	sends map[string]sendMessageInput
	order []string
	// unresolved are launches with no agent to restore; unrestorable are
	// agents the history cannot place. Each is looked up once.
	unresolved, unrestorable map[string]bool
	// lastGeneration is the latest generation given to a restored agent.
	lastGeneration int64
}

// subagentHistory reads the subagent history of a session.
type subagentHistory interface {
	lineage(agentID string) []history.LineageEntry
	launchedBy(launchID string) string
}

// sendMessageInput is what a SendMessage call's input says.
type sendMessageInput struct {
	To      string          `json:"to"`
	Message json.RawMessage `json:"message"`
}

// text is the message when it is a non-blank string.
func (in sendMessageInput) text() string {
	var s string
	if json.Unmarshal(in.Message, &s) != nil || strings.TrimSpace(s) == "" {
		return ""
	}
	return s
}

// noteSendMessage remembers a SendMessage call of the stream and its input.
func (r *restorer) noteSendMessage(u toolcall.Update) {
	_, known := r.sends[u.ToolCallID]
	if !known {
		if u.SessionUpdate != "tool_call" || u.Meta == nil || u.Meta.ClaudeCode == nil || u.Meta.ClaudeCode.ToolName != "SendMessage" {
			return
		}
		if r.sends == nil {
			r.sends = map[string]sendMessageInput{}
		}
		if len(r.order) >= maxRememberedCalls {
			delete(r.sends, r.order[0])
			r.order = r.order[1:]
		}
		r.order = append(r.order, u.ToolCallID)
	}
	in := r.sends[u.ToolCallID]
	if len(u.RawInput) > 0 {
		_ = json.Unmarshal(u.RawInput, &in)
	}
	r.sends[u.ToolCallID] = in
}

// sendMessagePrompt is the text of the latest SendMessage call to agentID,
// or of the calls ids when a result names them.
func (r *restorer) sendMessagePrompt(agentID string, ids []string) string {
	for _, id := range ids {
		if in, ok := r.sends[id]; ok && in.text() != "" {
			return in.text()
		}
	}
	if len(ids) > 0 {
		return ""
	}
	for i := len(r.order) - 1; i >= 0; i-- {
		if in := r.sends[r.order[i]]; in.To == agentID {
			return in.text()
		}
	}
	return ""
}

// restoreStarted takes the `task_started` of an agent from before a load
// or resume, which the CLI starts under the SendMessage call that resumed
// it; true when it restored the agent.
func (r *restorer) restoreStarted(f subagentTaskFrame) bool {
	if r.rfd || f.SubagentType == "" || f.ToolUseID == "" || r.childOfTask(f.TaskID) != nil {
		return false
	}
	if _, ok := r.sends[f.ToolUseID]; !ok {
		return false
	}
	c := r.restoreAgent(f.TaskID, f.Prompt)
	if c == nil {
		return false
	}
	r.byLaunch[f.ToolUseID] = c
	return true
}

// resumedParent is the parent of a new generation of previous: its old
// parent while that session is live, else the root.
func (r *Router) resumedParent(previous *childSession) string {
	if r.isLiveSession(previous.parentSessionID) {
		return previous.parentSessionID
	}
	return r.root
}

// isLiveSession reports the root, or the latest generation of an agent
// that has not ended.
func (r *Router) isLiveSession(id string) bool {
	if id == r.root {
		return true
	}
	for _, c := range r.children {
		if c.sessionID == id && r.childOfTask(c.taskID) == c {
			return !c.ended
		}
	}
	return false
}

// taskResumed opens a new generation of a finished agent that the CLI
// runs again without a new `task_started` (a running `task_updated`, or a
// SendMessage result); an agent this process does not know is restored.
func (r *restorer) taskResumed(taskID, prompt string) {
	previous := r.childOfTask(taskID)
	if previous == nil {
		r.restoreAgent(taskID, prompt)
		return
	}
	if !previous.ended {
		return
	}
	c := &childSession{taskID: taskID, sessionID: r.nextSessionID(taskID), launchID: previous.launchID,
		parentSessionID: r.resumedParent(previous), name: previous.name, task: previous.task, prompt: prompt}
	r.open(c)
}

// open registers c as its agent's generation and the owner of its launch,
// announces it, and sends what waited for it.
func (r *restorer) open(c *childSession) {
	r.children = append(r.children, c)
	if c.launchID != "" {
		r.byLaunch[c.launchID] = c
		delete(r.control, c.launchID)
	}
	r.announce(c)
	if c.launchID != "" {
		r.flush(c.launchID)
	}
}

// restoreAgent opens a generation of the agent agentID from before a load
// or resume, placed by the session's subagent history; nil when the
// history cannot place it (it is not looked up again).
func (r *restorer) restoreAgent(agentID, prompt string) *childSession {
	if r.history == nil || r.childOfTask(agentID) != nil || r.unrestorable[agentID] {
		return nil
	}
	lineage := r.history.lineage(agentID)
	if len(lineage) == 0 || lineage[len(lineage)-1].AgentID != agentID {
		if r.unrestorable == nil {
			r.unrestorable = map[string]bool{}
		}
		r.unrestorable[agentID] = true
		return nil
	}
	e := lineage[len(lineage)-1]
	parent := r.root
	if p := r.childOfTask(e.ParentAgentID); e.ParentAgentID != "" && p != nil && r.isLiveSession(p.sessionID) {
		parent = p.sessionID
	}
	c := &childSession{taskID: agentID, sessionID: r.restoredSessionID(agentID), launchID: e.LaunchID,
		parentSessionID: parent, name: subagentName(e.Name, e.Description, e.AgentType, agentID),
		task: subagentTask("", e.Description), prompt: prompt}
	r.open(c)
	return c
}

// restoredSessionID is the session id of a restored agent: its generation
// is the clock in epoch milliseconds, and grows within the process.
func (r *restorer) restoredSessionID(agentID string) string {
	g := max(time.Now().UnixMilli(), r.lastGeneration+1)
	r.lastGeneration = g
	r.gens[agentID] = int(g)
	return fmt.Sprintf("%s:generation:%d", agentID, g)
}

// unseenLaunch reports a launch call that this process never saw (AIR
// form): no child, no report of the call, and not looked up before.
func (r *restorer) unseenLaunch(launch string) bool {
	return !r.rfd && r.history != nil && !r.unresolved[launch] && r.byLaunch[launch] == nil &&
		r.control[launch] == nil && !r.calls[launch].control
}

// restoreLaunch restores the agent that the launch call made, once; a
// launch without one keeps its updates buffered and is not looked up again.
func (r *restorer) restoreLaunch(launch string) {
	if agentID := r.history.launchedBy(launch); agentID != "" {
		r.restoreAgent(agentID, "")
	}
	if r.byLaunch[launch] == nil {
		if r.unresolved == nil {
			r.unresolved = map[string]bool{}
		}
		r.unresolved[launch] = true
	}
}

// userFrame takes a SendMessage result that resumed an agent
// (`tool_use_result.resumedAgentId` of a successful result).
func (r *restorer) userFrame(f *claude.Frame) {
	res := f.ToolUseResult
	if !r.on || r.rfd || !res.Success || strings.TrimSpace(res.ResumedAgentID) == "" {
		return
	}
	agentID := strings.TrimSpace(res.ResumedAgentID)
	ids := asynctasks.ToolResultIDs(f.Message.Content)
	r.taskResumed(agentID, r.sendMessagePrompt(agentID, ids))
}

// forgetRestores lets a later signal restore an agent and look a launch
// up again (the reference's forgetRestores, on finishAll).
func (r *restorer) forgetRestores() {
	r.unresolved, r.unrestorable = nil, nil
}
