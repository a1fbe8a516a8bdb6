package sessionconfig

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/notices"
)

// Auto mode on a model that cannot run it becomes Accept edits: when the
// session starts in a chosen Auto (said before the first prompt), when
// the client sets Auto, when a model switch leaves Auto, and when an
// approved permission request moves the session to Auto. The first time,
// the client hears why, as from the reference (its
// AUTO_MODE_FALLBACK_NOTICE): a warning notice, or for a client without
// notices the transcript line. A built-in Auto default that starts in
// Manual is not said: nobody chose Auto.

// autoFallbackReason reads on after the bold label of the transcript line.
const autoFallbackReason = "the selected model does not support Auto mode; using Accept edits instead."

// AutoFallback is the session's state of the notice.
type AutoFallback struct {
	pending bool // the session started in the fallback; said at the first prompt
	said    bool
	notices bool // the client's session.notices
}

// AutoUnavailable reports a model that cannot run Auto mode.
func (m Model) AutoUnavailable() bool { return m.Value != "" && !m.SupportsAutoMode }

// AutoFallback is the session's Auto mode fallback notice.
func (s *Session) AutoFallback() *AutoFallback { return &s.fallback }

// Notice is the update that says Auto mode fell back, the first time; nil
// after.
func (f *AutoFallback) Notice() []json.RawMessage {
	f.pending = false
	if f.said {
		return nil
	}
	f.said = true
	return []json.RawMessage{marshal(notices.ReasonUpdate("warning", "Auto mode unavailable", autoFallbackReason, f.notices))}
}

// Pending is the notice of a session that started in the fallback, to
// send before its first prompt; nil otherwise.
func (f *AutoFallback) Pending() []json.RawMessage {
	if !f.pending {
		return nil
	}
	return f.Notice()
}
