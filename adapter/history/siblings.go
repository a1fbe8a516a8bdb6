package history

import "sort"

// siblingIndex links the rows of assistant messages and their tool
// results across branches: the CLI writes one row per content block, and
// parallel tool results hang off different blocks, so the active branch
// passes through only some of them.
type siblingIndex struct {
	// groups are the rows of each assistant message id, in row order.
	groups map[string][]*entry
	// useOwner is the row of each tool_use id; nil when rows of two
	// messages claim it.
	useOwner map[string]*entry
	// children are the tool result rows under each row.
	children map[string][]*entry
	// pos is each uuid's first position.
	pos map[string]int
}

func (s *rowSet) siblings() *siblingIndex {
	x := &siblingIndex{groups: map[string][]*entry{}, useOwner: map[string]*entry{},
		children: map[string][]*entry{}, pos: map[string]int{}}
	var results []*entry
	for i, id := range s.order {
		x.pos[id] = i
		e := s.byUUID[id]
		if e.Type == "assistant" && e.msgID != "" {
			x.groups[e.msgID] = append(x.groups[e.msgID], e)
			for _, u := range e.toolUses {
				prev, seen := x.useOwner[u]
				if !seen || (prev != nil && prev.msgID == e.msgID) {
					x.useOwner[u] = e
				} else {
					x.useOwner[u] = nil
				}
			}
		} else if e.Type == "user" && e.parent() != "" && len(e.toolResults) > 0 {
			results = append(results, e)
		}
	}
	linked := map[[2]string]bool{}
	link := func(parent string, e *entry) {
		if k := [2]string{parent, e.UUID}; !linked[k] {
			linked[k] = true
			x.children[parent] = append(x.children[parent], e)
		}
	}
	for _, e := range results {
		link(e.parent(), e)
		if src := s.byUUID[e.SourceTool]; e.SourceTool != e.parent() && src != nil && sameThread(e, src) {
			link(src.UUID, e)
		}
		for _, r := range e.toolResults {
			if w := x.useOwner[r]; w != nil && sameThread(e, w) {
				link(w.UUID, e)
			}
		}
	}
	return x
}

func sameThread(a, b *entry) bool { return a.IsSidechain == b.IsSidechain && a.AgentID == b.AgentID }

// withSiblings puts back, after the last row of each assistant message on
// the branch, the rows of that message and the tool results under them
// that the branch does not pass through, by time.
func (s *rowSet) withSiblings(branch []*entry, on map[string]bool) []*entry {
	lastOf := map[string]*entry{}
	for _, e := range branch {
		if e.Type == "assistant" && e.msgID != "" {
			lastOf[e.msgID] = e
		}
	}
	if len(lastOf) == 0 {
		return branch
	}
	x := s.siblings()
	answered := map[string]bool{}
	for _, e := range branch {
		for _, r := range e.toolResults {
			answered[r] = true
		}
	}
	after := map[string][]*entry{}
	done := map[string]bool{}
	for _, b := range branch {
		if b.Type != "assistant" || b.msgID == "" || done[b.msgID] {
			continue
		}
		done[b.msgID] = true
		extra := x.groupExtras(b.msgID, on, answered)
		for _, e := range extra {
			on[e.UUID] = true
		}
		if len(extra) > 0 {
			after[lastOf[b.msgID].UUID] = extra
		}
	}
	if len(after) == 0 {
		return branch
	}
	var out []*entry
	for _, e := range branch {
		out = append(out, e)
		out = append(out, after[e.UUID]...)
	}
	return out
}

// groupExtras is what message id adds to the branch: its rows off the
// branch, then the tool results under its rows, each sorted by time.
func (x *siblingIndex) groupExtras(id string, on, answered map[string]bool) []*entry {
	group := x.groups[id]
	inGroup := map[string]bool{}
	var rows []*entry
	for _, e := range group {
		inGroup[e.UUID] = true
		if !on[e.UUID] {
			rows = append(rows, e)
		}
	}
	var under, elsewhere []*entry
	seen := map[string]bool{}
	for _, l := range group {
		for _, h := range x.children[l.UUID] {
			if on[h.UUID] || seen[h.UUID] {
				continue
			}
			seen[h.UUID] = true
			if inGroup[h.parent()] {
				under = append(under, h)
			} else {
				elsewhere = append(elsewhere, h)
			}
		}
	}
	under = x.answering(under, elsewhere, inGroup, answered)
	if len(rows) == 0 && len(under) == 0 {
		return nil
	}
	byTime := func(l []*entry) {
		sort.SliceStable(l, func(a, b int) bool { return l[a].Timestamp < l[b].Timestamp })
	}
	byTime(rows)
	byTime(under)
	return append(rows, under...)
}

// answering adds to under the results hung elsewhere that answer a tool
// use of the group no kept row answers yet.
func (x *siblingIndex) answering(under, elsewhere []*entry, inGroup, answered map[string]bool) []*entry {
	if len(elsewhere) == 0 {
		return under
	}
	have := map[string]bool{}
	for r := range answered {
		have[r] = true
	}
	for _, h := range under {
		for _, r := range h.toolResults {
			have[r] = true
		}
	}
	sort.SliceStable(elsewhere, func(a, b int) bool { return x.pos[elsewhere[a].UUID] < x.pos[elsewhere[b].UUID] })
	for _, h := range elsewhere {
		useful := false
		for _, r := range h.toolResults {
			if w := x.useOwner[r]; !have[r] && w != nil && inGroup[w.UUID] {
				useful = true
			}
		}
		if !useful {
			continue
		}
		for _, r := range h.toolResults {
			have[r] = true
		}
		under = append(under, h)
	}
	return under
}
