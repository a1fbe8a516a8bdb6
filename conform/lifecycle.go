package conform

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/airwire/airwire/internal/procgroup"
)

// The end of a run. A run's context deadline (`airwire conform
// --run-timeout`) is a hard cap that includes ending the agent: the steps
// stop CleanupShare of the remaining time (at most MaxCleanup) before it,
// and the exit wait, SIGTERM and SIGKILL share what is left.
const (
	// MaxCleanup bounds the time kept after the steps for ending the agent.
	MaxCleanup = 3 * time.Second
	// CleanupShare is the part of a run's time limit kept for cleanup when
	// that is less than MaxCleanup.
	CleanupShare = 4
	// FailedExitTimeout replaces ExitTimeout after a run already failed:
	// its transcript is not compared, so a slow exit only costs time.
	FailedExitTimeout = 2 * time.Second
	// TermTimeout is how long the agent's process group may take to exit
	// after SIGTERM before it is sent SIGKILL.
	TermTimeout = 5 * time.Second
	// killMargin is kept before the deadline for SIGKILL and reaping.
	killMargin = 100 * time.Millisecond
)

// stepContext is ctx with the cleanup time taken off its deadline.
func stepContext(ctx context.Context) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	reserve := min(MaxCleanup, time.Until(dl)/CleanupShare)
	return context.WithDeadline(ctx, dl.Add(-reserve))
}

// ending is how the agent's process ended.
type ending struct {
	err error
	// signal is the signal the driver had to send ("" when the agent
	// exited by itself after stdin EOF).
	signal string
	state  *os.ProcessState
}

// describe says how the agent (behind the recorder, which exits with the
// agent's status) ended, for a RunError.
func (e ending) describe() string {
	switch {
	case e.state == nil:
		return ""
	case e.signal != "":
		return fmt.Sprintf("it did not exit after stdin EOF; the client sent %s (%s)", e.signal, e.state)
	}
	return e.state.String()
}

// stop ends the agent after the driver closed its stdin: it waits for the
// process to exit, then sends SIGTERM to its process group (Windows:
// CTRL_BREAK_EVENT), then kills the group. Every wait ends before ctx's
// deadline; a run that already failed waits at most FailedExitTimeout for
// the exit. The group is released on return.
func (d *driver) stop(ctx context.Context, g *procgroup.Group, cmd *exec.Cmd, waited <-chan error, failed bool) ending {
	defer g.Release(0)
	grace, term := d.o.ExitTimeout, TermTimeout
	if failed {
		grace = min(grace, FailedExitTimeout)
	}
	if dl, ok := ctx.Deadline(); ok {
		left := max(time.Until(dl)-killMargin, 0)
		term = min(term, left/2)
		grace = min(grace, left-term)
	}
	if ctx.Err() != nil {
		grace = 0
	}
	select {
	case err := <-waited:
		return ending{err: err, state: cmd.ProcessState}
	case <-time.After(grace):
	}
	_ = g.Terminate()
	select {
	case err := <-waited:
		return ending{err: err, signal: "SIGTERM", state: cmd.ProcessState}
	case <-time.After(term):
	}
	agents := recorderAgents(cmd.Process.Pid)
	_ = g.Kill()
	killAgents(agents)
	err := <-waited
	return ending{err: err, signal: "SIGKILL", state: cmd.ProcessState}
}
