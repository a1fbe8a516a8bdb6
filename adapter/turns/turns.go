package turns

import (
	"encoding/json"
	"sync"
)

// Outcome is how a turn ended: field for field a v1 prompt response
// (stopReason, usage, _meta).
type Outcome = json.RawMessage

// Events is how one prompt's turn goes. The agent calls them while it
// updates its own state: they must not call back into the session.
type Events interface {
	// Inserted: Claude Code took the prompt in as user message messageID
	// (its echo, or for a command it does not echo, its result).
	Inserted(messageID string)
	// Ended: the turn ended. A queued turn a cancel ends ends without
	// Inserted; Claude Code may still run its prompt.
	Ended(outcome Outcome)
	// Failed: the turn failed with err, the JSON-RPC error v1 answers the
	// prompt with.
	Failed(err error)
}

// Responder answers a request (jsonrpc.Conn).
type Responder interface {
	Respond(id json.RawMessage, result any, err error) error
}

// V1Prompt is the v1 mapping of a turn: the prompt request ID is answered
// at the turn's end, with its outcome or its error.
type V1Prompt struct {
	Conn Responder
	ID   json.RawMessage
}

func (p V1Prompt) Inserted(string)       {}
func (p V1Prompt) Ended(outcome Outcome) { _ = p.Conn.Respond(p.ID, outcome, nil) }
func (p V1Prompt) Failed(err error)      { _ = p.Conn.Respond(p.ID, nil, err) }

// Reporter reports the foreground work of a session.
type Reporter interface {
	// Running: the work started, or works again after it awaited the user.
	Running()
	// AwaitingUser: a permission request or a question is open in the
	// session (a request does not say which work it is for).
	AwaitingUser()
	Ended(outcome Outcome)
	Failed(err error)
}

// Unreported is the foreground of a v1 connection: v1 reports no state.
type Unreported struct{}

func (Unreported) Running()      {}
func (Unreported) AwaitingUser() {}
func (Unreported) Ended(Outcome) {}
func (Unreported) Failed(error)  {}

// Cycle owns the work of a model cycle Claude Code started on its own.
var Cycle = &cycle{}

type cycle struct{ _ byte }

// Foreground follows a session's foreground work: a prompt's turn from its
// insertion to its end, or a model cycle Claude Code started on its own,
// to its result. One piece of work runs at a time. Owners are compared by
// identity (a turn's pointer).
type Foreground struct {
	Report Reporter

	mu       sync.Mutex
	owner    any  // the work's owner; nil while no work runs
	awaiting bool // the work awaits the user
	open     int  // the requests open in the session
}

// Start makes owner the foreground work: it reports Running, then
// AwaitingUser at once when a request is open. Work already running goes
// on under owner (a prompt takes over a cycle) and reports nothing new.
func (f *Foreground) Start(owner any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.owner != nil {
		f.owner = owner
		return
	}
	f.owner = owner
	f.Report.Running()
	f.sync(false)
}

// Working reports whether work runs.
func (f *Foreground) Working() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.owner != nil
}

// End ends the work with outcome (or err) if owner owns it.
func (f *Foreground) End(owner any, outcome Outcome, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if owner == nil || f.owner != owner {
		return
	}
	f.end(outcome, err)
}

// EndWork ends the work under way, whoever owns it (a result ends it).
func (f *Foreground) EndWork(outcome Outcome) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.owner != nil {
		f.end(outcome, nil)
	}
}

func (f *Foreground) end(outcome Outcome, err error) {
	f.owner, f.awaiting = nil, false
	if err != nil {
		f.Report.Failed(err)
		return
	}
	f.Report.Ended(outcome)
}

// RequestOpened and RequestClosed count the session's open requests; the
// work awaits the user exactly while one is open. A request a cancel
// withdrew reports no Running when it closes: the work is being stopped,
// and its end follows.
func (f *Foreground) RequestOpened() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.open++
	f.sync(false)
}

func (f *Foreground) RequestClosed(withdrawnByCancel bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.open--
	f.sync(withdrawnByCancel)
}

// State is the work's state as ACP v2 names it: idle while no work runs,
// requires_action while it awaits the user, running otherwise.
func (f *Foreground) State() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.owner == nil:
		return "idle"
	case f.awaiting:
		return "requires_action"
	}
	return "running"
}

func (f *Foreground) sync(withdrawnByCancel bool) {
	waiting := f.open > 0
	if f.owner == nil || waiting == f.awaiting {
		return
	}
	f.awaiting = waiting
	if waiting {
		f.Report.AwaitingUser()
	} else if !withdrawnByCancel {
		f.Report.Running()
	}
}
