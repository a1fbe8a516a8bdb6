package usage

import (
	"encoding/json"
	"strings"

	"github.com/airwire/airwire/adapter/claude"
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
	if !strings.Contains(string(raw), `"type"`) {
		raw = json.RawMessage(`{"type":"system",` + string(raw[1:]))
	}
	f, err := claude.DecodeFrame(raw)
	if err != nil {
		panic(err)
	}
	return StopReason(f)
}
