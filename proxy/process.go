package proxy

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/internal/procgroup"
)

// forwardedSignals are passed on to the child unchanged (on Windows, where
// only Ctrl-C and the console's close arrive, as Terminate).
var forwardedSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// forwardSignals relays the signals this process receives to g's leader
// (on Windows: Terminate, CTRL_BREAK_EVENT to its group) until stop is
// closed.
func forwardSignals(g *procgroup.Group, stop <-chan struct{}) {
	ch := make(chan os.Signal, 8)
	signal.Notify(ch, forwardedSignals...)
	go func() {
		defer signal.Stop(ch)
		for {
			select {
			case sig := <-ch:
				_ = g.Signal(sig)
			case <-stop:
				return
			}
		}
	}()
}

// catchSIGPIPE makes writes to a closed stdout or stderr fail with EPIPE
// instead of killing this process (Go's default for fds 1 and 2), so the
// recorder and the shim outlive a peer that went away and still journal,
// wait for and reap their child. A caught signal (unlike an ignored one) is
// reset to its default in children at exec.
func catchSIGPIPE() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGPIPE)
	go func() {
		for range ch {
		}
	}()
}

// agentDeathGrace is how long the portable watchdog lets the recorded
// agent (or the shim's CLI) wind down after SIGTERM once this process died,
// before it kills the group.
const agentDeathGrace = time.Second

// startChild starts cmd in a process group of its own, so a terminal's
// Ctrl-C reaches it once, through us, and ties its life to ours: if we die,
// even by SIGKILL, it gets SIGTERM (see procgroup.WithParentDeath).
func startChild(cmd *exec.Cmd) (*procgroup.Group, error) {
	return procgroup.Start(cmd, procgroup.WithParentDeath(agentDeathGrace))
}

// exitOf describes how cmd ended, and the code a shell would report.
func exitOf(state *os.ProcessState, waitErr error) (journal.Exit, int) {
	if state == nil {
		var ee *exec.Error
		if errors.As(waitErr, &ee) {
			return journal.Exit{Code: 127}, 127
		}
		return journal.Exit{Code: 1}, 1
	}
	end := procgroup.EndingOf(state)
	return journal.Exit{Code: end.Code, Signal: end.Signal}, end.ShellCode
}

// endOutput passes the end of the agent's stdout on to the editor: w is
// closed. On Unix a standard stream (fd 0-2) is replaced by /dev/null
// instead, so its descriptor number is never reused by a file or socket
// opened later.
func endOutput(w io.Writer) {
	if f, ok := w.(*os.File); ok && f.Fd() <= 2 {
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err == nil {
			err = replaceFd(null, f)
			null.Close()
		}
		if err == nil {
			return
		}
	}
	if c, ok := w.(io.Closer); ok {
		_ = c.Close()
	}
}
