//go:build linux && !airwire_portable

package rawio

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// Reader reads f with raw read(2) calls; see the package doc.
func Reader(f *os.File) io.Reader {
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	r := &reader{f: f, rc: rc}
	r.call = r.read
	return r
}

// Writer writes f with raw write(2) calls; see the package doc.
func Writer(f *os.File) io.Writer {
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	w := &writer{f: f, rc: rc}
	w.call = w.write
	return w
}

// reader and writer keep the call's buffer and outcome in fields, and the
// function RawConn calls bound once (call), so that a read or a write
// allocates nothing: the agent makes one per frame.
type reader struct {
	f    *os.File
	rc   syscall.RawConn
	call func(fd uintptr) bool
	// of the Read under way
	p     []byte
	n     int
	errno syscall.Errno
}

// Read returns what one read(2) got; an empty pipe parks on the poller.
// End of input and errors (a closed file too) are read again through f,
// for os.File's errors.
func (r *reader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r.p = p
	err := r.rc.Read(r.call)
	n, errno := r.n, r.errno
	r.p = nil
	if err != nil || errno != 0 || n == 0 {
		return r.f.Read(p)
	}
	return n, nil
}

func (r *reader) read(fd uintptr) bool {
	r.n, r.errno = rawCall(syscall.SYS_READ, fd, r.p)
	return r.errno != syscall.EAGAIN
}

type writer struct {
	f    *os.File
	rc   syscall.RawConn
	call func(fd uintptr) bool
	// of the Write under way: what is left to write, and the last error
	p     []byte
	errno syscall.Errno
}

// Write writes all of p; a full pipe parks on the poller. An error is
// met again through f's Write, for os.File's errors.
func (w *writer) Write(p []byte) (int, error) {
	w.p = p
	err := w.rc.Write(w.call)
	rest, errno := w.p, w.errno
	w.p = nil
	done := len(p) - len(rest)
	if err != nil || errno != 0 {
		n, err := w.f.Write(rest)
		return done + n, err
	}
	return done, nil
}

func (w *writer) write(fd uintptr) bool {
	w.errno = 0
	for len(w.p) > 0 && w.errno == 0 {
		var n int
		n, w.errno = rawCall(syscall.SYS_WRITE, fd, w.p)
		if n == 0 && w.errno == 0 {
			w.errno = syscall.EAGAIN // wait for room
		}
		w.p = w.p[n:]
	}
	return w.errno != syscall.EAGAIN
}

// rawCall makes read(2) or write(2) on fd with buffer b (not empty),
// again on EINTR, with no scheduler bookkeeping.
func rawCall(trap, fd uintptr, b []byte) (int, syscall.Errno) {
	for {
		n, _, e := syscall.RawSyscall(trap, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
		if e != syscall.EINTR {
			if e != 0 {
				return 0, e
			}
			return int(n), 0
		}
	}
}
