package compaction

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/history"
)

// Replay swaps, for a client that takes compaction_update (contract
// "Context compaction"), the summary message a compaction left in the
// top-level history (a user row with isCompactSummary) for the completed
// compaction_update of that compaction, keyed by the message's uuid and
// carrying the summary, as the reference replays it on session/load. A
// summary whose framing is not recognized stays the user text it is. nil
// without the capability: the client gets the transcript text.
func Replay(c caps.Client) history.Swap {
	if !c.Compaction {
		return nil
	}
	return func(m history.Message) (json.RawMessage, bool) {
		if m.Type != "user" || !m.CompactSummary || m.UUID == "" {
			return nil, false
		}
		lifecycle := New(c)
		if !lifecycle.recordSummary(history.MessageText(m.Message)) {
			return nil, false
		}
		out, _ := json.Marshal(lifecycle.finish(m.UUID, "completed", nil, false)[0])
		return out, true
	}
}
