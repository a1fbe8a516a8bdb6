package subagents

import (
	"slices"

	"github.com/airwire/airwire/adapter/claude"
)

// BackgroundList is the `background` list of a session of the RFD form
// (ACP v2, "Background work"): the display terminals of the commands it
// runs in the background, then the child sessions it lists, with the
// session's work state now ("" when v2 names none) and, for a child, the
// session that announced it.
type BackgroundList struct {
	SessionID, State, Parent string
	Terminals, Subagents     []string
}

// Command is a command that went on in the background: its task, the
// display terminal it keeps running (named after its Bash call), and the
// Agent call of the subagent that ran it ("" at the root).
type Command struct {
	TaskID, TerminalID, ParentToolUseID string
}

// liveLevel is the task ids of a background_tasks_changed level signal,
// without the tasks Claude Code marks ambient (housekeeping it started on
// its own).
func liveLevel(tasks []claude.TaskRef) map[string]bool {
	level := map[string]bool{}
	for _, t := range tasks {
		if !t.Ambient {
			level[t.TaskID] = true
		}
	}
	return level
}

// BackgroundLists are the lists of each announced child session of the
// RFD form, deeper sessions first, then the root's, whose state is
// rootState: a child's own list is whole before its parent's reads it. A
// command of commands is listed, as its terminal, in the list of the
// session that runs it while Claude Code's live background task set holds
// it. A child is listed in its parent's list while it works in the
// background (it is in that set), and while it is idle with background
// work of its own. Every list is empty until Claude Code reports a live
// set. Other background tasks are not listed yet.
func (r *Router) BackgroundLists(rootState string, commands []Command) []BackgroundList {
	if r == nil {
		return nil
	}
	children := r.announcedChildren()
	lists := map[string]*BackgroundList{r.root: {SessionID: r.root, State: rootState, Terminals: []string{}, Subagents: []string{}}}
	byLaunch := map[string]string{}
	for _, c := range children {
		lists[c.sessionID] = &BackgroundList{SessionID: c.sessionID, State: workStateName(c.workState), Parent: c.parentSessionID,
			Terminals: []string{}, Subagents: []string{}}
		byLaunch[c.launchID] = c.sessionID
	}
	for _, cmd := range commands {
		owner := r.root
		if cmd.ParentToolUseID != "" {
			owner = byLaunch[cmd.ParentToolUseID]
		}
		if l := lists[owner]; l != nil && r.level[cmd.TaskID] {
			l.Terminals = append(l.Terminals, cmd.TerminalID)
		}
	}
	for _, c := range children {
		working := c.workState != "" && c.workState != "idle" && r.level[c.taskID]
		own := lists[c.sessionID]
		if p := lists[c.parentSessionID]; p != nil && (working || len(own.Terminals)+len(own.Subagents) > 0) {
			p.Subagents = append(p.Subagents, c.sessionID)
		}
	}
	out := make([]BackgroundList, 0, len(children)+1)
	for _, c := range children {
		out = append(out, *lists[c.sessionID])
	}
	return append(out, *lists[r.root])
}

// announcedChildren is the latest generation of each announced child
// session of the RFD form, deeper sessions first.
func (r *Router) announcedChildren() []*childSession {
	if !r.rfd {
		return nil
	}
	var out []*childSession
	seen := map[string]bool{}
	for _, c := range slices.Backward(r.children) {
		if c.announced && !seen[c.sessionID] {
			seen[c.sessionID] = true
			out = append(out, c)
		}
	}
	slices.Reverse(out)
	parent := map[string]string{}
	for _, c := range out {
		parent[c.sessionID] = c.parentSessionID
	}
	depth := func(id string) int {
		n := 0
		for p, ok := parent[id]; ok && n <= len(out); p, ok = parent[p] {
			n++
		}
		return n
	}
	slices.SortStableFunc(out, func(a, b *childSession) int { return depth(b.sessionID) - depth(a.sessionID) })
	return out
}

// workStateName is a child's work state when v2 names it, else "".
func workStateName(state string) string {
	switch state {
	case "idle", "running", "requires_action", "unknown":
		return state
	}
	return ""
}
