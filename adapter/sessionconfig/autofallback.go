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

// autoFallback is the session's state of the notice.
type autoFallback struct {
	pending bool // the session started in the fallback; said at the first prompt
	said    bool
}

// AutoUnavailable reports a current model that cannot run Auto mode.
func (s *Session) AutoUnavailable() bool {
	m := s.CurrentModel()
	return m.Value != "" && !m.SupportsAutoMode
}

// AutoFallbackNotice is the update that says Auto mode fell back, the
// first time; nil after.
func (s *Session) AutoFallbackNotice() []json.RawMessage {
	s.fallback.pending = false
	if s.fallback.said {
		return nil
	}
	s.fallback.said = true
	return []json.RawMessage{marshal(notices.ReasonUpdate("warning", "Auto mode unavailable", autoFallbackReason, s.opts.Notices))}
}

// PendingAutoFallbackNotice is the notice of a session that started in
// the fallback, to send before its first prompt; nil otherwise.
func (s *Session) PendingAutoFallbackNotice() []json.RawMessage {
	if !s.fallback.pending {
		return nil
	}
	return s.AutoFallbackNotice()
}
