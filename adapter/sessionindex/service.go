package sessionindex

import (
	"sync"
)

// Service is the session index of one connection: the list, rename,
// archive, delete and the list subscriptions of a sessionIndex client, and
// the archive behind session/delete of an AIR client without it.
type Service struct {
	// Index is the transcript cache the list reads.
	Index    *Index
	registry *registry
	own      func(id string) (Own, bool)
	notify   func(method string, params any) error

	mu    sync.Mutex
	locks map[string]*sessionLock
	subs  *subscriptions
	forks forkHolds
}

type sessionLock struct {
	mu    sync.Mutex
	users int
}

// NewService is the index of the transcripts under configDir. own reports
// a session this connection runs (nil: none); notify sends a notification
// to the client (the list subscriptions' changes).
func NewService(configDir string, own func(id string) (Own, bool), notify func(method string, params any) error) *Service {
	return &Service{Index: NewIndex(configDir), registry: newRegistry(configDir), own: own, notify: notify,
		locks: map[string]*sessionLock{}}
}

// exclusive runs f while no other rename, archive, unarchive or delete of
// the session runs (contract: "Archive": one at a time).
func (s *Service) exclusive(id string, f func() error) error {
	s.mu.Lock()
	l := s.locks[id]
	if l == nil {
		l = &sessionLock{}
		s.locks[id] = l
	}
	l.users++
	s.mu.Unlock()
	l.mu.Lock()
	defer func() {
		l.mu.Unlock()
		s.mu.Lock()
		if l.users--; l.users == 0 {
			delete(s.locks, id)
		}
		s.mu.Unlock()
	}()
	return f()
}

// Close ends the list subscriptions, their watchers and the index's.
func (s *Service) Close() {
	s.Index.Close()
	s.mu.Lock()
	subs := s.subs
	s.subs = nil
	s.mu.Unlock()
	if subs != nil {
		subs.close()
	}
}

// written tells the subscriptions that a session's transcripts changed.
func (s *Service) written(id string) {
	s.mu.Lock()
	subs := s.subs
	s.mu.Unlock()
	if subs != nil {
		subs.sessionWritten(id)
	}
}

// OwnSessionChanged tells the subscriptions that a session this connection
// runs changed its state, turn end or cost: its row is sent at once.
func (s *Service) OwnSessionChanged(id string) {
	s.mu.Lock()
	subs := s.subs
	s.mu.Unlock()
	if subs != nil {
		subs.ownChanged(id)
	}
}
