package procgroup

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
)

// The names Node reports for the signals a process can end by, by number.
// Arrays, not maps: static data rather than init code at every start.
var (
	// linuxSignals are Linux's numbers (the same on amd64 and arm64).
	linuxSignals = [...]string{1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT",
		7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE",
		14: "SIGALRM", 15: "SIGTERM"}
	// darwinSignals are macOS's (BSD) numbers.
	darwinSignals = [...]string{1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT",
		8: "SIGFPE", 9: "SIGKILL", 10: "SIGBUS", 11: "SIGSEGV", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
		30: "SIGUSR1", 31: "SIGUSR2"}
	// windowsSignals are the numbers Go gives the signals it maps console
	// events to (Ctrl-C is SIGINT; close, logoff and shutdown are SIGTERM)
	// and those os.Process.Signal accepts. A Windows process never ends
	// by a signal; there is no SIGUSR1 or SIGUSR2.
	windowsSignals = [...]string{1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT",
		7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM"}
)

// SignalName is the SIGXXX name of s on this platform; "signal N" for a
// number without one.
func SignalName(s syscall.Signal) string { return signalName(runtime.GOOS, int(s)) }

// signalName is the name of signal n on goos.
func signalName(goos string, n int) string {
	var names []string
	switch goos {
	case "darwin", "freebsd", "netbsd", "openbsd", "dragonfly":
		names = darwinSignals[:]
	case "windows":
		names = windowsSignals[:]
	default:
		names = linuxSignals[:]
	}
	if n > 0 && n < len(names) && names[n] != "" {
		return names[n]
	}
	return fmt.Sprintf("signal %d", n)
}

// Ending is how a process ended, as Node and a shell report it.
type Ending struct {
	// Code is the exit code; -1 when a signal ended the process.
	Code int
	// Signal is the name of the signal that ended it ("" for an exit).
	Signal string
	// ShellCode is what a shell reports: the exit code, or 128 + the
	// signal's number.
	ShellCode int
}

// EndingOf says how a waited-for process ended. On Windows it is always
// an exit code: a process killed by TerminateJobObject or TerminateProcess
// exits with the code it was given.
func EndingOf(state *os.ProcessState) Ending {
	ws, _ := state.Sys().(syscall.WaitStatus)
	return ending(runtime.GOOS, state.ExitCode(), ws.Signaled(), int(ws.Signal()))
}

// ending is EndingOf's mapping, for goos's signal numbers.
func ending(goos string, code int, signaled bool, sig int) Ending {
	if !signaled {
		return Ending{Code: code, ShellCode: code}
	}
	return Ending{Code: -1, Signal: signalName(goos, sig), ShellCode: 128 + sig}
}
