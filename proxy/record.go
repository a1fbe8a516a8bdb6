package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/airwire/airwire/internal/envlist"
	"github.com/airwire/airwire/internal/execwrap"
	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/internal/procgroup"
	"github.com/airwire/airwire/proxy/redact"
)

// RecordOptions are the inputs of Record.
type RecordOptions struct {
	// Argv is the agent command.
	Argv []string
	// Env is the agent's environment (KEY=VALUE).
	Env []string
	// Editor side: what the editor writes, and where the agent's output goes.
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Journal is the path of the journal file to create. When it exists as
	// a regular file, the first free name next to it is taken
	// (journal.CreateFresh); anything else that exists is refused.
	Journal string
	// Created, if set, is called with the journal's path once it is
	// created, and whether that is not Journal (it existed).
	Created func(path string, fresh bool)
	// CLILane records agent ↔ Claude CLI traffic through the shim.
	CLILane bool
	// ShimArgv runs airwire's CLI shim: the airwire binary and its hidden
	// subcommand. Needed with CLILane.
	ShimArgv []string
	// ModelLane also records CLI ↔ model API traffic through a loopback
	// reverse proxy (ModelProxy) that each CLI reaches through the shim's
	// ANTHROPIC_BASE_URL. Needs CLILane. The upstream is Env's
	// ANTHROPIC_BASE_URL, else DefaultModelUpstream.
	ModelLane bool
	// Redact replaces secrets before anything is written (default on in the command).
	Redact bool
	// Version is written in the journal header.
	Version string
	// DrainTimeout bounds the wait for the agent's stdout and stderr to end
	// after the agent exited (a grandchild may hold them open).
	DrainTimeout time.Duration
	// CLIGrace bounds the wait, after the agent exited, for CLIs still
	// running to exit by themselves; then they are killed (default 5 s).
	CLIGrace time.Duration
}

// RecordResult says how the recorded agent ended.
type RecordResult struct {
	Code    int // the exit code a shell would report (128+n for signal n)
	Exit    journal.Exit
	Entries uint64
	// JournalErr is the write error that cut the journal short (a full
	// disk). It was reported on Stderr when it happened; the agent ran on
	// and the editor's streams were not affected, so Code stays the agent's.
	JournalErr error
}

// StartError is Record's error when the agent cannot be started. Code is
// what a shell reports: 127 when the command is not found, 126 when it is
// found but cannot be executed.
type StartError struct {
	Code int
	Err  error
}

func (e *StartError) Error() string { return "cannot start the agent: " + e.Err.Error() }

func (e *StartError) Unwrap() error { return e.Err }

// startCode is the shell's exit code for a command that did not start.
func startCode(err error) int {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, exec.ErrNotFound) {
		return 127
	}
	return 126
}

// Record runs the agent between the editor's streams and the journal, byte
// for byte, until the agent exits. Signals are forwarded; the child is
// always reaped before Record returns. ctx does not stop the agent: like the
// agent itself, airwire record ends when the agent ends, and SIGINT/SIGTERM
// reach the agent as signals.
func Record(ctx context.Context, opts RecordOptions) (RecordResult, error) {
	if len(opts.Argv) == 0 {
		return RecordResult{}, fmt.Errorf("no agent command")
	}
	if opts.ModelLane && !opts.CLILane {
		return RecordResult{}, fmt.Errorf("the model lane needs the CLI lane: its CLIs reach the proxy through the CLI shim")
	}
	catchSIGPIPE()
	becomeSubreaper()
	if opts.CLIGrace == 0 {
		opts.CLIGrace = 5 * time.Second
	}
	if opts.DrainTimeout == 0 {
		opts.DrainTimeout = 2 * time.Second
	}
	env := append([]string(nil), opts.Env...)
	var red *redact.Redactor
	if opts.Redact {
		red = redact.New(redact.WithEnv(env))
	}
	var jerr error // set by the writer's goroutines, read after Close
	var jmu sync.Mutex
	w, err := openJournal(opts, env, red, func(err error) {
		jmu.Lock()
		jerr = err
		jmu.Unlock()
		fmt.Fprintf(opts.Stderr, "airwire record: cannot write the journal (%v); the agent runs on and the editor's streams are passed on, unrecorded\n", err)
	})
	if err != nil {
		return RecordResult{}, err
	}
	rec := NewRecorder(w, WithRedactor(red))

	shim, model, env, err := startLanes(rec, opts, env)
	if err != nil {
		rec.Close()
		w.Close()
		return RecordResult{}, err
	}

	res, agent, runErr := runAgent(rec, opts, env)
	if shim != nil {
		shim.Close(opts.CLIGrace)
	}
	if model != nil {
		model.Close() // after the CLIs: nothing is left to send requests
	}
	reapOrphans(agent, time.Second)
	rec.Close()
	res.Entries = w.Seq()
	cerr := w.Close()
	jmu.Lock()
	res.JournalErr = jerr
	jmu.Unlock()
	if runErr == nil && cerr != nil && res.JournalErr == nil {
		runErr = cerr
	}
	return res, runErr
}

// openJournal creates the journal with its header; onErr reports a write
// that fails later.
func openJournal(opts RecordOptions, env []string, red *redact.Redactor, onErr func(error)) (*journal.Writer, error) {
	hdr := journal.Header{Airwire: opts.Version, AgentCmd: opts.Argv, Env: envNames(env), Redaction: "off"}
	if red != nil {
		hdr.Redaction = "on"
		hdr.AgentCmd, _ = red.Argv(opts.Argv)
	}
	w, path, err := journal.CreateFresh(opts.Journal, hdr, journal.WithOnError(onErr))
	if err != nil {
		return nil, fmt.Errorf("cannot create the journal: %w", err)
	}
	if opts.Created != nil {
		opts.Created(path, path != opts.Journal)
	}
	return w, nil
}

// startLanes starts the CLI shim's listener and the model-lane proxy, as
// asked, and returns the agent's environment with the shim installed.
func startLanes(rec *Recorder, opts RecordOptions, env []string) (*ShimListener, *ModelProxy, []string, error) {
	if !opts.CLILane {
		return nil, nil, env, nil
	}
	var model *ModelProxy
	if opts.ModelLane {
		upstream, _ := envlist.Lookup(env, EnvAnthropicBaseURL)
		if upstream == "" {
			upstream = DefaultModelUpstream
		}
		var err error
		if model, err = ListenModel(rec, upstream); err != nil {
			return nil, nil, nil, fmt.Errorf("--model-lane: %w", err)
		}
	}
	shim, err := ListenShim(rec)
	if err == nil {
		env, err = shimEnv(shim, env, opts.ShimArgv)
	}
	if err == nil && model != nil {
		env = append(env, EnvModelProxy+"="+model.URL())
	}
	if err != nil {
		if shim != nil {
			shim.Close(0)
		}
		if model != nil {
			model.Close()
		}
		return nil, nil, nil, fmt.Errorf("--cli-lane: %w", err)
	}
	return shim, model, env, nil
}

// shimEnv installs the CLI shim: a stand-in in the shim's private
// directory that runs airwire's shim subcommand (execwrap), named by
// CLAUDE_CODE_EXECUTABLE (adapters exec that path directly with CLI args).
func shimEnv(shim *ShimListener, env []string, shimArgv []string) ([]string, error) {
	if len(shimArgv) == 0 {
		return nil, fmt.Errorf("no shim command")
	}
	orig, _ := envlist.Lookup(env, EnvClaudeExecutable)
	real := orig
	if real == "" {
		real, _ = searchCLI(env) // "": the shim searches again, and says why
	}
	script := filepath.Join(shim.Dir(), execwrap.Name("claude"))
	if err := execwrap.Write(script, shimArgv...); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(env)+4)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if k == EnvClaudeExecutable || k == EnvShimSocket || k == EnvShimToken || k == EnvRealCLI || k == EnvOrigExecutable || k == EnvModelProxy {
			continue
		}
		out = append(out, kv)
	}
	if shim.Token() != "" {
		out = append(out, EnvShimToken+"="+shim.Token())
	}
	return append(out,
		EnvClaudeExecutable+"="+script,
		EnvShimSocket+"="+shim.Path(),
		EnvRealCLI+"="+real,
		EnvOrigExecutable+"="+orig,
	), nil
}

func envNames(env []string) []string {
	names := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// runAgent runs the agent to its exit; its group, returned, may still hold
// processes it started.
func runAgent(rec *Recorder, opts RecordOptions, env []string) (RecordResult, *procgroup.Group, error) {
	cmd := exec.Command(opts.Argv[0], opts.Argv[1:]...)
	cmd.Env = env
	agentIn, err := cmd.StdinPipe()
	if err != nil {
		return RecordResult{}, nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return RecordResult{}, nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return RecordResult{}, nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	client := rec.NewConn(journal.LaneClient, "agent", journal.DirEditor, journal.DirAgent)
	stderr := rec.NewStderr(journal.LaneClient, "agent")
	group, err := startChild(cmd)
	if err != nil {
		outR.Close()
		errR.Close()
		outW.Close()
		errW.Close()
		x := journal.Exit{Code: startCode(err)}
		rec.Event(journal.Entry{Kind: journal.KindExit, Lane: journal.LaneClient, Proc: "agent", Exit: &x, Argv: opts.Argv})
		return RecordResult{Code: x.Code, Exit: x}, nil, &StartError{Code: x.Code, Err: err}
	}
	outW.Close()
	errW.Close()
	rec.Event(journal.Entry{Kind: journal.KindSpawn, Lane: journal.LaneClient, Proc: "agent", Argv: opts.Argv, Pid: cmd.Process.Pid})
	stop := make(chan struct{})
	forwardSignals(group, stop)

	var drained sync.WaitGroup
	drained.Add(2)
	go func() {
		defer drained.Done()
		Pump(opts.Stdout, outR, client.Down, func(err error) {
			rec.Note(journal.LaneClient, "agent", "the editor stopped reading the agent's output: "+err.Error())
		})
		endOutput(opts.Stdout) // the agent closed its stdout: the editor sees EOF now
	}()
	go func() {
		defer drained.Done()
		Pump(opts.Stderr, errR, stderr, nil)
	}()
	inDone := make(chan struct{})
	go func() {
		defer close(inDone)
		Pump(agentIn, opts.Stdin, client.Up, nil)
		agentIn.Close() // the editor closed its end: forward EOF
	}()

	state, werr := cmd.Process.Wait()
	close(stop)
	drainAfterExit(rec, opts.DrainTimeout, &drained, outR, errR)
	agentIn.Close()
	// What the editor wrote before the exit is already queued; a reader
	// blocked on the editor's stdin is left behind (it ends with the process).
	select {
	case <-inDone:
	case <-time.After(50 * time.Millisecond):
	}
	x, code := exitOf(state, werr)
	rec.Event(journal.Entry{Kind: journal.KindExit, Lane: journal.LaneClient, Proc: "agent", Exit: &x, Pid: cmd.Process.Pid})
	return RecordResult{Code: code, Exit: x}, group, nil
}

// drainAfterExit waits, once the agent is gone, for the pumps of its output
// pipes to end, which they do when the pipes' last holder exits. A child
// still holding them gets timeout; then the pipes are closed.
func drainAfterExit(rec *Recorder, timeout time.Duration, drained *sync.WaitGroup, pipes ...*os.File) {
	done := make(chan struct{})
	go func() { drained.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(timeout):
		rec.Note(journal.LaneClient, "agent", "the agent's output stayed open after it exited (held by a child process); stopped reading")
		for _, p := range pipes {
			p.Close()
		}
		<-done
	}
}
