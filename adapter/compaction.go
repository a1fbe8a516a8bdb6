package adapter

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/airwire/airwire/adapter/compaction"
	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/adapter/turns"
	"github.com/airwire/airwire/internal/envlist"
)

// Contract "Context compaction" lives in adapter/compaction; this file
// sends its updates under the translator's lock, adds its replay to a
// session/load, and wires a session's idle compaction.

// interruptCompaction abandons the compaction of a cancelled turn.
func (t *translator) interruptCompaction() {
	t.mu.Lock()
	t.sendMaps(t.compaction.Interrupt())
	t.mu.Unlock()
}

func (t *translator) sendMaps(updates []map[string]any) {
	for _, u := range updates {
		t.s.notify(u)
	}
}

// replaySwaps are the swaps of a session/load replay: the AIR session
// failure records, then the compaction summaries.
func (s *Session) replaySwaps() history.Swap {
	failures, compactions := replayedFailures(s.agent.clientCaps(), s.failures), compaction.Replay(s.agent.clientCaps())
	if failures == nil {
		return compactions
	}
	if compactions == nil {
		return failures
	}
	return func(m history.Message) (json.RawMessage, bool) {
		// The failure swap sees every message: it remembers the user
		// message each failure answers.
		if u, ok := failures(m); ok {
			return u, true
		}
		return compactions(m)
	}
}

// The idle compaction (compaction.Idle): a session about to lose its
// one-hour prompt cache compacts itself with a /compact of the agent's
// own, whose compaction is reported as any other ("Context compaction"),
// with the trigger "automatic".

// newIdleCompaction is the idle compaction of s, whose CLI's environment
// is the one it last started with.
func newIdleCompaction(s *Session) *compaction.Idle {
	return compaction.NewIdle(idleHost{s}, func(name string) string {
		s.mu.Lock()
		defer s.mu.Unlock()
		return envlist.Getenv(s.cliEnv, name)
	})
}

// idleHost is a session as its idle compaction sees it.
type idleHost struct{ s *Session }

// Busy: a turn runs or is queued, or the session's work awaits the user.
func (h idleHost) Busy() bool {
	h.s.mu.Lock()
	queued := len(h.s.turns) > 0
	h.s.mu.Unlock()
	return queued || h.s.fg.State() != "idle"
}

func (h idleHost) ContextTokens() (int, bool) {
	h.s.tr.mu.Lock()
	defer h.s.tr.mu.Unlock()
	return h.s.tr.usage.ContextUsed()
}

// Settings reads the settings files as they are now: a file changed while
// the session runs counts.
func (h idleHost) Settings() compaction.IdleSettings {
	st := h.s.prefs.current()
	return compaction.IdleSettings{IdleCompactionOff: st.IdleCompactionOff, AutoCompactOff: st.AutoCompactOff, Env: st.Env}
}

func (h idleHost) Compact() { compactIdle(h.s) }

func (h idleHost) Log(msg string) { h.s.agent.opts.Log.Debug(msg, "session", h.s.ID) }

// compactIdle sends the CLI the agent's own /compact, as a prompt that no
// request awaits, and returns at its turn's end.
func compactIdle(s *Session) {
	ev := &agentTurn{done: make(chan struct{})}
	blocks := decodePrompt([]json.RawMessage{json.RawMessage(`{"type":"text","text":"/compact"}`)})
	if err := s.submit(context.Background(), newTurn(ev, blocks, nil, s), blocks); err != nil {
		return
	}
	<-ev.done
}

// agentTurn reports the turn of a prompt the agent sent by itself: no one
// is answered; done closes at its end.
type agentTurn struct {
	done chan struct{}
	once sync.Once
}

func (a *agentTurn) Inserted(string)     {}
func (a *agentTurn) Ended(turns.Outcome) { a.once.Do(func() { close(a.done) }) }
func (a *agentTurn) Failed(error)        { a.once.Do(func() { close(a.done) }) }

// rateLimitStatus is a rate_limit_event's rate_limit_info.status.
func rateLimitStatus(info json.RawMessage) string {
	var r struct {
		Status string `json:"status"`
	}
	_ = json.Unmarshal(info, &r)
	return r.Status
}
