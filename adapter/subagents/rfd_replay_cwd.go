package subagents

import "os"

// Contract "Native subagent sessions", RFD form, on `session/load`: a
// child that Claude Code ran in another directory than its parent's (its
// own worktree) is announced with that directory as its `cwd`, read from
// its metadata and transcript (history.Subagent's Cwd). After the load's
// answer, a child whose directory is gone (Claude Code removes a worktree
// when its child finishes) gets `cwd: null` with its current state, as
// the RFD asks after a reconnection. The reference's RfdSubagentReplay is
// reproduced.

// announcedCwd is the `cwd` c is announced with: its recorded directory
// when that is not the one its parent has on the client, else "".
func (x *rfdReplay) announcedCwd(c *rfdReplayChild) string {
	if c.rec.Cwd == "" || sameDirectory(c.rec.Cwd, x.effectiveCwd(c.parent)) {
		return ""
	}
	return c.rec.Cwd
}

// effectiveCwd is the directory the client holds for the session id: the
// nearest announced `cwd` from the child id up, else the root's.
func (x *rfdReplay) effectiveCwd(id string) string {
	seen := map[string]bool{}
	for c := x.byAgent[id]; c != nil && !seen[c.sessionID]; c = x.byAgent[c.parent] {
		if c.cwd != "" {
			return c.cwd
		}
		seen[c.sessionID] = true
	}
	return x.cwd
}

// sendCurrentState sends c's state after the load's answer: its replayed
// end, with `cwd: null` when the directory it was announced with is gone.
func (x *rfdReplay) sendCurrentState(c *rfdReplayChild) {
	u := map[string]any{"sessionUpdate": "subagent_update", "sessionId": c.sessionID, "state": c.endState()}
	if c.cwd != "" && !isDir(c.cwd) {
		u["cwd"] = nil
	}
	x.send(c.parent, u)
}

// isDir reports whether dir is an existing directory.
func isDir(dir string) bool {
	fi, err := os.Stat(dir)
	return err == nil && fi.IsDir()
}
