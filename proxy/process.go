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
	"github.com/airwire/airwire/internal/proctree"
)

// forwardedSignals are passed on to the child unchanged.
var forwardedSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// forwardSignals relays the signals this process receives to p until stop
// is closed.
func forwardSignals(p *os.Process, stop <-chan struct{}) {
	ch := make(chan os.Signal, 8)
	signal.Notify(ch, forwardedSignals...)
	go func() {
		defer signal.Stop(ch)
		for {
			select {
			case sig := <-ch:
				_ = p.Signal(sig)
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

// childAttr puts a child in its own process group (so a terminal's Ctrl-C
// reaches it once, through us) and has the kernel send SIGTERM to it if we die.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
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
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		sig := ws.Signal()
		return journal.Exit{Code: -1, Signal: signalName(sig)}, 128 + int(sig)
	}
	return journal.Exit{Code: state.ExitCode()}, state.ExitCode()
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGABRT:
		return "SIGABRT"
	case syscall.SIGPIPE:
		return "SIGPIPE"
	}
	return s.String()
}

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER from <linux/prctl.h>.
const prSetChildSubreaper = 36

// becomeSubreaper makes this process adopt every orphaned descendant (a CLI
// whose agent exited first, a shim whose parent died), so none of them is
// left to an init that may never reap it. Best effort: not fatal on error.
func becomeSubreaper() {
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
}

// reapOrphans waits up to grace for adopted descendants to exit, then kills
// the rest, and reaps them all. Call it only once every child this process
// started itself has been waited for.
func reapOrphans(grace time.Duration) {
	deadline := time.Now().Add(grace)
	killed := false
	for {
		for {
			pid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
		kids := proctree.Children(os.Getpid())
		if len(kids) == 0 {
			return
		}
		if !killed && time.Now().After(deadline) {
			for _, pid := range kids {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			killed = true
			deadline = time.Now().Add(2 * time.Second)
		} else if killed && time.Now().After(deadline) {
			return // unkillable (D state): give up rather than hang
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// endOutput passes the end of the agent's stdout on to the editor: w is
// closed. A standard stream (fd 0-2) is replaced by /dev/null instead, so
// its descriptor number is never reused by a file or socket opened later.
func endOutput(w io.Writer) {
	if f, ok := w.(*os.File); ok && f.Fd() <= 2 {
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err == nil {
			err = syscall.Dup3(int(null.Fd()), int(f.Fd()), 0)
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
