package adapter

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/airwire/airwire/adapter/acpv2"
	"github.com/airwire/airwire/adapter/agentinfo"
	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/providers"
	"github.com/airwire/airwire/internal/jsonrpc"
)

// Options configure an Agent.
type Options struct {
	// ClaudePath is the CLI executable (--claude-path); empty resolves it
	// from CLAUDE_CODE_EXECUTABLE, then `claude` on PATH.
	ClaudePath string
	// Argv is the agent's own command line (argv[0] and what follows), for
	// the terminal login methods that tell the editor what to launch.
	Argv []string
	// Version is the agent version reported in agentInfo.
	Version string
	// Getenv reads the agent's environment (os.Getenv in production).
	Getenv func(string) string
	// Environ is the agent's environment handed to each CLI (os.Environ()).
	Environ []string
	// Protocols are the ACP versions served (AIRWIRE_ACP_PROTOCOL; empty
	// is acpv2.Auto).
	Protocols acpv2.Protocols
	Log       *slog.Logger
}

// Agent serves one editor connection.
type Agent struct {
	opts  Options
	conn  *jsonrpc.Conn
	ready chan struct{} // closed once conn is set

	mu         sync.Mutex
	client     caps.Client
	v2         atomic.Pointer[v2Conn] // the ACP v2 surface; nil on a v1 connection (acp_v2.go)
	sessions   map[string]*Session
	authStatus *agentinfo.AuthStatus // last pushed
	index      indexSide             // the session index of an AIR client (session_index.go)
	windows    contextWindows        // windows results confirmed (start.go)
	versions   cliVersions           // the versions the CLIs reported (cli_version.go)
	routing    providers.Router      // the model provider (methods.go)

	authProbing sync.Mutex  // held while an auth status probe runs
	authCtx     authContext // the session the next probe reads (initialize.go)
	// authAgain asks the probe under way to run once more, in the new
	// context; authEpoch counts context changes, and a probe that saw one
	// while it ran keeps its answer to itself.
	authAgain atomic.Bool
	authEpoch atomic.Uint64

	// bg bounds the agent's background work (auth probes); Serve cancels
	// it and waits for it before it returns.
	bg       context.Context
	bgCancel context.CancelFunc
	bgWork   sync.WaitGroup
}

// NewAgent returns an Agent; Serve runs it.
func NewAgent(o Options) *Agent {
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	a := &Agent{opts: o, sessions: map[string]*Session{}, ready: make(chan struct{})}
	a.index.host = a
	a.routing.Log = o.Log
	a.bg, a.bgCancel = context.WithCancel(context.Background())
	return a
}

// Serve speaks ACP on r/w until the editor closes its side or ctx ends,
// then ends every session (each CLI is reaped before Serve returns).
func (a *Agent) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	a.conn = jsonrpc.NewConn(ctx, r, w, jsonrpc.JSONRPC{}, a,
		jsonrpc.WithLogf(func(f string, args ...any) { a.opts.Log.Warn("editor frame", "detail", sprintf(f, args...)) }),
		jsonrpc.WithPreview(closeRead(a)))
	close(a.ready)
	select {
	case <-a.conn.Done():
	case <-ctx.Done():
	}
	a.bgCancel()
	a.closeAll()
	a.index.close()
	a.bgWork.Wait()
	return a.conn.Err()
}

// holdEditor is a CLI's backlog hook (claude.Config.Backlog): while a
// session's CLI lines queue up, the editor frames made of them are held
// and go out together (jsonrpc.Conn.Hold): fewer writes for a fast text
// stream, the same bytes in the same order.
func holdEditor(a *Agent) func(busy bool) {
	return func(busy bool) {
		switch {
		case a.conn == nil:
		case busy:
			a.conn.Hold()
		default:
			a.conn.Release()
		}
	}
}

func (a *Agent) closeAll() {
	a.mu.Lock()
	sessions := make([]*Session, 0, len(a.sessions))
	for id, s := range a.sessions {
		sessions = append(sessions, s)
		delete(a.sessions, id)
	}
	a.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range sessions {
		wg.Add(1)
		go func() { defer wg.Done(); shutdownSession(s) }()
	}
	wg.Wait()
}

// method is one ACP method of the agent.
type method func(a *Agent, ctx context.Context, req *jsonrpc.Request) (any, error)

// methodFor is the ACP method table; a method it does not know (nil) is
// answered with -32601 (notifications are dropped). A switch, not a
// package-level map: a map literal is built by init code that runs, and
// maps its page of the binary, at every start of every airwire verb.
func methodFor(name string) method {
	switch name {
	case "initialize":
		return (*Agent).initialize
	case "authenticate":
		return (*Agent).authenticate
	case "logout":
		return (*Agent).logout
	case "session/new":
		return (*Agent).newSession
	case "session/prompt":
		return (*Agent).prompt
	case "session/cancel":
		return (*Agent).cancel
	case "session/close":
		return (*Agent).closeSession
	case "session/load":
		return (*Agent).loadSession
	case "session/resume":
		return (*Agent).resumeSession
	case "session/fork":
		return (*Agent).forkSession
	case "session/list":
		return (*Agent).listSessions
	case "session/delete":
		return (*Agent).deleteSession
	case "session/set_mode":
		return (*Agent).setMode
	case "session/set_config_option":
		return (*Agent).setConfigOption
	case goalControlMethod:
		return (*Agent).goal
	case asyncTaskStopMethod:
		return (*Agent).stopAsyncTask
	}
	if m := providerMethod(name); m != nil {
		return m
	}
	return sessionIndexMethod(name)
}

// Handle implements jsonrpc.Handler.
func (a *Agent) Handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	<-a.ready
	// A provider change restarting the sessions' CLIs holds the gate.
	a.routing.RLock()
	defer a.routing.RUnlock()
	if v2 := a.v2.Load(); v2 != nil {
		if m := v2MethodFor(req.Method); m != nil {
			return m(v2, ctx, req)
		}
	} else if m := methodFor(req.Method); m != nil {
		return m(a, ctx, req)
	}
	if !req.IsCall() {
		return nil, nil
	}
	return nil, methodNotFound(req.Method)
}

// methodNotFound is the ACP SDK's -32601: `"Method not found": <method>`
// with the method in data.
func methodNotFound(name string) *jsonrpc.WireError {
	data, _ := json.Marshal(map[string]string{"method": name})
	return &jsonrpc.WireError{Code: jsonrpc.ErrMethodNotFound.Code, Message: `"Method not found": ` + name, Data: data}
}

// invalidParams is the SDK's -32602 for params that do not decode.
func invalidParams(detail string) *jsonrpc.WireError {
	msg := "Invalid params"
	if detail != "" {
		msg += ": " + detail
	}
	return &jsonrpc.WireError{Code: jsonrpc.ErrInvalidParams.Code, Message: msg}
}

// sessionNotFound is the SDK's error for an unknown session id.
func sessionNotFound(id string) *jsonrpc.WireError {
	data, _ := json.Marshal(map[string]string{"sessionId": id})
	return &jsonrpc.WireError{Code: -32002, Message: "Resource not found", Data: data}
}

func (a *Agent) session(id string) (*Session, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.sessions[id]
	if !ok {
		return nil, sessionNotFound(id)
	}
	return s, nil
}

// editor is the connection to the editor.
func (a *Agent) editor() *jsonrpc.Conn { return a.conn }

func (a *Agent) clientCaps() caps.Client {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.client
}

// decode reads params into v, answering -32602 when they do not fit.
func decode(req *jsonrpc.Request, v any) error {
	if len(req.Params) == 0 {
		return invalidParams("missing params")
	}
	if err := json.Unmarshal(req.Params, v); err != nil {
		return invalidParams("")
	}
	return nil
}
