package validate

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// The editor's side of the conversation: what an ACP client owes the agent
// beyond the shape of its messages. The ACP client obligations (every
// agent request answered once, a permission settled as cancelled after
// session/cancel, no prompt to a session the editor does not hold), the
// contract's client requirements ("Permission presentation > Client
// requirements", "Goal > Capability": no action that is not advertised,
// "Session index > List response": the cursor is opaque) and, through the
// capability gates, that the editor relies only on what the agent declared.
//
// Rule ids:
//
//	client-request-unanswered   an agent request the editor never answered (End)
//	jsonrpc-answered-twice      a second response to one request
//	permission-cancelled-after-cancel  a permission pending at session/cancel
//	                            answered with another outcome than cancelled
//	prompt-unknown-session      session/prompt to a session never opened, or closed
//	goal-action-not-advertised  _session/goal without the agent's goal
//	                            declaration, or with an action it does not list
//	session-list-cursor         a session/list cursor the agent never issued,
//	                            or passed back for another cwd

// SectionGoal names the contract's goal extension.
const SectionGoal = "Goal"

// clientState is what the editor's obligations need to remember.
type clientState struct {
	// answered holds the pending keys of requests answered once, until
	// the same sender reuses the id.
	answered map[string]bool
	// owedCancel holds the agent's session/request_permission requests
	// that were pending when the editor cancelled their session.
	owedCancel map[string]bool
	// goal is the agent's goal declaration: advertised, and its actions.
	goalDeclared bool
	goalActions  []string
	// cursors maps each nextCursor the agent issued to the cwd of the
	// session/list request it answered.
	cursors map[string]any
}

func (s *clientState) reset() {
	*s = clientState{answered: map[string]bool{}, owedCancel: map[string]bool{}, cursors: map[string]any{}}
}

// clientRequest checks an editor's request against what the agent
// declared and opened so far.
func (c *checker) clientRequest(method string, params any) {
	if c.fromAgent() || !c.v.st.initSeen {
		return
	}
	switch method {
	case "session/prompt":
		c.promptSession(params)
	case "_session/goal":
		c.goalAction(params)
	case "session/list":
		c.listCursor(params)
	}
}

func (c *checker) promptSession(params any) {
	st := &c.v.st
	sid, ok := field(params, "sessionId").(string)
	switch {
	case !ok:
		return
	case st.closed[sid]:
		c.add("/params/sessionId", "prompt-unknown-session", SectionACP, SeverityError,
			"session %s was closed; a client prompts only a session it holds (load or resume it first)", sid)
	case !st.sessions[sid]:
		c.add("/params/sessionId", "prompt-unknown-session", SectionACP, SeverityError,
			"session %s was never opened in this conversation (session/new, session/load, session/resume or session/fork)", sid)
	}
}

// goalAction: "A client must not assume support for an action that is not
// advertised" (Goal > Capability).
func (c *checker) goalAction(params any) {
	cl := &c.v.st.client
	action, _ := field(params, "action").(string)
	switch {
	case !c.v.st.agentInitSeen:
		return
	case !cl.goalDeclared:
		c.add("/method", "goal-action-not-advertised", SectionGoal, SeverityError,
			"the agent's initialize response advertised no goal support (_meta.jetbrains.air.goal)")
	case action != "" && !slices.Contains(cl.goalActions, action):
		c.add("/params/action", "goal-action-not-advertised", SectionGoal, SeverityError,
			"action %q is not among the advertised goal actions %v", action, cl.goalActions)
	}
}

// listCursor: the cursor is opaque, issued for one cwd (Session index >
// List response); a client passes back a nextCursor unchanged.
func (c *checker) listCursor(params any) {
	cur, ok := field(params, "cursor").(string)
	if !ok {
		return
	}
	cwd, issued := c.v.st.client.cursors[cur]
	switch {
	case !issued:
		c.add("/params/cursor", "session-list-cursor", SectionSessionIndex, SeverityError,
			"the cursor is opaque: a client passes back a nextCursor of the agent unchanged, and this one was never issued")
	case fmt.Sprint(cwd) != fmt.Sprint(field(params, "cwd")):
		c.add("/params/cwd", "session-list-cursor", SectionSessionIndex, SeverityError,
			"the cursor was issued for cwd %v, and a cursor holds the cwd it was issued for", cwd)
	}
}

// onGoalDeclaration keeps the agent's goal declaration of its initialize
// response.
func (cl *clientState) onGoalDeclaration(result any) {
	decl, ok := path(result, "_meta", "jetbrains", "air", "goal").(map[string]any)
	if !ok {
		return
	}
	cl.goalDeclared = true
	acts, _ := decl["actions"].([]any)
	for _, a := range acts {
		if s, ok := a.(string); ok {
			cl.goalActions = append(cl.goalActions, s)
		}
	}
}

// onListResult keeps the cursor the agent issued with a session/list page.
func (cl *clientState) onListResult(reqParams, result any) {
	if cur, ok := field(result, "nextCursor").(string); ok && cur != "" {
		cl.cursors[cur] = field(reqParams, "cwd")
	}
}

// onCancel owes a cancelled outcome for every permission request of the
// session that is pending when the editor cancels it.
func (c *checker) onCancel(params any) {
	if c.fromAgent() {
		return
	}
	sid, _ := field(params, "sessionId").(string)
	for key, p := range c.v.st.pending {
		if p.method == "session/request_permission" && field(p.params, "sessionId") == sid && strings.HasPrefix(key, DirAgent+"|") {
			c.v.st.client.owedCancel[key] = true
		}
	}
}

// permissionAfterCancel: after session/cancel the client answers each
// permission request that was pending with the cancelled outcome (ACP
// prompt turn, Cancellation; Permission presentation > Client
// requirements: "settles the request when its cancellation signal fires").
func (c *checker) permissionAfterCancel(key string, result any) {
	cl := &c.v.st.client
	if !cl.owedCancel[key] {
		return
	}
	delete(cl.owedCancel, key)
	if got := path(result, "outcome", "outcome"); got != "cancelled" {
		c.add("/result/outcome/outcome", "permission-cancelled-after-cancel", SectionPermission, SeverityError,
			"the session was cancelled while this permission request was pending, so the client answers it with outcome cancelled, not %v", got)
	}
}

// End reports what the conversation left undone once it is over: each
// agent request the editor never answered. Call it after the last message.
func (v *Validator) End() []Finding {
	var out []Finding
	for _, key := range v.st.pendingKeys(DirAgent) {
		p := v.st.pending[key]
		f := Finding{Seq: p.seq, Lane: LaneACP, Dir: DirEditor, Method: p.method, Pointer: "/id", Rule: "client-request-unanswered",
			Section: SectionACP, Severity: SeverityError,
			Message: fmt.Sprintf("the agent's %s request %s was never answered; a client answers every request once", p.method, idKeyJSON(key, DirAgent))}
		if v.keeps(f) {
			v.stats.Errors++
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}
