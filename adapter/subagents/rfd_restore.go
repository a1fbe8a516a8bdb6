package subagents

// Contract "Native subagent sessions", RFD form, when an agent from before
// a `session/load` or `session/resume` runs again: a SendMessage call of
// this process resumes an agent that this process does not know (its
// `task_started` under the call, or the call's result naming
// `resumedAgentId`). The agent keeps its session, its agent id, and the
// session's subagent history (history.Lineage) places it: the call that
// launched it, which the CLI sends the resumed run's output under, and its
// ancestors. The RFD requires the whole ancestor chain before a child's
// traffic, parent first: each ancestor the client was not told of in this
// connection is announced without a work state (nothing says it runs),
// then the agent as running; then the SendMessage call is its delegation
// (rfdResume). An agent the history cannot place stays unexposed, since
// the RFD forbids guessing a parent. The reference's restore is
// reproduced.

// rfdRestore restores the agent agentID that the SendMessage call
// toolUseID resumed, with its ancestors; nil when it is not restored.
func (r *rfdForm) rfdRestore(agentID, toolUseID string) *childSession {
	if r.restore.history == nil || toolUseID == "" {
		return nil
	}
	if _, ok := r.restore.sends[toolUseID]; !ok {
		return nil
	}
	for _, e := range r.restore.history.lineage(agentID) {
		c := r.childOfTask(e.AgentID)
		if c == nil {
			c = r.restoredChild(e.AgentID, e.LaunchID, e.ParentAgentID)
			c.name = subagentName(e.Name, e.Description, e.AgentType, e.AgentID)
			c.task = subagentTask("", e.Description)
			c.setLabels(e.Name, e.AgentType, e.Description)
		}
		if c.announced {
			continue
		}
		if e.AgentID == agentID {
			r.announce(c)
		} else {
			r.announceAncestor(c)
		}
		r.flush(e.LaunchID)
	}
	return r.childOfTask(agentID)
}

// restoredChild registers the child session of the agent agentID, which
// the call launch launched in the agent parentAgentID ("" for the root).
func (r *rfdForm) restoredChild(agentID, launch, parentAgentID string) *childSession {
	parent := r.root
	if parentAgentID != "" {
		parent = parentAgentID
		if p := r.childOfTask(parentAgentID); p != nil {
			parent = p.sessionID
		}
	}
	c := &childSession{taskID: agentID, sessionID: agentID, launchID: launch, parentSessionID: parent}
	r.gens[agentID] = max(r.gens[agentID], 1)
	r.children = append(r.children, c)
	if launch != "" {
		r.byLaunch[launch] = c
	}
	return c
}

// announceAncestor announces a restored ancestor of a resumed agent on its
// parent, with its labels and no work state.
func (r *rfdForm) announceAncestor(c *childSession) {
	r.rfdAnnounceWith(c, map[string]any{})
}

// rfdAnnounceWith sends the `subagent_update` u that announces c on its
// parent, with c's labels and its `cwd` when the parent does not hold it.
func (r *rfdForm) rfdAnnounceWith(c *childSession, u map[string]any) {
	u["sessionUpdate"], u["sessionId"] = "subagent_update", c.sessionID
	if c.title != "" {
		u["title"] = c.title
	}
	if c.description != "" {
		u["description"] = c.description
	}
	cwd, _ := r.unreportedCwd(c)
	if cwd != "" {
		u["cwd"] = cwd
	}
	r.send(c.parentSessionID, u)
	c.reportedCwd = cwd
	c.announced = true
}

// deferResume makes the SendMessage call launch, with its prompt, the
// delegation of the agent c that its task_started restored, once the
// frame after it comes (resumeDeferred). The reference reads the history
// between the two, and the hooks that the CLI sends meanwhile (the
// agent's SubagentStart, which reports its configuration) reach the
// announced agent before its prompt; so they do here.
func (r *rfdForm) deferResume(c *childSession, prompt, launch string) {
	r.resumeDeferred()
	r.deferred = func() { r.rfdResume(c, prompt, launch) }
}

// ResumeDeferred takes the delegation of an agent restored on its
// task_started (RFD form), if one waits: the translator calls it before
// each frame of the CLI.
func (r *Router) ResumeDeferred() {
	if r != nil {
		r.form.resumeDeferred()
	}
}

// resumeDeferred takes the delegation deferResume holds, if any.
func (r *rfdForm) resumeDeferred() {
	if r.deferred == nil {
		return
	}
	resume := r.deferred
	r.deferred = nil
	resume()
}
