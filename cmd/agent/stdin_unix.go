//go:build unix

package agent

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// pollable is in as a file the Go runtime's poller waits on, when in is a
// pipe or a socket (how editors start an agent), and a func that puts
// the descriptor back in blocking mode.
//
// Why: os.Stdin reads in a blocking read(2), and the agent runs on one P
// (agentRun). A goroutine blocked in a system call keeps that P until the
// runtime's monitor takes it back, which after a quiet spell takes up to
// 10 ms. So the goroutine handling a request the reader has just passed on
// waited that long while the reader went back to read(2): the second of
// two quick session/list requests took 15 ms instead of 1.5
// (conform/agentbench, BenchmarkAgentSessionList). A non-blocking
// descriptor parks the reader instead, and the P is free at once.
//
// A terminal or a regular file is left as it is: a terminal's mode is
// shared with the shell that runs airwire.
func pollable(in io.Reader) (io.Reader, func()) {
	f, ok := in.(*os.File)
	if !ok {
		return in, func() {}
	}
	fd := int(f.Fd())
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return in, func() {}
	}
	if t := st.Mode & unix.S_IFMT; t != unix.S_IFIFO && t != unix.S_IFSOCK {
		return in, func() {}
	}
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	wasNonblock := flags&unix.O_NONBLOCK != 0
	if err != nil || (!wasNonblock && unix.SetNonblock(fd, true) != nil) {
		return in, func() {}
	}
	// A second *os.File on the descriptor: NewFile sees it non-blocking
	// and registers it with the poller. It is never closed (the descriptor
	// stays the process's standard input).
	polled := os.NewFile(uintptr(fd), f.Name())
	return polled, func() {
		if !wasNonblock {
			_ = unix.SetNonblock(fd, false)
		}
	}
}
