package subagents

import (
	"encoding/json"
	"strings"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/toolcall"
)

// Contract "Native subagent sessions", AIR form: each Agent or Task
// subagent is a child session. The child is announced on its parent
// session (`subagent_spawned`, with the optional exact `prompt`) and ended
// there (`subagent_state_update`); every update of the child's work (its
// tool calls, its text, its configuration) goes to the child session; the
// Agent or Task tool call itself is not shown ("The Agent or Task tool
// call is not the subagent card"). A child keeps its session id, the SDK
// agent id, for its generation; an update for a child that ended is
// dropped. Updates of a child that is not announced yet wait, bounded, for
// its announcement. The same router serves the RFD form of a client that
// is not AIR; what that form does differently is in
// rfd.go.

// Buffer bounds of the updates that wait for a child's announcement.
const (
	maxPendingParents   = 64
	maxPendingUpdates   = 256
	maxPendingPerParent = 32
	maxRememberedCalls  = 2048
)

// Router follows the child sessions of one root session. It is used under
// the translator's lock; it sends through send. Its parts: the RFD form's
// state and steps (form, rfd*.go) and the restore of agents that run
// again (restore, restore.go).
type Router struct {
	on      bool   // the client takes native subagent sessions (either form)
	rfd     bool   // the client takes the RFD form
	forward bool   // the CLI forwards subagent text (native or transcript)
	root    string // the root session id
	send    func(sessionID string, update any)
	host    Host        // nil in tests that drive the router alone
	caps    caps.Client // the client's capabilities
	// config gives the root session's lists (nil: no child configuration).
	config childConfigSource

	children []*childSession          // in start order
	byLaunch map[string]*childSession // by the Agent/Task tool use that runs it
	byCall   map[string]*childSession // tool calls routed to a child
	calls    map[string]callInfo      // what a tool call's first report said
	control  map[string]*controlCall  // Agent/Task calls, by tool use id
	pending  map[string][]routed      // updates waiting for a child, by launch id
	npending int
	configs  map[string]*childConfig // by child session id (or agent id)
	gens     map[string]int          // generations per task id
	restore  *restorer               // resumed and restored agents
	form     *rfdForm                // the RFD form's part
	// level is Claude Code's live background task set, by task id, from
	// its last background_tasks_changed, without the ambient tasks.
	level map[string]bool
}

// childSession is one generation of a subagent.
type childSession struct {
	taskID, sessionID, parentSessionID, launchID string
	name, task, prompt                           string
	announced, ended                             bool
	rfdChild
}

// callInfo is what the first report of a tool call said of its routing:
// later updates can lose the `_meta` keys (the AIR `_meta` filter).
type callInfo struct {
	parent  string
	control bool
}

// controlCall is an Agent or Task tool call: the identity of the subagent
// it launches, the session that made it, and its first report.
type controlCall struct {
	identity      subagentIdentity
	parentSession string
	initial       *toolcall.Update
}

// subagentIdentity is what the Agent or Task input says of the subagent.
type subagentIdentity struct {
	Name         string `json:"name"`
	Description  string `json:"description"`
	Prompt       string `json:"prompt"`
	SubagentType string `json:"subagent_type"`
}

// routed is one update on its way to a session: a tool call report, a
// message chunk or a child's model report.
type routed struct {
	update     any
	toolCall   *toolcall.Update // set for a tool call report or a plan
	parent     string           // claudeCode.parentToolUseId
	modelOnly  []childOption    // a child's model report (config_option_update)
	reportMeta map[string]any   // its `_meta`
}

func newRouter(on bool, root string, send func(string, any), config childConfigSource) *Router {
	r := &Router{on: on, root: root, send: send, config: config,
		byLaunch: map[string]*childSession{}, byCall: map[string]*childSession{}, calls: map[string]callInfo{},
		control: map[string]*controlCall{}, pending: map[string][]routed{}, configs: map[string]*childConfig{},
		gens: map[string]int{}}
	r.restore = &restorer{Router: r}
	r.form = &rfdForm{Router: r, hiddenLaunches: map[string]*hiddenLaunch{},
		hiddenSends: map[string]*hiddenSend{}, handbacks: map[string]*handback{}, cwds: map[string]string{}}
	return r
}

// isControlTool reports an Agent or Task tool: the launch of a subagent.
func isControlTool(name string) bool { return name == "Agent" || name == "Task" }

// ToolUpdate routes a tool call report (or a plan) of the stream.
func (r *Router) ToolUpdate(u toolcall.Update) {
	if !r.on {
		r.send(r.root, u)
		return
	}
	info := r.callInfo(u)
	r.restore.noteSendMessage(u)
	r.route(routed{update: u, toolCall: &u, parent: info.parent})
}

// callInfo is the routing of u: from its own `_meta` on the first report,
// remembered for the later ones.
func (r *Router) callInfo(u toolcall.Update) callInfo {
	var info callInfo
	if m := u.Meta; m != nil {
		if m.ClaudeCode != nil {
			info.parent = m.ClaudeCode.ParentToolUseID
			info.control = isControlTool(m.ClaudeCode.ToolName)
		}
		if m.JetBrains != nil && m.JetBrains.AIR != nil && m.JetBrains.AIR.Subagent {
			info.control = true
		}
	}
	if u.ToolCallID == "" {
		return info
	}
	known, ok := r.calls[u.ToolCallID]
	if !ok || u.SessionUpdate == "tool_call" {
		if len(r.calls) >= maxRememberedCalls {
			clear(r.calls)
		}
		r.calls[u.ToolCallID] = info
		return info
	}
	if info.parent == "" {
		info.parent = known.parent
	}
	info.control = info.control || known.control
	return info
}

// chunk routes a message chunk of a subagent (its parentToolUseId set).
func (r *Router) chunk(update map[string]any, parent string) {
	if !r.on {
		r.send(r.root, update)
		return
	}
	r.route(routed{update: update, parent: parent})
}

// route sends one update where it belongs, buffers it for a child that is
// not announced yet, or drops it.
func (r *Router) route(u routed) {
	if u.toolCall != nil && u.toolCall.ToolCallID != "" && r.calls[u.toolCall.ToolCallID].control &&
		!r.form.rfdParentPending(u.parent) {
		r.controlUpdate(*u.toolCall, u.parent)
		return
	}
	var owner *childSession
	if u.toolCall != nil {
		owner = r.byCall[u.toolCall.ToolCallID]
	}
	if owner == nil && u.parent != "" {
		owner = r.byLaunch[u.parent]
		if owner == nil || !owner.announced {
			r.buffer(u.parent, u)
			if owner == nil && r.restore.unseenLaunch(u.parent) {
				r.restore.restoreLaunch(u.parent)
			}
			return
		}
	}
	if owner == nil {
		r.emit(r.root, u)
		return
	}
	if u.modelOnly != nil {
		r.reportConfig(owner.sessionID, u.modelOnly, u.reportMeta)
		return
	}
	if r.rfd && u.toolCall != nil && r.form.rfdHandback(*u.toolCall, u.parent, owner) {
		return
	}
	r.toChild(owner, u)
}

// emit sends u to the session sessionID; in the RFD form, a SendMessage
// call waits for its final report (see rfdSendMessage).
func (r *Router) emit(sessionID string, u routed) {
	if r.rfd && u.toolCall != nil && u.toolCall.ToolCallID != "" && r.form.rfdSendMessage(sessionID, *u.toolCall) {
		return
	}
	r.send(sessionID, u.update)
}

// toChild sends u to the child session; a child that ended gets nothing.
func (r *Router) toChild(c *childSession, u routed) {
	if c.ended {
		return
	}
	if u.toolCall != nil && u.toolCall.ToolCallID != "" {
		if len(r.byCall) >= maxRememberedCalls {
			clear(r.byCall)
		}
		r.byCall[u.toolCall.ToolCallID] = c
	}
	r.emit(c.sessionID, u)
}

// controlUpdate takes a report of an Agent or Task call, which the client
// is not shown: it names the subagent and the session that launched it,
// and announces a child that waited for it. A launch that failed before a
// child started is shown after all, as an ordinary tool call.
func (r *Router) controlUpdate(u toolcall.Update, parent string) {
	cc := r.control[u.ToolCallID]
	if cc == nil {
		cc = &controlCall{}
		r.control[u.ToolCallID] = cc
	}
	if u.SessionUpdate == "tool_call" {
		first := u
		cc.initial = &first
	}
	if len(u.RawInput) > 0 {
		var id subagentIdentity
		if json.Unmarshal(u.RawInput, &id) == nil {
			cc.identity = mergeIdentity(cc.identity, id)
		}
	}
	cc.parentSession = r.root
	if parent != "" {
		if p := r.byLaunch[parent]; p != nil {
			cc.parentSession = p.sessionID
		}
	}
	child := r.byLaunch[u.ToolCallID]
	if child != nil && !child.announced {
		child.parentSessionID = cc.parentSession
		child.applyIdentity(cc.identity)
		r.announce(child)
		r.flush(u.ToolCallID)
	}
	if r.rfd {
		r.form.rfdLaunch(u, child, cc.parentSession)
		return
	}
	if child == nil && u.Status == "failed" {
		r.dropPending(u.ToolCallID)
		delete(r.control, u.ToolCallID)
		r.send(cc.parentSession, unexposedLaunch(cc.initial, u))
	}
}

// unexposedLaunch is the tool call of a launch that never made a child:
// its first report merged with its final one, without the subagent marker.
func unexposedLaunch(initial *toolcall.Update, final toolcall.Update) toolcall.Update {
	out := final
	if initial != nil {
		out = *initial
		out.Status = final.Status
		if final.Title != nil && strings.TrimSpace(*final.Title) != "" {
			out.Title = final.Title
		}
		if final.Content != nil {
			out.Content = final.Content
		}
		if final.RawOutput != nil {
			out.RawOutput = final.RawOutput
		}
	}
	out.SessionUpdate = "tool_call"
	if out.Meta != nil && out.Meta.JetBrains != nil && out.Meta.JetBrains.AIR != nil {
		m, jb, air := *out.Meta, *out.Meta.JetBrains, *out.Meta.JetBrains.AIR
		air.Subagent = false
		jb.AIR, m.JetBrains = &air, &jb
		out.Meta = &m
	}
	return out
}

func mergeIdentity(prev, next subagentIdentity) subagentIdentity {
	pick := func(n, p string) string {
		if strings.TrimSpace(n) != "" {
			return strings.TrimSpace(n)
		}
		return p
	}
	return subagentIdentity{Name: pick(next.Name, prev.Name), Description: pick(next.Description, prev.Description),
		Prompt: pick(next.Prompt, prev.Prompt), SubagentType: pick(next.SubagentType, prev.SubagentType)}
}

// applyIdentity renames a child from its launch input.
func (c *childSession) applyIdentity(id subagentIdentity) {
	if id.Name != "" || id.Description != "" {
		c.name = subagentName(id.Name, id.Description, id.SubagentType, c.sessionID)
	}
	if id.Prompt != "" || id.Description != "" {
		c.task = subagentTask(id.Prompt, id.Description)
	}
	if c.prompt == "" {
		c.prompt = id.Prompt
	}
	c.setLabels(id.Name, orElse(id.SubagentType, c.role), id.Description)
}

// subagentName is the display name of a child: the explicit name, the
// description, or the type, else "Agent" and the end of its task id.
func subagentName(name, description, kind, taskID string) string {
	for _, v := range []string{name, description, kind} {
		if s := strings.TrimSpace(v); s != "" {
			return s
		}
	}
	if len(taskID) > 8 {
		taskID = taskID[len(taskID)-8:]
	}
	return "Agent " + taskID
}

// subagentTask is the task of a child: its prompt, else its description.
func subagentTask(prompt, description string) string {
	for _, v := range []string{prompt, description} {
		if s := strings.TrimSpace(v); s != "" {
			return s
		}
	}
	return "Delegated task"
}

// buffer keeps u until the child of launch is announced. A child's model
// report replaces the one that waits already.
func (r *Router) buffer(launch string, u routed) {
	list := r.pending[launch]
	if u.modelOnly != nil {
		for i := range list {
			if list[i].modelOnly != nil {
				list[i] = u
				return
			}
		}
	}
	if r.npending >= maxPendingUpdates || (list == nil && len(r.pending) >= maxPendingParents) ||
		len(list) >= maxPendingPerParent {
		return
	}
	r.pending[launch] = append(list, u)
	r.npending++
}

// flush routes the updates that waited for the child of launch.
func (r *Router) flush(launch string) {
	for _, u := range r.dropPending(launch) {
		r.route(u)
	}
}

func (r *Router) dropPending(launch string) []routed {
	list := r.pending[launch]
	delete(r.pending, launch)
	r.npending -= len(list)
	return list
}

// RouteOfCall is where the work that the tool call id started reports
// (its async tasks): the child session that owned the call, also after
// the child ended; ok is false for a call of the root session.
func (r *Router) RouteOfCall(toolCallID string) (send func(update any), ok bool) {
	c := r.byCall[toolCallID]
	if !r.on || c == nil {
		return nil, false
	}
	return func(u any) { r.send(c.sessionID, u) }, true
}
