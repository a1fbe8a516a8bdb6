package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/sessionindex"
	"github.com/airwire/airwire/internal/jsonrpc"
)

// The session index of an AIR client (contract: "Session index"): the
// methods of a sessionIndex client, and what a session of this connection
// tells its rows. The index itself is package sessionindex.

// sessionIndexMethod is the method table of the session index's own
// methods (see methodFor); nil for any other name.
func sessionIndexMethod(name string) method {
	var m func(x *indexSide, ctx context.Context, req *jsonrpc.Request) (any, error)
	switch name {
	case sessionindex.MethodRename:
		m = (*indexSide).rename
	case sessionindex.MethodArchive:
		m = (*indexSide).archive
	case sessionindex.MethodUnarchive:
		m = (*indexSide).unarchive
	case sessionindex.MethodSubscribe:
		m = (*indexSide).subscribe
	case sessionindex.MethodUnsubscribe:
		m = (*indexSide).unsubscribe
	default:
		return nil
	}
	return func(a *Agent, ctx context.Context, req *jsonrpc.Request) (any, error) { return m(&a.index, ctx, req) }
}

// indexSide is the agent's side of the session index: its methods, and
// the index service, made at its first use. It reaches the agent through
// indexHost.
type indexSide struct {
	host indexHost
	mu   sync.Mutex
	svc  *sessionindex.Service
}

// indexHost is what the session index reaches of its agent.
type indexHost interface {
	clientCaps() caps.Client
	configDir() string
	session(id string) (*Session, error)
	closeLoaded(id string) bool
	editor() *jsonrpc.Conn
}

func (x *indexSide) archive(ctx context.Context, req *jsonrpc.Request) (any, error) {
	return x.archiveSession(ctx, req, true)
}

func (x *indexSide) unarchive(ctx context.Context, req *jsonrpc.Request) (any, error) {
	return x.archiveSession(ctx, req, false)
}

// indexState is what the index reports of a session this connection runs.
type indexState struct {
	mu       sync.Mutex
	state    string    // the CLI's session_state_changed state
	endedAt  time.Time // when its last turn ended
	failed   bool      // its last turn failed (no cancel)
	cost     float64   // total_cost_usd of its last result
	stored   string    // the title last stored through its CLI
	explicit bool      // a rename or an archive titled it: no generated title
	resumed  bool      // it was loaded, resumed or forked from history
}

// service is the connection's session index for an AIR client (nil for
// another client), made at its first use.
func (x *indexSide) service() *sessionindex.Service {
	c := x.host.clientCaps()
	if !c.AIR.Client {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.svc == nil {
		x.svc = sessionindex.NewService(x.host.configDir(), x.own, x.host.editor().Notify)
	}
	return x.svc
}

// indexed is the session index of a sessionIndex client, else nil.
func (x *indexSide) indexed() *sessionindex.Service {
	if !sessionindex.Enabled(x.host.clientCaps()) {
		return nil
	}
	return x.service()
}

func (x *indexSide) close() {
	x.mu.Lock()
	svc := x.svc
	x.mu.Unlock()
	if svc != nil {
		svc.Close()
	}
}

// own is what the index reports of a session that runs here.
func (x *indexSide) own(id string) (sessionindex.Own, bool) {
	s, _ := x.host.session(id)
	if s == nil || s.isClosed() {
		return sessionindex.Own{}, false
	}
	s.index.mu.Lock()
	defer s.index.mu.Unlock()
	return sessionindex.Own{State: s.index.state, LastTurnEndedAt: s.index.endedAt,
		LastTurnFailed: s.index.failed, CostUSD: s.index.cost}, true
}

// isClosed reports whether the session was closed (session/close, delete,
// the editor going away) or its CLI ended.
func (s *Session) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed || s.ended
}

// explicitTitle reports whether a rename or an archive titled the session.
func (x *indexState) explicitTitle() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.explicit
}

// frame notes what a CLI frame changes of the session's row: its state and
// turn end (session_state_changed), its cost and whether its turn failed
// (result, cancelled: whether the turn it ends was cancelled). It reports
// whether the frame was one of those.
func (x *indexState) frame(f *claude.Frame, cancelled func() bool) bool {
	kind := f.Type
	if kind != "result" && (kind != "system" || !strings.Contains(string(f.Raw), `"session_state_changed"`)) {
		return false
	}
	wasCancelled := kind == "result" && cancelled()
	x.mu.Lock()
	switch {
	case kind == "result":
		if f.TotalCostUSD != nil {
			x.cost = *f.TotalCostUSD
		}
		x.failed = (f.IsError || strings.HasPrefix(f.Subtype, "error_")) && !wasCancelled
	case f.Subtype == "session_state_changed":
		if f.State == "idle" && x.state != "idle" {
			x.endedAt = time.Now()
		}
		if f.State == "running" && x.state != "running" {
			x.failed = false
		}
		x.state = f.State
	}
	x.mu.Unlock()
	return true
}

// indexError is a sessionindex refusal as the JSON-RPC error.
func indexError(err error) error {
	var ie *sessionindex.Error
	if !errors.As(err, &ie) {
		return jsonrpc.Errorf(jsonrpc.ErrInternal, "Internal error: %v", withoutPath(err))
	}
	we := &jsonrpc.WireError{Code: int64(ie.Code), Message: ie.Message}
	if ie.Data != nil {
		we.Data, _ = json.Marshal(ie.Data)
	}
	return we
}

// withoutPath is what the client may read of a failure of the session
// store: a file operation's failure without its path, which is private.
func withoutPath(err error) string {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Op + ": " + pe.Err.Error()
	case errors.As(err, &le):
		return le.Op + ": " + le.Err.Error()
	}
	return err.Error()
}

// live is a session of this connection whose CLI still runs, as the index
// titles it through that CLI.
func (x *indexSide) live(ctx context.Context, id string) (*Session, *sessionindex.Live) {
	s, _ := x.host.session(id)
	if s == nil || s.isClosed() {
		return nil, nil
	}
	s.index.mu.Lock()
	stored := s.index.stored
	s.index.mu.Unlock()
	shown := s.titles.shown()
	return s, &sessionindex.Live{Cwd: s.Cwd, Stored: stored, Shown: shown, Rename: func(title string) error {
		err := s.cli().Request(context.WithoutCancel(ctx), claude.RenameSession{Title: title, Source: "host", SessionID: id}, nil)
		if claude.Unsupported(err) {
			return renameUnsupported
		}
		if err == nil {
			s.index.mu.Lock()
			s.index.stored = title
			s.index.mu.Unlock()
		}
		return err
	}}
}

// renameUnsupported refuses the rename of a live session whose CLI has no
// rename_session (contract "Rename"): that CLI holds the title and would
// write it back over the stored records.
var renameUnsupported = &sessionindex.Error{Code: sessionindex.CodeInvalidRequest,
	Message: "Invalid request: the Claude CLI of this session cannot rename it while it runs; close the session, then rename it"}

// titled marks a session titled explicitly, once a title generation in
// flight has finished; the caller unlocks s.titles.gen.
func titled(s *Session) {
	s.titles.gen.Lock()
	s.index.mu.Lock()
	s.index.explicit = true
	s.index.mu.Unlock()
	s.titles.settle()
}

// rename is `_session/rename` (contract: "Rename").
func (x *indexSide) rename(ctx context.Context, req *jsonrpc.Request) (any, error) {
	svc := x.indexed()
	if svc == nil {
		return nil, methodNotFound(req.Method)
	}
	id, title, err := sessionindex.ParseRename(req.Params)
	if err != nil {
		return nil, indexError(err)
	}
	s, live := x.live(ctx, id)
	if s != nil {
		titled(s)
		defer s.titles.gen.Unlock()
	}
	shown, err := svc.Rename(id, title, live)
	if err != nil {
		return nil, indexError(err)
	}
	if s != nil {
		s.titles.renamed(shown)
		s.notify(map[string]any{"sessionUpdate": "session_info_update", "title": shown})
	}
	return map[string]any{}, nil
}

// archiveSession is `_session/archive` and `_session/unarchive` (contract:
// "Archive"): a loaded session is retitled through its CLI; an archive
// also interrupts it first and closes it after.
func (x *indexSide) archiveSession(ctx context.Context, req *jsonrpc.Request, archived bool) (any, error) {
	svc := x.indexed()
	if svc == nil {
		return nil, methodNotFound(req.Method)
	}
	id, err := sessionindex.ParseSessionID(req.Params)
	if err != nil {
		return nil, indexError(err)
	}
	s, live := x.live(ctx, id)
	if s == nil {
		if err := svc.Archive(id, archived, nil, false); err != nil {
			return nil, indexError(err)
		}
		return map[string]any{}, nil
	}
	if archived {
		s.stopTurn(ctx)
	}
	titled(s)
	err = svc.Archive(id, archived, live, s.index.unwritten())
	s.titles.gen.Unlock()
	if err != nil {
		return nil, indexError(err)
	}
	if archived {
		s.stopTurn(ctx) // the close interrupts it once more, as the reference's teardown does
		x.host.closeLoaded(id)
		_ = svc.Archive(id, true, nil, true) // what the closed CLI may have left unarchived
	}
	s.notify(map[string]any{"sessionUpdate": "session_info_update",
		"_meta": map[string]any{"jetbrains": map[string]any{"air": map[string]any{"version": 1, "archived": archived}}}})
	return map[string]any{}, nil
}

// interruptLead is how long an interrupt is given to reach the CLI, and
// maybe be answered, before what follows it is sent.
const interruptLead = 50 * time.Millisecond

// stopTurn cancels the turn under way, as session/cancel does, and sends
// the CLI an interrupt whether or not a turn runs (the reference's
// cancelTurns of an archive and of a teardown). Like the reference it does
// not wait for the answer, which the CLI may give only after what follows;
// it lets the interrupt go out first.
func (s *Session) stopTurn(ctx context.Context) {
	s.tr.toolCallsCancelled()
	if s.cancelActive() {
		s.tr.interruptCompaction()
		s.asks.withdraw()
	}
	answered := make(chan struct{})
	go func() {
		_ = s.cli().Request(context.WithoutCancel(ctx), claude.Interrupt{}, nil)
		close(answered)
	}()
	select {
	case <-answered:
	case <-time.After(interruptLead):
	}
}

// unwritten: a new session of this connection that may have no transcript
// yet (no history, no finished turn).
func (x *indexState) unwritten() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return !x.resumed && x.endedAt.IsZero()
}

// closeLoaded closes a session of this connection as session/close does.
func (a *Agent) closeLoaded(id string) bool {
	a.mu.Lock()
	s := a.sessions[id]
	delete(a.sessions, id)
	a.mu.Unlock()
	if s != nil {
		s.Close()
	}
	return s != nil
}

// subscribe is `_session/list/subscribe` (contract: "List subscription").
func (x *indexSide) subscribe(ctx context.Context, req *jsonrpc.Request) (any, error) {
	svc := x.indexed()
	if svc == nil {
		return nil, methodNotFound(req.Method)
	}
	id, err := svc.Subscribe(req.Params)
	if err != nil {
		return nil, indexError(err)
	}
	return map[string]any{"subscriptionId": id}, nil
}

// unsubscribe is `_session/list/unsubscribe`; idempotent.
func (x *indexSide) unsubscribe(ctx context.Context, req *jsonrpc.Request) (any, error) {
	svc := x.indexed()
	if svc == nil {
		return nil, methodNotFound(req.Method)
	}
	svc.Unsubscribe(req.Params)
	return map[string]any{}, nil
}
