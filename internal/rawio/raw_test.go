package rawio

import (
	"bytes"
	"errors"
	"io"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// What goes through Writer comes out of Reader whole, in order, through a
// 64 KiB pipe: both sides wait on the poller when the pipe is full or
// empty, and the reader ends with io.EOF.
func TestAMegabyteThroughAPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	want := make([]byte, 1<<20)
	for i := range want {
		want[i] = byte(i * 7)
	}
	go func() {
		// Slow at first, so that the writer finds the pipe full.
		time.Sleep(20 * time.Millisecond)
		n, err := Writer(w).Write(want)
		if n != len(want) || err != nil {
			t.Errorf("wrote %d of %d: %v", n, len(want), err)
		}
		w.Close()
	}()
	got, err := io.ReadAll(Reader(r))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes (want %d), equal %v: %v", len(got), len(want), bytes.Equal(got, want), err)
	}
}

// A reader waits on an empty pipe until something is written.
func TestReaderWaitsForData(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	go func() {
		time.Sleep(20 * time.Millisecond)
		_, _ = w.Write([]byte("late\n"))
	}()
	buf := make([]byte, 64)
	n, err := Reader(r).Read(buf)
	if err != nil || string(buf[:n]) != "late\n" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
}

// A pipe whose reader is gone gives the writer os.File's broken-pipe
// error, and the process goes on.
func TestWriterToABrokenPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r.Close()
	_, err = Writer(w).Write([]byte("x\n"))
	var pe *os.PathError
	if !errors.As(err, &pe) || (runtime.GOOS != "windows" && !errors.Is(err, syscall.EPIPE)) {
		t.Fatalf("err %v (%T), want os.File's *PathError for a broken pipe", err, err)
	}
}

// A closed file is os.File's error, not a hang.
func TestReaderOfAClosedFile(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	rd := Reader(r)
	r.Close()
	if _, err := rd.Read(make([]byte, 8)); !errors.Is(err, os.ErrClosed) {
		t.Fatalf("err %v, want os.ErrClosed", err)
	}
}
