package history

import "sort"

// rowSet is the rows of a transcript by uuid: a later row with the same
// uuid replaces an earlier one and keeps its place.
type rowSet struct {
	byUUID map[string]*entry
	order  []string
	// last is the file position of the last row with each uuid.
	last map[string]int
}

func newRowSet(rows []*entry) *rowSet {
	s := &rowSet{byUUID: make(map[string]*entry, len(rows)), last: make(map[string]int, len(rows))}
	for i, e := range rows {
		if _, ok := s.byUUID[e.UUID]; !ok {
			s.order = append(s.order, e.UUID)
		}
		s.byUUID[e.UUID] = e
		s.last[e.UUID] = i
	}
	return s
}

func (s *rowSet) parentOf(e *entry) *entry {
	if p := e.parent(); p != "" {
		return s.byUUID[p]
	}
	return nil
}

func (s *rowSet) setParent(e *entry, parent string) {
	c := *e
	c.ParentUUID = &parent
	s.byUUID[e.UUID] = &c
}

// chain is the active branch of a transcript, as the reference's SDK
// builds it: compactions relink the messages they keep, the branch ends
// at the latest main-thread leaf that reaches a user or assistant row, and
// runs back to its root; the other rows of its assistant messages (one
// row per content block) and their tool results are put back next to them.
func chain(rows []*entry) []*entry {
	s := newRowSet(rows)
	s.relinkCompactions()
	leaf := s.leaf()
	if leaf == nil {
		return nil
	}
	var branch []*entry
	on := map[string]bool{}
	for e := leaf; e != nil && !on[e.UUID]; e = s.parentOf(e) {
		on[e.UUID] = true
		branch = append(branch, e)
	}
	for i, j := 0, len(branch)-1; i < j; i, j = i+1, j-1 {
		branch[i], branch[j] = branch[j], branch[i]
	}
	return s.withSiblings(branch, on)
}

// relinkCompactions puts the messages that a compaction kept back under
// the boundary's anchor.
func (s *rowSet) relinkCompactions() {
	for _, id := range s.order {
		e := s.byUUID[id]
		if e.Type != "system" || e.Subtype != "compact_boundary" || e.CompactMetadata == nil {
			continue
		}
		if pm := e.CompactMetadata.PreservedMessages; pm != nil {
			s.relinkMessages(pm.AnchorUUID, pm.UUIDs)
		} else if ps := e.CompactMetadata.PreservedSegment; ps != nil {
			if head := s.byUUID[ps.HeadUUID]; head != nil {
				s.setParent(head, ps.AnchorUUID)
			}
			s.reparent(ps.AnchorUUID, ps.HeadUUID, ps.TailUUID)
		}
	}
}

// relinkMessages chains the kept messages after anchor, in their order.
func (s *rowSet) relinkMessages(anchor string, uuids []string) {
	if len(uuids) == 0 {
		return
	}
	for _, u := range uuids {
		if s.byUUID[u] == nil {
			return
		}
	}
	prev := anchor
	for _, u := range uuids {
		s.setParent(s.byUUID[u], prev)
		prev = u
	}
	s.reparent(anchor, uuids[0], uuids[len(uuids)-1])
}

// reparent moves every other child of anchor under tail.
func (s *rowSet) reparent(anchor, keep, tail string) {
	for _, id := range s.order {
		if e := s.byUUID[id]; e.parent() == anchor && id != keep {
			s.setParent(e, tail)
		}
	}
}

// mainThread reports a row of the main conversation that can end it.
func mainThread(e *entry) bool {
	return !e.IsSidechain && !e.hasTeam() && e.Type != "progress" &&
		!(e.Type == "attachment" && e.Attachment != nil && e.Attachment.Type == "fork_briefing")
}

func isMessage(e *entry) bool { return e.Type == "user" || e.Type == "assistant" }

// leaf is the last message of the active branch: from the latest
// main-thread leaf, the first user or assistant row up its parents.
func (s *rowSet) leaf() *entry {
	parents := map[string]bool{}
	for _, id := range s.order {
		if e := s.byUUID[id]; e.parent() != "" && mainThread(e) {
			parents[e.parent()] = true
		}
	}
	var ends []*entry
	for _, id := range s.order {
		if e := s.byUUID[id]; mainThread(e) && !parents[id] {
			ends = append(ends, e)
		}
	}
	sort.SliceStable(ends, func(a, b int) bool { return s.last[ends[a].UUID] > s.last[ends[b].UUID] })
	done := map[string]bool{}
	for _, end := range ends {
		var path []string
		seen := map[string]bool{}
		for e := end; e != nil && !done[e.UUID] && !seen[e.UUID]; e = s.parentOf(e) {
			if isMessage(e) {
				return e
			}
			seen[e.UUID] = true
			path = append(path, e.UUID)
		}
		for _, id := range path {
			done[id] = true
		}
	}
	return s.fallbackLeaf()
}

// fallbackLeaf is the latest message reached from any leaf, preferring
// main-thread rows that are not meta.
func (s *rowSet) fallbackLeaf() *entry {
	parents := map[string]bool{}
	for _, id := range s.order {
		if p := s.byUUID[id].parent(); p != "" {
			parents[p] = true
		}
	}
	var found, main []*entry
	for _, id := range s.order {
		if parents[id] {
			continue
		}
		seen := map[string]bool{}
		for e := s.byUUID[id]; e != nil && !seen[e.UUID]; e = s.parentOf(e) {
			seen[e.UUID] = true
			if isMessage(e) {
				found = append(found, e)
				if !e.IsSidechain && !e.hasTeam() && !e.IsMeta {
					main = append(main, e)
				}
				break
			}
		}
	}
	if len(main) > 0 {
		found = main
	}
	var best *entry
	for _, e := range found {
		if best == nil || s.last[e.UUID] > s.last[best.UUID] {
			best = e
		}
	}
	return best
}
