package subagents

import (
	"path/filepath"
)

// Contract "Native subagent sessions", RFD form: the working directory of
// a child. Each subagent hook names the child's `cwd`; a child that Claude
// Code runs in its own worktree (Agent `isolation: "worktree"`) reports
// the worktree. The client gets a child's `cwd` only when it differs from
// its parent's, in the announcement or in a `subagent_update` after it,
// and `cwd: null` when the child is back in its parent's directory. The
// SubagentStart hook runs before the child's first model request, so the
// `cwd` reaches the client before the child's first tool call.

// reportCwd takes the working directory that a hook of the child agentID
// (an SDK agent id or a child session id) names; a hook can come before
// the child is known.
func (r *rfdForm) reportCwd(agentID, cwd string) {
	if !r.rfd || agentID == r.root || !filepath.IsAbs(cwd) {
		return
	}
	known := r.childOfSession(agentID)
	id := agentID
	if known != nil {
		id = known.sessionID
	}
	if _, seen := r.cwds[id]; known == nil && !seen && r.unknownCwds() >= maxPendingParents {
		return
	}
	r.cwds[id] = cwd
	if known != nil && known.announced {
		r.publishCwd(known)
	}
}

// unknownCwds counts the directories kept for children not known yet.
func (r *rfdForm) unknownCwds() int {
	n := 0
	for id := range r.cwds {
		if r.childOfSession(id) == nil {
			n++
		}
	}
	return n
}

// unreportedCwd is the `cwd` of c that the client does not hold: its
// directory when it differs from its parent's (change, cwd), null when it
// is back in its parent's after it reported another (change, ""), else no
// change.
func (r *rfdForm) unreportedCwd(c *childSession) (cwd string, change bool) {
	cwd, ok := r.cwds[c.sessionID]
	if !ok {
		return "", false
	}
	if inherited := r.effectiveCwd(c.parentSessionID); inherited != "" && sameDirectory(cwd, inherited) {
		return "", c.reportedCwd != ""
	}
	return cwd, cwd != c.reportedCwd
}

// effectiveCwd is the working directory of the session id as the client
// holds it: a child's reported `cwd`, else its parent's, up to the root's.
func (r *rfdForm) effectiveCwd(id string) string {
	seen := map[*childSession]bool{}
	for c := r.childOfSession(id); c != nil && !seen[c]; c = r.childOfSession(c.parentSessionID) {
		if c.reportedCwd != "" {
			return c.reportedCwd
		}
		seen[c] = true
	}
	return r.cwd
}

// publishCwd sends the `cwd` of the announced child c that the client does
// not hold.
func (r *rfdForm) publishCwd(c *childSession) {
	cwd, change := r.unreportedCwd(c)
	if !change {
		return
	}
	var value any
	if cwd != "" {
		value = cwd
	}
	r.send(c.parentSessionID, map[string]any{"sessionUpdate": "subagent_update", "sessionId": c.sessionID, "cwd": value})
	c.reportedCwd = cwd
}

// sameDirectory reports whether a and b are one directory, also when one
// is spelled through a symlink; a path that does not exist is compared as
// written.
func sameDirectory(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	real := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return filepath.Clean(p)
	}
	return real(a) == real(b)
}
