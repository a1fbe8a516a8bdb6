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
	return &reader{f: f, rc: rc}
}

// Writer writes f with raw write(2) calls; see the package doc.
func Writer(f *os.File) io.Writer {
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	return &writer{f: f, rc: rc}
}

type reader struct {
	f  *os.File
	rc syscall.RawConn
}

// Read returns what one read(2) got; an empty pipe parks on the poller.
// End of input and errors (a closed file too) are read again through f,
// for os.File's errors.
func (r *reader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := r.rc.Read(func(fd uintptr) bool {
		n, errno = rawCall(syscall.SYS_READ, fd, p)
		return errno != syscall.EAGAIN
	})
	if err != nil || errno != 0 || n == 0 {
		return r.f.Read(p)
	}
	return n, nil
}

type writer struct {
	f  *os.File
	rc syscall.RawConn
}

// Write writes all of p; a full pipe parks on the poller. An error is
// met again through f's Write, for os.File's errors.
func (w *writer) Write(p []byte) (int, error) {
	done := 0
	var errno syscall.Errno
	err := w.rc.Write(func(fd uintptr) bool {
		errno = 0
		for done < len(p) && errno == 0 {
			var n int
			n, errno = rawCall(syscall.SYS_WRITE, fd, p[done:])
			if n == 0 && errno == 0 {
				errno = syscall.EAGAIN // wait for room
			}
			done += n
		}
		return errno != syscall.EAGAIN
	})
	if err != nil || errno != 0 {
		n, err := w.f.Write(p[done:])
		return done + n, err
	}
	return done, nil
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
