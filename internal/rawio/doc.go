// Package rawio reads and writes a pipe that the Go runtime's poller waits
// on without telling the scheduler that a system call begins.
//
// Why: os.File.Read and Write wrap read(2) and write(2) in the scheduler's
// system-call bookkeeping, and when the runtime's monitor thread sleeps
// (every P idle, as in an agent that waits on its pipes between frames),
// that bookkeeping wakes it. A peer that writes one small frame at a time,
// as the Claude CLI does while it streams text, so costs the agent a
// thread switch or two per frame on top of the read and the write: most of
// the CPU the agent spends per streamed chunk with the real CLI. On a
// non-blocking descriptor read(2) and write(2) never block, so the
// scheduler loses nothing when it is not told.
//
// Reader and Writer take an *os.File whose descriptor is non-blocking and
// registered with the poller (os.Pipe's ends, or a file os.NewFile made of
// a non-blocking descriptor). They wait on the poller as os.File does
// when the pipe is empty or full, and leave everything else (end of
// input, errors, a broken pipe) to the file's own Read and Write, so it
// behaves as os.File does, with one difference: a Reader or a Writer
// serves one call at a time (a jsonrpc.Conn reads on one goroutine and
// writes under its lock), which lets a call allocate nothing. Linux has the raw calls (raw_linux.go); on
// other systems, and with the build tag airwire_portable, Reader and
// Writer return the file itself (raw_portable.go).
package rawio
