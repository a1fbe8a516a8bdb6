package adapter

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/turns"
	"github.com/airwire/airwire/adapter/usage"
	"github.com/airwire/airwire/internal/jsonrpc"
	"github.com/airwire/airwire/internal/lazyre"
)

// turn is one session/prompt: its events report how it goes, as the
// connection's ACP version answers it (adapter/turns).
type turn struct {
	events     turns.Events
	promptUUID string
	// insertedReported: its insertion was reported (insertTurn).
	insertedReported bool
	cancelled        bool
	localOnly        bool               // a command the CLI answers locally (localcommand.go)
	local            *localCommand      // a `/mcp` command whose output the agent replaces (localcommand.go)
	goal             bool               // a `_session/goal` request's prompt: answered {} (goal.go)
	fileChange       *fileChangeRequest // its AIR file-change report request, if any
}

// A failed turn ends its prompt with an error, shaped as the reference
// shapes it for a client without AIR session failures: an auth failure is
// -32000 "Authentication required" (the client starts its login flow);
// anything else is -32603 "Internal error: <detail>" with data.errorKind
// naming the CLI's error marker of the turn's last assistant message.

// errAuthRequired is the SDK's authRequired error.
var errAuthRequired = &jsonrpc.WireError{Code: -32000, Message: "Authentication required"}

var loginRequired = lazyre.New(`(?i)\brun /login\b`)

// isAuthErrorKind tells the assistant error markers that mean "log in again".
func isAuthErrorKind(kind string) bool {
	return kind == "authentication_failed" || kind == "oauth_org_not_allowed"
}

// turnError is the error that ends a failed turn; errorKind is the error
// marker of the turn's last assistant message ("" when none).
func turnError(r *claude.Frame, errorKind string) error {
	detail := resultDetail(r)
	if isAuthErrorKind(errorKind) || (r.Subtype == "success" && loginRequired.MatchString(r.Result)) {
		return errAuthRequired
	}
	e := &jsonrpc.WireError{Code: jsonrpc.ErrInternal.Code, Message: "Internal error"}
	if detail != "" {
		e.Message += ": " + detail
	}
	if errorKind != "" {
		e.Data, _ = json.Marshal(map[string]string{"errorKind": errorKind})
	}
	return e
}

// resultDetail is a failed result's text: the result of a "success"
// subtype, else its errors (or the subtype).
func resultDetail(r *claude.Frame) string {
	if r.Subtype == "success" {
		return r.Result
	}
	if len(r.Errors) > 0 {
		return strings.Join(r.Errors, ", ")
	}
	return r.Subtype
}

// abandonQueued ends, at a cancel, each prompt Claude Code has not started
// (its echo has not arrived): it never ran, so it is answered
// {stopReason: cancelled} at once, with no usage, after its unavailable
// file-change report ("Agent file-change report > Unavailable report":
// cancelled). It returns their uuids, to be withdrawn from the CLI's queue
// (cancel_async_message) before the interrupt, so that they do not run
// after all, as the reference does. A message the CLI dequeued already
// still runs; its echo and result end no other turn (translator.orphan).
// A local-only command and a goal's prompt keep their own ending.
func (t *translator) abandonQueued() []string {
	s := t.s
	t.mu.Lock()
	defer t.mu.Unlock()
	s.mu.Lock()
	var gone []*turn
	kept := make([]*turn, 0, len(s.turns))
	for _, x := range s.turns {
		if x.promptUUID != "" && !x.localOnly && !x.goal && slices.Contains(t.pending, x.promptUUID) {
			gone = append(gone, x)
		} else {
			kept = append(kept, x)
		}
	}
	s.turns = kept
	if len(kept) == 0 {
		s.state = idle
	}
	s.mu.Unlock()
	var uuids []string
	for _, x := range gone {
		t.pending = slices.DeleteFunc(t.pending, func(p string) bool { return p == x.promptUUID })
		t.orphan.add(x.promptUUID)
		uuids = append(uuids, x.promptUUID)
		x.fileChange.cancelled()
		s.fileChanges.unavailable(x.fileChange, fileChangeCancelled)
		x.settle(&s.fg, json.RawMessage(`{"stopReason":"cancelled"}`), nil)
	}
	return uuids
}

// orphans are the prompts a cancel abandoned (abandonQueued) that Claude
// Code may still run: their echo and result belong to no turn.
type orphans struct {
	uuids   []string
	running bool // an orphan's echo arrived and its result has not
}

func (o *orphans) add(uuid string) { o.uuids = append(o.uuids, uuid) }

// echo takes the CLI's echo of a user message; it reports whether the
// message is an orphan's.
func (o *orphans) echo(uuid string) bool {
	if !slices.Contains(o.uuids, uuid) {
		return false
	}
	o.uuids = slices.DeleteFunc(o.uuids, func(u string) bool { return u == uuid })
	o.running = true
	return true
}

// result reports whether a result ends an orphan's run (and takes it).
func (o *orphans) result() bool {
	was := o.running
	o.running = false
	return was
}

// turnStarted forgets the orphans older than a turn that started: Claude
// Code runs its queue in order, so they ran or were dropped.
func (o *orphans) turnStarted() { o.uuids, o.running = nil, false }

// closeTurns ends the session's turns when the editor closes it, as a
// cancel does (the reference's teardown cancels first): the prompts not
// started end at once (abandonQueued), the open permission requests are
// withdrawn, each tool call still open is reported failed, the turn under
// way ends cancelled with its usage, and the CLI gets the withdrawals and
// the interrupt before it is closed.
func (s *Session) closeTurns() {
	detach(s)
	s.tr.toolCallsCancelled()
	abandoned := s.tr.abandonQueued()
	active := s.cancelActive()
	if !active && len(abandoned) == 0 {
		// An idle session's CLI still gets the interrupt, as the
		// reference's teardown sends it whatever the session runs.
		if cli := s.cli(); cli != nil {
			_ = cli.Post(claude.Interrupt{})
		}
		return
	}
	// The editor settles its open requests as it closes (Zed answers them
	// cancelled in the same instant): a reply already on its way is read
	// before the requests are withdrawn, as the reference's teardown reads
	// it while it awaits its first steps.
	time.Sleep(closeGrace)
	answered := s.asks.withdraw()
	answered()
	if cli := s.cli(); cli != nil {
		for _, uuid := range abandoned {
			_ = cli.Post(claude.CancelAsyncMessage{MessageUUID: uuid})
		}
		// Not awaited, as the reference does not await it: what the CLI
		// answers belongs to a turn that has ended.
		_ = cli.Post(claude.Interrupt{})
	}
	if active {
		s.tr.closeActive()
	}
}

// detach makes what the CLI says from now on belong to a session being
// torn down, as the reference's teardown detaches it first: a tool result
// the CLI writes for a permission settled with the close does not end the
// tool call that the close reports failed. The close detaches as it is
// read (closeRead) and again as it is handled (closeTurns). A function,
// not a method: the Session keeps its method count small.
func detach(s *Session) {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
}

// closeGrace is how long a close lets replies written with it arrive
// before it withdraws the open requests: long enough for a reply that
// crosses a proxy or two (airwire record, airwire play) on a busy machine.
const closeGrace = 50 * time.Millisecond

// settle reports the end of turn t: the end of the work it owns, then its
// prompt's answer.
func (t *turn) settle(fg *turns.Foreground, outcome turns.Outcome, err error) {
	fg.End(t, outcome, err)
	if err != nil {
		t.events.Failed(err)
		return
	}
	t.events.Ended(outcome)
}

// insertTurn reports that Claude Code took in the prompt uuid, once per
// turn (a clear-context restart activates the same turn again), and makes
// the turn the foreground work.
func (s *Session) insertTurn(uuid string) {
	s.mu.Lock()
	var t *turn
	for _, x := range s.turns {
		if x.promptUUID == uuid {
			t = x
			break
		}
	}
	if t == nil || t.insertedReported {
		s.mu.Unlock()
		return
	}
	t.insertedReported = true
	s.mu.Unlock()
	t.events.Inserted(uuid)
	s.fg.Start(t)
}

// outcomeOf is a v1 prompt response as a turn outcome.
func outcomeOf(result any) turns.Outcome {
	if raw, ok := result.(json.RawMessage); ok {
		return raw
	}
	raw, _ := json.Marshal(result)
	return raw
}

// startCycle makes a model cycle Claude Code starts on its own (its
// follow-up after background work, a message from another session) the
// session's foreground work, at its first output of the main conversation
// (a message_start comes before any text) while no work runs and no prompt
// waits for its echo (the output may be that prompt's). Called with t.mu
// held.
func startCycle(t *translator, f *claude.Frame) {
	if f.Parent != nil || (f.Type != "assistant" && f.Type != "stream_event") || len(t.pending) > 0 {
		return
	}
	if !t.s.fg.Working() {
		t.s.fg.Start(turns.Cycle)
	}
}

// endCycle ends a cycle's work at its result: as its stop reason says,
// with its usage, or failed with the result's error. Called with t.mu held.
func endCycle(t *translator, r *claude.Frame) {
	reason, failed := usage.StopReason(r)
	if failed {
		detail := resultDetail(r)
		t.s.fg.End(turns.Cycle, nil, jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error: %s", detail))
		return
	}
	t.s.fg.End(turns.Cycle, t.usage.CycleResponse(r, reason), nil)
}
