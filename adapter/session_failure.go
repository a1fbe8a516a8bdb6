package adapter

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/adapter/notices"
	"github.com/airwire/airwire/adapter/sessionfailure"
	"github.com/airwire/airwire/internal/jsonrpc"
)

// Contract "Session failure": a client that declared the AIR capability
// `sessionFailure` gets warnings and errors as typed transcript records
// (adapter/sessionfailure) instead of JSON-RPC errors and transcript text.
// A turn-terminal failure rides on the PromptResponse `_meta` with
// stopReason end_turn; a warning, a notice and a session-scoped incident
// go in a session_info_update ("Delivery"). Sign-in failures keep the ACP
// authRequired error and get no record ("Categories and actions"). Without
// the capability nothing here changes what the client sees ("Activation").

// turnFailure is the translator's part of the extension.
type turnFailure struct {
	on    bool // the client declared sessionFailure
	state *sessionfailure.State
	// title is the text of the turn's last top-level assistant error (or
	// usage-limit) message: the title of its failure ("Title and details").
	title      string
	usageLimit bool
	// workerShutdown: the CLI announced worker_shutting_down; the record
	// waits for the CLI's exit.
	workerShutdown bool
}

func newTurnFailure(s *Session) turnFailure {
	return turnFailure{on: s.agent.clientCaps().AIR.Has(caps.SessionFailure), state: s.failures}
}

// startTurn forgets the previous turn's assistant error.
func (f *turnFailure) startTurn() { f.title, f.usageLimit = "", false }

// failureUpdate is the session_info_update carrying r.
func failureUpdate(r sessionfailure.Record) map[string]any {
	return map[string]any{"sessionUpdate": "session_info_update", "_meta": r.Meta()}
}

// noteAssistantError records a top-level assistant message's error text
// and reports whether the message must stay out of the transcript: for a
// client with the capability, the failure's record carries that text.
func (t *translator) noteAssistantError(m assistantLine) (hide bool) {
	text := assistantText(m)
	usageLimit := sessionfailure.IsUsageLimit(m.Message.Model, text)
	t.failure.usageLimit = usageLimit
	if m.Error == "" && !usageLimit {
		return false
	}
	t.failure.title = text
	return t.failure.on
}

func assistantText(m assistantLine) string {
	var b strings.Builder
	for _, c := range m.Message.Content {
		if c.Type == "text" {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// activeTurnID is the prompt uuid a live turn failure names: the turn under
// way, else the prompt sent last and not echoed yet. The real CLI sends
// api_retry before it echoes the prompt, and a retry of a turn just
// submitted belongs to that turn (goldens/DEVIATIONS.md entry 6).
func (t *translator) activeTurnID() string {
	if id := t.s.activeTurnID(); id != "" && (t.active || len(t.pending) > 0) {
		return id
	}
	return ""
}

// failTurn ends the active turn that failed with result frame r.
func (t *translator) failTurn(r *claude.Frame) {
	err := turnError(r, t.errorKind)
	id := t.s.activeTurnID()
	t.s.fileChanges.activeUnavailable(fileChangeProviderError) // contract "Unavailable report"
	if !t.failure.on || errors.Is(err, errAuthRequired) || id == "" {
		t.s.finish(nil, err)
		return
	}
	kind, ok := sessionfailure.ResultKind(r.Subtype)
	title := resultDetail(r)
	if !ok {
		kind = sessionfailure.ProviderKind(t.errorKind, t.failure.usageLimit)
		if t.failure.title != "" {
			title = t.failure.title
		}
	}
	rec := t.failure.state.Turn(kind, id, title, sessionfailure.Error)
	t.s.finish(withFailure(t.usage.PromptResponse("end_turn"), rec), nil)
}

// withFailure adds the record to a PromptResponse's `_meta`, beside quota.
func withFailure(resp json.RawMessage, r sessionfailure.Record) json.RawMessage {
	var m map[string]any
	_ = json.Unmarshal(resp, &m)
	meta, _ := m["_meta"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	for k, v := range r.Meta() {
		meta[k] = v
	}
	m["_meta"] = meta
	out, _ := json.Marshal(m)
	return out
}

// apiRetry publishes an SDK api_retry as a warning that reuses the active
// turn failure's id ("Categories and actions"); with no turn it is a
// session-scoped warning.
func (t *translator) apiRetry(line *claude.Frame) {
	if !t.failure.on {
		return
	}
	kind, title, ok := sessionfailure.RetryTitle(line)
	if !ok {
		return
	}
	if id := t.activeTurnID(); id != "" {
		t.s.notify(failureUpdate(t.failure.state.Turn(kind, id, title, sessionfailure.Warning)))
		return
	}
	t.s.notify(failureUpdate(t.failure.state.Session(kind, title, sessionfailure.Warning)))
}

// noticeTitleLimit is the longest notice title; a longer notice keeps its
// summary as the title and its explanation as details.
const noticeTitleLimit = notices.TitleLimit

// fallbackNotice shows a model refusal fallback: a `notice` for a client
// with ACP session notices, else a typed advisory for a client with the
// sessionFailure capability, else the transcript line.
func (t *translator) fallbackNotice(m refusalFallbackLine) {
	if t.s.agent.clientCaps().Notices {
		t.s.notify(m.sessionNotice().Update())
		return
	}
	if !t.failure.on {
		t.s.notify(textUpdate("agent_message_chunk", "**Model fallback:** "+m.notice(), ""))
		return
	}
	summary, details := m.summary(), m.Explanation
	title := m.notice()
	if details != "" && len(summary)+2+len(details) > noticeTitleLimit {
		title = summary
	} else {
		details = ""
	}
	t.s.notify(failureUpdate(t.failure.state.Notice(title, details)))
}

// exitFailure is what the end of the CLI means for a client with the
// capability: worker_shutdown after the CLI announced it, transport_lost
// when it died, nothing when it ended cleanly unannounced. turnID is the
// open turn that then ends with the record on its PromptResponse ("" for
// none: the record goes out session-scoped). It returns the response for
// that turn (nil when the turn ends as before).
func (t *translator) exitFailure(exitErr error, turnID string) json.RawMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	var kind sessionfailure.Kind
	switch {
	case !t.failure.on || errors.Is(exitErr, claude.ErrClosed):
		return nil
	case t.failure.workerShutdown:
		kind = sessionfailure.WorkerShutdown
	case exitErr != nil:
		kind = sessionfailure.TransportLost
	default:
		return nil
	}
	if turnID == "" {
		t.s.notify(failureUpdate(t.failure.state.Session(kind, "", sessionfailure.Error)))
		return nil
	}
	return withFailure(t.usage.PromptResponse("end_turn"), t.failure.state.Turn(kind, turnID, "", sessionfailure.Error))
}

// replayedFailures is the history replay's swap for a client c with the
// capability ("History replay"), recorded in failures: each SDK synthetic usage-limit message
// of the top-level history becomes a typed record at its position, titled
// with the stored text and named after the user message before it (its
// live id); the duplicate assistant text is not replayed. nil without the
// capability: the client gets the original transcript.
func replayedFailures(c caps.Client, failures *sessionfailure.State) history.Swap {
	if !c.AIR.Has(caps.SessionFailure) {
		return nil
	}
	turnID := ""
	return func(m history.Message) (json.RawMessage, bool) {
		if m.Type == "user" {
			turnID = m.UUID
			return nil, false
		}
		var api struct {
			Model   string `json:"model"`
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		}
		if m.Type != "assistant" || json.Unmarshal(m.Message, &api) != nil {
			return nil, false
		}
		var text strings.Builder
		for _, c := range api.Content {
			if c.Type == "text" {
				text.WriteString(c.Text)
			}
		}
		if !sessionfailure.IsUsageLimit(api.Model, text.String()) {
			return nil, false
		}
		out, _ := json.Marshal(failureUpdate(failures.Replayed(turnID, m.UUID, text.String())))
		return out, true
	}
}

// lostOnProviderUpdate ends a session whose CLI could not start again
// under a provider update, as the reference does: the session is gone (a
// later prompt finds no such session) and the update goes on to the next
// one. A client with the capability learns why from a session-scoped
// internal_error: the adapter's own title, and the agent's error message
// (a start failure says why the CLI did not start, scrubbed of paths and
// values) as its details. A session the client closed meanwhile gets no
// record.
func lostOnProviderUpdate(s *Session, err error) {
	s.agent.opts.Log.Error("the session's CLI did not start under the new provider; the session is lost", "session", s.ID, "err", err)
	a := s.agent
	a.mu.Lock()
	if a.sessions[s.ID] == s {
		delete(a.sessions, s.ID)
	}
	a.mu.Unlock()
	if s.isClosed() {
		return
	}
	s.Close()
	if !s.tr.failure.on {
		return
	}
	s.tr.mu.Lock()
	r := s.tr.failure.state.Session(sessionfailure.InternalError, "", sessionfailure.Error)
	s.tr.mu.Unlock()
	r.Details = jsonrpc.ErrInternal.Message
	if we := (*jsonrpc.WireError)(nil); errors.As(err, &we) {
		r.Details = we.Message
	}
	s.notify(failureUpdate(r))
}
