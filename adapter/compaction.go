package adapter

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/compaction"
	"github.com/airwire/airwire/adapter/history"
)

// Contract "Context compaction" lives in adapter/compaction; this file
// sends its updates under the translator's lock and adds its replay to a
// session/load.

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
