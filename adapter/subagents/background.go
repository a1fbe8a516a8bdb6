package subagents

import (
	"slices"

	"github.com/airwire/airwire/adapter/bgwork"
	"github.com/airwire/airwire/adapter/claude"
)

// BackgroundList is the `background` list of a session of the RFD form
// (ACP v2, "Background work"): the work it runs in the background (command
// terminals, tool calls, other tasks), then the child sessions it lists,
// with the session's work state now ("" when v2 names none) and, for a
// child, the session that announced it.
type BackgroundList struct {
	SessionID, State, Parent string
	Items                    []bgwork.Item
	Subagents                []string
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
// rootState: a child's own list is whole before its parent's reads it.
// Each item of work (in the live set's order) goes in the list of the
// session that runs it: a command or tool call in that of the subagent
// whose Agent call made it (none when that child is not announced), a task
// in that of the subagent whose task runs it, else in the root's. A child
// is listed in its parent's list while it works in the background (it is
// in Claude Code's live background task set), and while it is idle with
// background work of its own. Every list is empty until Claude Code
// reports a live set.
func (r *Router) BackgroundLists(rootState string, work []bgwork.Item) []BackgroundList {
	if r == nil {
		return nil
	}
	children := r.announcedChildren()
	lists := map[string]*BackgroundList{r.root: {SessionID: r.root, State: rootState, Items: []bgwork.Item{}, Subagents: []string{}}}
	byLaunch, byTask := map[string]string{}, map[string]string{}
	for _, c := range children {
		lists[c.sessionID] = &BackgroundList{SessionID: c.sessionID, State: workStateName(c.workState), Parent: c.parentSessionID,
			Items: []bgwork.Item{}, Subagents: []string{}}
		byLaunch[c.launchID] = c.sessionID
		byTask[c.taskID] = c.sessionID
	}
	for _, it := range work {
		owner := r.root
		switch {
		case it.ParentToolUseID != "":
			owner = byLaunch[it.ParentToolUseID]
		case it.ParentTaskID != "" && byTask[it.ParentTaskID] != "":
			owner = byTask[it.ParentTaskID]
		}
		if l := lists[owner]; l != nil {
			l.Items = append(l.Items, it)
		}
	}
	for _, c := range children {
		working := c.workState != "" && c.workState != "idle" && r.level[c.taskID]
		own := lists[c.sessionID]
		if p := lists[c.parentSessionID]; p != nil && (working || len(own.Items)+len(own.Subagents) > 0) {
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
