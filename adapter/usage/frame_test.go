package usage

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/claude/claudetest"
)

// frame is Frame of a line as the CLI wrote it.
func (t *Tracker) frame(raw json.RawMessage, autonomous bool) (Update, bool) {
	f, err := claude.DecodeFrame(append([]byte(nil), raw...))
	if err != nil {
		return nil, false
	}
	return t.Frame(f, autonomous)
}

// stopReason is StopReason of a result line as the CLI wrote it.
func stopReason(raw json.RawMessage) (reason string, failed bool) {
	return StopReason(claudetest.Frame(raw))
}
