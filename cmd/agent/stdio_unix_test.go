//go:build unix

package agent

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

func nonblocking(t *testing.T, fd int) bool {
	t.Helper()
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil {
		t.Fatal(err)
	}
	return flags&unix.O_NONBLOCK != 0
}

// A blocking pipe, as an editor hands the agent its stdin, is read through
// the poller (non-blocking) and put back in blocking mode afterwards.
func TestPollableSwitchesABlockingPipe(t *testing.T) {
	// unix.Pipe, not os.Pipe (which hands back non-blocking ends) nor
	// Pipe2 (which macOS lacks).
	var p [2]int
	if err := unix.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	unix.CloseOnExec(p[0])
	unix.CloseOnExec(p[1])
	r, w := os.NewFile(uintptr(p[0]), "stdin"), os.NewFile(uintptr(p[1]), "w")
	defer r.Close()
	if nonblocking(t, p[0]) {
		t.Fatal("the test pipe starts non-blocking")
	}
	in, restore := pollableIn(r)
	if in == io.Reader(r) {
		t.Fatal("a pipe was returned unchanged")
	}
	if !nonblocking(t, p[0]) {
		t.Fatal("the pipe was not switched to non-blocking")
	}
	go func() {
		w.Write([]byte(`{"jsonrpc":"2.0"}` + "\n"))
		w.Close()
	}()
	got, err := io.ReadAll(in)
	if err != nil || !bytes.Equal(got, []byte(`{"jsonrpc":"2.0"}`+"\n")) {
		t.Fatalf("read %q, %v", got, err)
	}
	restore()
	if nonblocking(t, p[0]) {
		t.Error("restore left the pipe non-blocking")
	}
}

// A regular file (stdin redirected from a file) is left as it is.
func TestPollableLeavesARegularFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(path, []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in, restore := pollableIn(f)
	defer restore()
	if in != io.Reader(f) {
		t.Error("a regular file was replaced")
	}
	if nonblocking(t, int(f.Fd())) {
		t.Error("a regular file was made non-blocking")
	}
}

// blockingPipe is a pipe whose ends are blocking, as an editor hands them.
func blockingPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	// unix.Pipe, not os.Pipe (which hands back non-blocking ends) nor
	// Pipe2 (which macOS lacks).
	var p [2]int
	if err := unix.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	unix.CloseOnExec(p[0])
	unix.CloseOnExec(p[1])
	r, w = os.NewFile(uintptr(p[0]), "r"), os.NewFile(uintptr(p[1]), "stdout")
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// Standard output, a blocking pipe, is written through the poller (what
// the editor reads is what was written, a megabyte through a 64 KiB pipe)
// and put back in blocking mode afterwards.
func TestPollableOutSwitchesABlockingPipe(t *testing.T) {
	r, w := blockingPipe(t)
	out, restore := pollableOut(w, io.Discard)
	if out == io.Writer(w) {
		t.Fatal("a pipe was returned unchanged")
	}
	if !nonblocking(t, int(w.Fd())) {
		t.Fatal("the pipe was not switched to non-blocking")
	}
	want := bytes.Repeat([]byte(`{"jsonrpc":"2.0"}`+"\n"), 1<<16)
	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(r); got <- b }()
	if n, err := out.Write(want); n != len(want) || err != nil {
		t.Fatalf("wrote %d of %d: %v", n, len(want), err)
	}
	restore()
	if nonblocking(t, int(w.Fd())) {
		t.Error("restore left the pipe non-blocking")
	}
	w.Close()
	if b := <-got; !bytes.Equal(b, want) {
		t.Errorf("the reader got %d bytes, want the %d written", len(b), len(want))
	}
}

// Standard output that is standard error's pipe too (2>&1) stays blocking:
// standard error's writes do not wait on the poller.
func TestPollableOutLeavesAPipeSharedWithStderr(t *testing.T) {
	_, w := blockingPipe(t)
	out, restore := pollableOut(w, w)
	defer restore()
	if out != io.Writer(w) {
		t.Error("standard output shared with standard error was replaced")
	}
	if nonblocking(t, int(w.Fd())) {
		t.Error("standard output shared with standard error was made non-blocking")
	}
}
