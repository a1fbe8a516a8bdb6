package sessionindex

import "sync"

// Fork holds (the reference's ForkHolds; the contract's "List
// subscription" is silent): a client must have a fork's session id from
// the `session/fork` response before a list subscription shows the fork,
// or it takes the fork for a session of its own. While a fork of a source
// is in flight, the row of the copy it made waits, and so does an unsent
// row whose forkedFrom is that source (the copy before its id is known);
// the last fork of the source answered, they go out at once.
type forkHolds struct {
	mu      sync.Mutex
	sources map[string]*forkSource // by source session id
}

// forkSource is the forks of one source in flight, and the copies they
// made.
type forkSource struct {
	count int
	forks map[string]bool
}

func (h *forkHolds) started(source string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sources == nil {
		h.sources = map[string]*forkSource{}
	}
	if src := h.sources[source]; src != nil {
		src.count++
		return
	}
	h.sources[source] = &forkSource{count: 1, forks: map[string]bool{}}
}

func (h *forkHolds) created(source, fork string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if src := h.sources[source]; src != nil {
		src.forks[fork] = true
	}
}

// answered ends one fork of source; when it was the last, it returns the
// copies whose rows were held.
func (h *forkHolds) answered(source string) (freed []string, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	src := h.sources[source]
	if src == nil {
		return nil, false
	}
	if src.count--; src.count > 0 {
		return nil, false
	}
	delete(h.sources, source)
	for f := range src.forks {
		freed = append(freed, f)
	}
	return freed, true
}

// holds reports whether the row of id waits: a copy of a fork in flight,
// or, not sent yet, a row forked from a source in flight.
func (h *forkHolds) holds(id string, sent bool, forkedFrom string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, src := range h.sources {
		if src.forks[id] {
			return true
		}
	}
	return !sent && forkedFrom != "" && h.sources[forkedFrom] != nil
}

// ForkStarted: a `session/fork` of source started.
func (s *Service) ForkStarted(source string) { s.forks.started(source) }

// ForkCreated: that fork copied the transcript of source into fork.
func (s *Service) ForkCreated(source, fork string) { s.forks.created(source, fork) }

// ForkAnswered: the response (or the error) of a fork of source is out.
// When it was the last fork of source in flight, the rows it held go out
// at once.
func (s *Service) ForkAnswered(source string) {
	freed, ok := s.forks.answered(source)
	if !ok {
		return
	}
	s.mu.Lock()
	subs := s.subs
	s.mu.Unlock()
	if subs == nil {
		return
	}
	// A pass at once: it takes the held (pending) rows again; "" names
	// no session, so nothing else is marked changed.
	for _, id := range append(freed, "") {
		subs.ownChanged(id)
	}
}
