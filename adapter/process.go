package adapter

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/airwire/airwire/internal/jsonrpc"
)

// killGrace is how long a CLI gets after SIGTERM before SIGKILL.
const killGrace = 2 * time.Second

// process is one running Claude CLI: its control channel and its exit.
type process struct {
	cmd    *exec.Cmd
	conn   *jsonrpc.Conn
	stdin  io.WriteCloser
	exited chan struct{} // closed once the process is reaped
	err    error         // how it ended, valid after exited

	closeOnce sync.Once
}

// spawnSpec is what starting a CLI needs.
type spawnSpec struct {
	Path string
	Args []string
	Env  []string
	Dir  string
	// Handler gets the CLI's control requests and every other line.
	Handler jsonrpc.Handler
	Log     *slog.Logger
}

// startProcess starts the CLI in its own process group, its stdout read by
// a stream-json Conn, its stderr logged line by line (never on our stdout).
func startProcess(s spawnSpec) (*process, error) {
	cmd := exec.Command(s.Path, s.Args...)
	cmd.Env, cmd.Dir = s.Env, s.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the Claude CLI: %w", err)
	}
	p := &process{cmd: cmd, stdin: stdin, exited: make(chan struct{})}
	logf := func(f string, a ...any) { s.Log.Warn(fmt.Sprintf(f, a...), "pid", cmd.Process.Pid) }
	p.conn = jsonrpc.NewConn(context.Background(), stdout, stdin, jsonrpc.StreamJSON{}, s.Handler, jsonrpc.WithLogf(logf))
	go logLines(stderr, s.Log.With("pid", cmd.Process.Pid, "stream", "cli-stderr"))
	go func() {
		<-p.conn.Done()
		p.err = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func logLines(r io.Reader, log *slog.Logger) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		log.Info(sc.Text())
	}
}

// Close ends the CLI: stdin closed, SIGTERM to its group, SIGKILL after
// killGrace, and waits until it is reaped.
func (p *process) Close() {
	p.closeOnce.Do(func() {
		_ = p.stdin.Close()
		pgid := -p.cmd.Process.Pid
		_ = syscall.Kill(pgid, syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(killGrace):
			_ = syscall.Kill(pgid, syscall.SIGKILL)
		}
	})
	<-p.exited
}

// Exited is closed once the CLI has ended and been reaped.
func (p *process) Exited() <-chan struct{} { return p.exited }

// ExitErr says how the CLI ended; valid once Exited is closed.
func (p *process) ExitErr() error { return p.err }

// errNotRunning fails requests to a CLI that has ended.
var errNotRunning = errors.New("the Claude CLI is not running")
