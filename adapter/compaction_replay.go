package adapter

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/history"
)

// replaySwaps are the swaps of a session/load replay: the AIR session
// failure records, then the compaction summaries.
func (s *Session) replaySwaps() history.Swap {
	failures, compactions := replayedFailures(s.agent.clientCaps(), s.failures), s.replayedCompactions()
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

// replayedCompactions swaps, for a client that takes compaction_update
// (contract "Context compaction"), the summary message a compaction left
// in the top-level history (a user row with isCompactSummary) for the
// completed compaction_update of that compaction, keyed by the message's
// uuid and carrying the summary, as the reference replays it. A summary
// whose framing is not recognized stays the user text it is. nil without
// the capability: the client gets the transcript text.
func (s *Session) replayedCompactions() history.Swap {
	c := s.agent.clientCaps()
	if !c.Compaction {
		return nil
	}
	return func(m history.Message) (json.RawMessage, bool) {
		if m.Type != "user" || !m.CompactSummary || m.UUID == "" {
			return nil, false
		}
		lifecycle := &compaction{updates: true, air: c.AIR.Client}
		if !lifecycle.recordSummary(history.MessageText(m.Message)) {
			return nil, false
		}
		out, _ := json.Marshal(lifecycle.finish(m.UUID, "completed", nil, false)[0])
		return out, true
	}
}
