package claude

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/airwire/airwire/internal/jsonrpc"
	"github.com/airwire/airwire/internal/procgroup"
	"github.com/airwire/airwire/internal/rawio"
)

// DefaultKillGrace is how long Close waits after SIGTERM (Windows:
// CTRL_BREAK_EVENT) before it kills the CLI's group.
const DefaultKillGrace = 2 * time.Second

// drainGrace is how long the reader may still find lines after the CLI
// exited (a child it left behind may hold its stdout open).
const drainGrace = 500 * time.Millisecond

// ErrClosed is the exit of a CLI that Close ended.
var ErrClosed = errors.New("the Claude CLI was closed")

// Config says how to start one CLI.
type Config struct {
	// Path is the executable (ResolveExecutable); Args and Env come from
	// Args and Env; Dir is the session's cwd.
	Path    string
	Args    []string
	Env     []string
	Dir     string
	Handler Handler
	// Log gets the CLI's stderr lines and unreadable stdout lines; nil
	// discards them. Nothing is ever written to the agent's stdout.
	Log *slog.Logger
	// KillGrace is the wait between SIGTERM and SIGKILL (DefaultKillGrace
	// when zero).
	KillGrace time.Duration
	// Backlog, when set, is told when the CLI's lines start to queue up
	// behind the one being handled (true) and when the queue is empty
	// again (false): jsonrpc.WithBacklog.
	Backlog func(busy bool)
}

// Process is one running Claude CLI: its stream-json control channel (an
// internal/jsonrpc Conn with the StreamJSON codec) and its lifetime.
type Process struct {
	cmd     *exec.Cmd
	group   *procgroup.Group
	conn    *jsonrpc.Conn
	stdin   io.WriteCloser
	handler Handler
	log     *slog.Logger
	grace   time.Duration
	hooks   hookRegistry
	stderr  *tailBuffer

	closing   atomic.Bool
	ready     chan struct{} // closed once conn is set: Handle waits for it
	exited    chan struct{} // closed when the CLI is reaped
	done      chan struct{} // closed after HandleExit returned
	exitErr   error
	closeOnce sync.Once
}

// Start starts the CLI in its own process group that ends with the agent,
// even a killed one (procgroup.WithParentDeath: SIGTERM, and the group is
// killed after the grace where the platform can watch it; on Windows its
// Job Object closes), reads its stdout as stream-json (a line that is not
// JSON is logged and skipped) and logs its stderr. A CLI that kept running
// after its stdin ended would otherwise outlive a killed agent.
func Start(cfg Config) (*Process, error) {
	if cfg.Handler == nil {
		return nil, errors.New("claude: Config.Handler is nil")
	}
	p := &Process{handler: cfg.Handler, log: cfg.Log, grace: cfg.KillGrace, stderr: &tailBuffer{max: stderrTail},
		ready: make(chan struct{}), exited: make(chan struct{}), done: make(chan struct{})}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	if p.grace == 0 {
		p.grace = DefaultKillGrace
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, err
	}
	p.cmd = exec.Command(cfg.Path, cfg.Args...)
	p.cmd.Env, p.cmd.Dir, p.cmd.Stdout, p.cmd.Stderr = cfg.Env, cfg.Dir, outW, errW
	if p.stdin, err = p.cmd.StdinPipe(); err == nil {
		p.group, err = procgroup.Start(p.cmd, procgroup.WithParentDeath(p.grace))
	}
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("start the Claude CLI %s: %w", cfg.Path, err)
	}
	p.log = p.log.With("pid", p.cmd.Process.Pid)
	opts := []jsonrpc.Option{jsonrpc.WithLogf(p.logf)}
	if cfg.Backlog != nil {
		opts = append(opts, jsonrpc.WithBacklog(cfg.Backlog))
	}
	p.conn = jsonrpc.NewConn(context.Background(), rawio.Reader(outR), p.stdin, jsonrpc.StreamJSON{}, p, opts...)
	close(p.ready)
	stderrDone := make(chan struct{})
	go func() { p.stderr.logLines(errR, p.log); close(stderrDone) }()
	go p.wait(outR, errR, stderrDone)
	return p, nil
}

// wait reaps the CLI, lets the reader drain, then reports the exit.
func (p *Process) wait(outR, errR *os.File, stderrDone <-chan struct{}) {
	err := p.cmd.Wait()
	close(p.exited)
	drained := time.After(drainGrace)
	select {
	case <-p.conn.Done():
	case <-drained:
		outR.Close()
		<-p.conn.Done()
	}
	select {
	case <-stderrDone:
	case <-time.After(drainGrace):
		errR.Close()
		<-stderrDone
	}
	outR.Close()
	errR.Close()
	p.group.Release(0) // what the CLI left in its group ends with it
	p.exitErr = p.exitError(err)
	p.handler.HandleExit(p.exitErr)
	close(p.done)
}

// exitError maps how the CLI ended to what HandleExit gets.
func (p *Process) exitError(err error) error {
	if p.closing.Load() {
		return ErrClosed
	}
	st := p.cmd.ProcessState
	if st == nil {
		return err
	}
	end := procgroup.EndingOf(st)
	if end.Signal == "" && end.Code == 0 {
		return nil
	}
	return &ExitError{Code: end.Code, Signal: end.Signal, Stderr: p.stderr.String(), FirstStderr: p.stderr.First()}
}

// logf is the Conn's log: replies to ids this side never sent are the
// CLI's echoes of our control responses (--replay-user-messages).
func (p *Process) logf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if strings.Contains(msg, "reply to unknown id") {
		p.log.Debug(msg)
		return
	}
	p.log.Warn(msg)
}

// Handle implements jsonrpc.Handler: control requests of the CLI and
// every other line, in order.
func (p *Process) Handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	<-p.ready
	if req.IsCall() {
		p.control(ctx, req)
		return nil, jsonrpc.ErrAsyncResponse
	}
	if req.Method == "control_cancel_request" {
		return nil, nil // the Conn has cancelled the request's context
	}
	f, err := DecodeFrame(req.Params) // the codec checked it is JSON and copied it
	if err != nil {
		p.log.Warn("unreadable CLI line", "err", err)
		return nil, nil
	}
	p.handler.HandleMessage(f)
	return nil, nil
}

var _ jsonrpc.Handler = (*Process)(nil)

// control routes one CLI control request; every path ends in a reply,
// except the subtypes the SDK leaves unanswered on purpose.
func (p *Process) control(ctx context.Context, req *jsonrpc.Request) {
	reply := p.reply(req.ID)
	var id string
	_ = json.Unmarshal(req.ID, &id)
	switch {
	case req.Method == "hook_callback":
		var cb HookCallback
		if err := json.Unmarshal(req.Params, &cb); err != nil {
			reply(nil, fmt.Errorf("hook_callback: %w", err))
			return
		}
		f := p.hooks.lookup(cb.CallbackID)
		if f == nil {
			reply(nil, errors.New("No hook callback found for ID: "+cb.CallbackID))
			return
		}
		f(ctx, &cb, reply)
	case handledBody(req.Method) != nil:
		body := handledBody(req.Method)
		if err := json.Unmarshal(req.Params, body); err != nil {
			reply(nil, fmt.Errorf("%s: %w", req.Method, err))
			return
		}
		p.handler.HandleControl(ctx, &IncomingRequest{ID: id, Subtype: req.Method, Body: req.Params, Request: body}, reply)
	case isSilentSubtype(req.Method):
		p.log.Debug("control request left unanswered", "subtype", req.Method)
	default:
		reply(nil, unsupported(req.Method))
	}
}

// reply returns the Reply of the CLI's request id: used once.
func (p *Process) reply(id json.RawMessage) Reply {
	var once sync.Once
	return func(result any, err error) {
		once.Do(func() {
			if errors.Is(err, ErrNoReply) {
				return
			}
			var werr error
			if err != nil {
				werr = &jsonrpc.WireError{Code: jsonrpc.ErrInternal.Code, Message: err.Error()}
			}
			if e := p.conn.Respond(id, result, werr); e != nil {
				p.log.Warn("cannot answer a CLI control request", "err", e)
			}
		})
	}
}

// Initialize sends the initialize request (it must be the first frame),
// numbering init's hooks hook_0, hook_1, … so hook_callback finds them.
// It returns the CLI's response body.
func (p *Process) Initialize(ctx context.Context, init Initialize) (json.RawMessage, error) {
	var res json.RawMessage
	err := p.Request(ctx, init.body(&p.hooks), &res)
	return res, err
}

// Request sends a control request and waits for its response, decoded
// into result (unless nil). An error response is a *ControlError; ctx
// bounds the wait; a CLI that ends first fails it with jsonrpc.ErrClosed.
func (p *Process) Request(ctx context.Context, req ControlRequest, result any) error {
	err := p.conn.Call(ctx, req.Subtype(), req, result)
	var werr *jsonrpc.WireError
	if errors.As(err, &werr) {
		return &ControlError{Subtype: req.Subtype(), Message: werr.Message}
	}
	return err
}

// Begin writes a control request now and returns what waits for its
// response (decoded into result unless nil), as Request does: the request
// keeps its place before every frame written after Begin returns.
func (p *Process) Begin(req ControlRequest) (wait func(ctx context.Context, result any) error, err error) {
	o, err := p.conn.Start(req.Subtype(), req)
	if err != nil {
		return nil, err
	}
	return controlWait(req, o), nil
}

// BeginPaused is Begin for a request whose response is handled in order
// with the CLI's lines and pauses the handling of later lines until resume
// is called (at most jsonrpc.ResumeLimit): what the caller writes in
// between goes out before the answer to any later CLI line, as the SDK's
// continuation of an awaited request runs before its next line is
// handled. Call resume after wait, on every path; never wait from a CLI
// handler.
func (p *Process) BeginPaused(req ControlRequest) (wait func(ctx context.Context, result any) error, resume func(), err error) {
	o, err := p.conn.StartPaused(req.Subtype(), req)
	if err != nil {
		return nil, nil, err
	}
	return controlWait(req, o), o.Resume, nil
}

// controlWait waits for o's response as Request does.
func controlWait(req ControlRequest, o *jsonrpc.Outgoing) func(ctx context.Context, result any) error {
	return func(ctx context.Context, result any) error {
		err := o.Wait(ctx, result)
		var werr *jsonrpc.WireError
		if errors.As(err, &werr) {
			return &ControlError{Subtype: req.Subtype(), Message: werr.Message}
		}
		return err
	}
}

// Post writes a control request now and does not wait for its response
// (read and dropped when it comes): it keeps its place before every frame
// written after it, so a request that must reach the CLI first need not
// hold up the ones that follow.
func (p *Process) Post(req ControlRequest) error {
	o, err := p.conn.Start(req.Subtype(), req)
	if err != nil {
		return err
	}
	go func() { _ = o.Wait(context.Background(), nil) }()
	return nil
}

// Send writes a user message to the CLI.
func (p *Process) Send(u UserInput) error {
	if u.Type == "" {
		u.Type = "user"
	}
	return p.conn.Notify("user", u)
}

// Close ends the CLI: stdin closed, SIGTERM to its process group
// (Windows: CTRL_BREAK_EVENT), and after the grace whatever of the group
// is left (the CLI, or children that ignore SIGTERM) is killed; it returns
// once the CLI is reaped and HandleExit has run. It is safe to call more
// than once.
func (p *Process) Close() error {
	p.closeOnce.Do(func() {
		p.closing.Store(true)
		_ = p.stdin.Close()
		p.group.Stop(p.exited, p.grace)
	})
	<-p.done
	return nil
}

// Done is closed once the CLI has ended, been reaped, and HandleExit has
// returned.
func (p *Process) Done() <-chan struct{} { return p.done }

// Err is how the CLI ended (what HandleExit got); valid once Done is closed.
func (p *Process) Err() error { return p.exitErr }

// Pid is the CLI's process id (and, on Unix, its process group id).
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// ControlError is the CLI's error response to a control request.
type ControlError struct {
	Subtype string
	Message string
}

// Unsupported reports whether err is the CLI's answer to a control request
// it does not know ("Unsupported control request subtype: …").
func Unsupported(err error) bool {
	var ce *ControlError
	return errors.As(err, &ce) && strings.HasPrefix(ce.Message, "Unsupported control request subtype")
}

func (e *ControlError) Error() string {
	return fmt.Sprintf("Claude Code control request %s failed: %s", e.Subtype, e.Message)
}

// ExitError is a CLI that exited with a non-zero code or a signal.
type ExitError struct {
	// Code is the exit code (-1 when killed by a signal).
	Code   int
	Signal string
	// Stderr is the tail of what the CLI wrote on stderr.
	Stderr string
	// FirstStderr is the first line it wrote there that is not blank.
	FirstStderr string
}

// Error is the SDK's wording ("Claude Code process exited with code 1",
// "… terminated by signal SIGKILL"), with the stderr tail.
func (e *ExitError) Error() string {
	s := fmt.Sprintf("Claude Code process exited with code %d", e.Code)
	if e.Signal != "" {
		s = "Claude Code process terminated by signal " + e.Signal
	}
	if t := strings.TrimSpace(e.Stderr); t != "" {
		s += ". stderr: " + t
	}
	return s
}
