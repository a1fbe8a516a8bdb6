package sessionindex

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/airwire/airwire/internal/uuid"
)

// List subscription (contract: "Session index", "List subscription"): the
// agent watches, without recursion, the project directories of a cwd's
// scope (cwd and its worktree counterparts), the projects directory,
// <config>/sessions and the nearest existing parent of any of them that
// is missing, and sends `_session/list/changes` with the rows that
// changed and the ids that left the scope. fsnotify does the watching: it
// is the maintained cross-platform binding of inotify, kqueue and
// ReadDirectoryChangesW, which polling by hand would only approximate.

// Timing of the subscriptions.
const (
	debounce        = 150 * time.Millisecond
	maxDelay        = time.Second
	perSessionEvery = time.Second
	rescanEvery     = 10 * time.Second
	firstRescan     = time.Second
	maxSubs         = 128
)

// Changes is the params of `_session/list/changes`.
type Changes struct {
	SubscriptionID string        `json:"subscriptionId"`
	Sessions       []SessionInfo `json:"sessions"`
	Removed        []string      `json:"removed"`
}

type subscriptions struct {
	svc *Service

	mu     sync.Mutex
	subs   map[string]*subscription
	groups map[string]*group
	closed bool
}

// subscription is one `_session/list/subscribe`.
type subscription struct {
	id, cwd string
	sent    map[string]string    // the change signature last sent, by session
	lastAt  map[string]time.Time // when a row was last sent, by session
	pending map[string]bool      // rows held back by the once-a-second limit
}

// Subscribe is `_session/list/subscribe`: cwd must be an absolute path.
// It returns the subscription id once the scope is watched and stat'ed.
func (s *Service) Subscribe(raw json.RawMessage) (string, error) {
	var p struct {
		Cwd any `json:"cwd"`
	}
	_ = json.Unmarshal(raw, &p)
	cwd, ok := p.Cwd.(string)
	if !ok || !filepath.IsAbs(cwd) {
		return "", invalidParams(map[string]any{"cwd": p.Cwd}, "params require an absolute cwd")
	}
	s.mu.Lock()
	if s.subs == nil {
		s.subs = &subscriptions{svc: s, subs: map[string]*subscription{}, groups: map[string]*group{}}
	}
	subs := s.subs
	s.mu.Unlock()
	return subs.subscribe(cwd)
}

// Unsubscribe is `_session/list/unsubscribe`; an unknown id is no error.
func (s *Service) Unsubscribe(raw json.RawMessage) {
	var p struct {
		SubscriptionID string `json:"subscriptionId"`
	}
	_ = json.Unmarshal(raw, &p)
	s.mu.Lock()
	subs := s.subs
	s.mu.Unlock()
	if subs != nil {
		subs.unsubscribe(p.SubscriptionID)
	}
}

func (ss *subscriptions) subscribe(cwd string) (string, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		return "", &Error{Code: -32603, Message: "Internal error: the connection is closed"}
	}
	if len(ss.subs) >= maxSubs {
		return "", invalidParams(map[string]any{"reason": "too_many_subscriptions", "max": maxSubs}, "At most %d session list subscriptions per connection", maxSubs)
	}
	g := ss.groups[cwd]
	if g == nil {
		var err error
		if g, err = startGroup(ss.svc, cwd); err != nil {
			return "", &Error{Code: -32603, Message: "Internal error: " + err.Error()}
		}
		ss.groups[cwd] = g
	}
	sub := &subscription{id: uuid.New(), cwd: cwd, sent: map[string]string{}, lastAt: map[string]time.Time{}, pending: map[string]bool{}}
	ss.subs[sub.id] = sub
	g.join(sub)
	return sub.id, nil
}

func (ss *subscriptions) unsubscribe(id string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	sub := ss.subs[id]
	if sub == nil {
		return
	}
	delete(ss.subs, id)
	if g := ss.groups[sub.cwd]; g != nil && g.leave(id) == 0 {
		delete(ss.groups, sub.cwd)
		g.stop()
	}
}

func (ss *subscriptions) close() {
	ss.mu.Lock()
	ss.closed = true
	groups := ss.groups
	ss.groups, ss.subs = map[string]*group{}, map[string]*subscription{}
	ss.mu.Unlock()
	for _, g := range groups {
		g.stop()
	}
}

func (ss *subscriptions) each(f func(*group)) {
	ss.mu.Lock()
	groups := make([]*group, 0, len(ss.groups))
	for _, g := range ss.groups {
		groups = append(groups, g)
	}
	ss.mu.Unlock()
	for _, g := range groups {
		f(g)
	}
}

// sessionWritten: the adapter wrote a session's transcripts.
func (ss *subscriptions) sessionWritten(id string) {
	ss.each(func(g *group) { g.kick(id, false) })
}

// ownChanged: a session this connection runs changed; sent at once.
func (ss *subscriptions) ownChanged(id string) {
	ss.each(func(g *group) { g.kick(id, true) })
}

// signature is what a change of a row is compared by: everything but
// updatedAt, which alone is no change.
func signature(info SessionInfo) string {
	b, _ := json.Marshal([]any{info.SessionID, info.Cwd, info.Title, info.Meta})
	return string(b)
}

// sessionOfEvent is the session id a transcript event names ("" for none).
func sessionOfEvent(name string) string {
	id, ok := strings.CutSuffix(filepath.Base(name), ".jsonl")
	if !ok || !ValidID(id) {
		return ""
	}
	return id
}

// pass finds what changed since the last pass and sends it.
func (g *group) pass() {
	g.first, g.deadline = time.Time{}, time.Time{}
	g.syncWatches()
	if g.registryHit {
		g.registryHit = false
		g.svc.registry.invalidate()
	}
	live := g.svc.registry.snapshot()
	for id, rec := range live {
		if prev, ok := g.live[id]; !ok || prev != rec {
			g.dirty[id] = true
		}
	}
	for id := range g.live {
		if _, ok := live[id]; !ok {
			g.dirty[id] = true
		}
	}
	g.live = live
	stats := g.statScope()
	var removed []string
	for id, st := range stats {
		if g.stats[id] != st {
			g.dirty[id] = true
		}
	}
	for id := range g.stats {
		if _, ok := stats[id]; !ok {
			removed = append(removed, id)
			delete(g.dirty, id)
		}
	}
	g.stats = stats
	changed := g.dirty
	g.dirty = map[string]bool{}
	g.deliver(g.rowsOf(changed), changed, removed, live)
}

// rowsOf are the current rows of the sessions ids, by id.
func (g *group) rowsOf(ids map[string]bool) map[string]row {
	g.mu.Lock()
	for _, s := range g.members {
		for id := range s.pending {
			ids[id] = true
		}
	}
	g.mu.Unlock()
	var cands []candidate
	for _, c := range candidatesOf(g.svc.Index.configDir, scopeDirs(g.svc.Index.configDir, g.paths)) {
		if ids[c.sessionID] {
			cands = append(cands, c)
		}
	}
	out := map[string]row{}
	for _, r := range g.svc.Index.rowsOf(cands) {
		out[r.sessionID] = r
	}
	return out
}

// deliver sends each subscription the rows it has not seen and the
// removed ids, at most one row a second per session.
func (g *group) deliver(rows map[string]row, changed map[string]bool, removed []string, live map[string]liveRecord) {
	now := time.Now()
	sort.Strings(removed)
	g.mu.Lock()
	var out []Changes
	for _, sub := range g.members {
		c := Changes{SubscriptionID: sub.id, Sessions: []SessionInfo{}, Removed: []string{}}
		for _, id := range slices.Sorted(maps.Keys(mergeKeys(changed, sub.pending))) {
			r, ok := rows[id]
			if !ok {
				delete(sub.pending, id)
				continue
			}
			if _, sent := sub.sent[id]; g.svc.forks.holds(id, sent, r.facts.forkedFrom) {
				sub.pending[id] = true // ForkAnswered sends it
				continue
			}
			info := g.svc.info(r, live, now)
			sig := signature(info)
			if prev, seen := sub.sent[id]; seen && prev == sig {
				delete(sub.pending, id)
				continue
			}
			if at, ok := sub.lastAt[id]; ok && now.Sub(at) < perSessionEvery {
				sub.pending[id] = true
				g.deadline = minNonZero(g.deadline, at.Add(perSessionEvery))
				continue
			}
			delete(sub.pending, id)
			sub.sent[id], sub.lastAt[id] = sig, now
			c.Sessions = append(c.Sessions, info)
		}
		for _, id := range removed {
			delete(sub.sent, id)
			delete(sub.pending, id)
			c.Removed = append(c.Removed, id)
		}
		if len(c.Sessions) > 0 || len(c.Removed) > 0 {
			out = append(out, c)
		}
	}
	g.mu.Unlock()
	for _, c := range out {
		if g.svc.notify != nil {
			_ = g.svc.notify(MethodChanges, c)
		}
	}
}

func mergeKeys(a, b map[string]bool) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func minNonZero(a, b time.Time) time.Time {
	if a.IsZero() {
		return b
	}
	return minTime(a, b)
}
