package proxy

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/airwire/airwire/internal/journal"
)

func deadlineSoon() time.Time { return time.Now().Add(2 * time.Second) }

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
