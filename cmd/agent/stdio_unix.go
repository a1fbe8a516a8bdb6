//go:build unix

package agent

import (
	"os"

	"golang.org/x/sys/unix"
)

// pollableFile is f as a file the Go runtime's poller waits on, when f is
// a pipe or a socket (how editors start an agent), with a func that puts
// the descriptor back in blocking mode; ok is false, and f is left as it
// is, for any other file. A terminal's or a regular file's mode is shared
// with the shell that runs airwire.
//
// Why: os.Stdin reads in a blocking read(2), and the agent runs on one P
// (agentRun). A goroutine blocked in a system call keeps that P until the
// runtime's monitor takes it back, which after a quiet spell takes up to
// 10 ms. So the goroutine handling a request the reader has just passed on
// waited that long while the reader went back to read(2): the second of
// two quick session/list requests took 15 ms instead of 1.5
// (conform/agentbench, BenchmarkAgentSessionList). A non-blocking
// descriptor parks the reader instead, and the P is free at once. Standard
// output is switched too, so that it can be written with internal/rawio.
func pollableFile(f *os.File) (*os.File, func(), bool) {
	fd := int(f.Fd())
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return f, func() {}, false
	}
	if t := st.Mode & unix.S_IFMT; t != unix.S_IFIFO && t != unix.S_IFSOCK {
		return f, func() {}, false
	}
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	wasNonblock := flags&unix.O_NONBLOCK != 0
	if err != nil || (!wasNonblock && unix.SetNonblock(fd, true) != nil) {
		return f, func() {}, false
	}
	back := func() {
		if !wasNonblock {
			_ = unix.SetNonblock(fd, false)
		}
	}
	// A second *os.File, on a duplicate of the descriptor: NewFile sees it
	// non-blocking and registers it with the poller. It owns the duplicate
	// (closing it, or its finalizer, leaves the process's standard input
	// or output open); the duplicate shares the original's mode.
	dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		back()
		return f, func() {}, false
	}
	polled := os.NewFile(uintptr(dup), f.Name())
	return polled, func() { polled.Close(); back() }, true
}
