//go:build unix

package cli

import (
	"context"
	"errors"
	"github.com/airwire/airwire/internal/testroot"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/internal/journal"
)

// fifoJournal makes a named pipe that yields a journal header and one entry
// and then stays open, as a journal still being written does: a reader
// blocks on it until it is stopped.
func fifoJournal(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "written.jsonl")
	w, err := journal.Create(file, journal.Header{Airwire: "test", AgentCmd: []string{"agent"}})
	if err != nil {
		t.Fatal(err)
	}
	e := journal.Entry{Kind: journal.KindMsg, Lane: journal.LaneClient, Dir: journal.DirEditor, Proc: "agent", Method: "initialize",
		Msg: []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`)}
	if err := w.Append(&e); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "live.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	opened := make(chan *os.File, 1)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0) // blocks until the reader opens it
		if err != nil {
			opened <- nil
			return
		}
		f.Write(data)
		opened <- f
	}()
	t.Cleanup(func() {
		select {
		case f := <-opened:
			if f != nil {
				f.Close()
			}
		default:
		}
	})
	return fifo
}

// TestMainSignals (issue 11 item 5): SIGINT and SIGTERM stop the verbs that
// read a journal to the end promptly, even while they wait for more input,
// and airwire exits 130 and 143 as a shell reports a process the signal
// ended. It runs the built binary from a directory outside the checkout.
func TestMainSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testroot.Binary(t)
	env := os.Environ()
	if p, err := deps.Paths(); err == nil && p.ACPSchemaDir != "" {
		env = append(env, deps.EnvACPSchemaDir+"="+p.ACPSchemaDir)
	}
	tests := []struct {
		name string
		args []string
		sig  syscall.Signal
		code int
	}{
		{name: "journal cat, Ctrl-C", args: []string{"journal", "cat"}, sig: syscall.SIGINT, code: 130},
		{name: "journal stats, SIGTERM", args: []string{"journal", "stats"}, sig: syscall.SIGTERM, code: 143},
		{name: "validate, Ctrl-C", args: []string{"validate"}, sig: syscall.SIGINT, code: 130},
		{name: "validate, SIGTERM", args: []string{"validate"}, sig: syscall.SIGTERM, code: 143},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bin, append(tt.args, fifoJournal(t))...)
			cmd.Dir = t.TempDir()
			cmd.Env = env
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			time.Sleep(time.Second) // the verb has read what the pipe holds and waits for more
			select {
			case err := <-waited:
				t.Fatalf("ended before the signal: %v\n%s", err, stderr.String())
			default:
			}
			sent := time.Now()
			if err := cmd.Process.Signal(tt.sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-waited:
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				<-waited
				t.Fatalf("still running 5s after %v\n%s", tt.sig, stderr.String())
			}
			if got := cmd.ProcessState.ExitCode(); got != tt.code {
				t.Fatalf("exit %d after %v, want %d\n%s", got, tt.sig, tt.code, stderr.String())
			}
			if d := time.Since(sent); d > 2*time.Second {
				t.Errorf("took %s to stop", d)
			}
		})
	}
}

// TestRunInterrupted: a command that returns because its context ended
// exits with the code of the signal that ended it.
func TestRunInterrupted(t *testing.T) {
	for _, tt := range []struct {
		sig  syscall.Signal
		code ExitCode
	}{{syscall.SIGINT, ExitInterrupted}, {syscall.SIGTERM, ExitTerminated}} {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(&cmdutil.SignalError{Signal: tt.sig})
		var out, errOut strings.Builder
		f := factory.New("test", factory.WithIO(strings.NewReader(""), &out, &errOut))
		if code := Run(ctx, f, []string{"journal", "stats", fifoJournal(t)}); code != tt.code {
			t.Errorf("%v: exit %d, want %d\n%s", tt.sig, code, tt.code, errOut.String())
		}
	}
}

// TestNotifyContext: the first SIGINT or SIGTERM cancels the context with
// the signal as its cause.
func TestNotifyContext(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		ctx, stop := notifyContext(context.Background())
		if err := syscall.Kill(os.Getpid(), sig); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(5 * time.Second):
			t.Fatalf("%v did not cancel the context", sig)
		}
		var se *cmdutil.SignalError
		if !errors.As(context.Cause(ctx), &se) || se.Signal != sig || se.Code() != 128+int(sig) {
			t.Errorf("cause %v, want the signal %v", context.Cause(ctx), sig)
		}
		stop()
	}
}
