//go:build unix

package journal

import (
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// nullDevice makes a copy of /dev/null in dir when this runs as root (as
// root would pass --journal /dev/null).
func nullDevice(dir string) (string, bool) {
	var null unix.Stat_t
	if unix.Geteuid() != 0 || unix.Stat("/dev/null", &null) != nil {
		return "", false
	}
	dev := filepath.Join(dir, "null")
	if unix.Mknod(dev, unix.S_IFCHR|0o666, int(null.Rdev)) != nil || unix.Chmod(dev, 0o666) != nil {
		return "", false
	}
	return dev, true
}

// Item 7 of issue 11: a write that fails (here a file size limit, as a full
// disk) is reported once, when it happens; Close cuts the file back to its
// last whole entry and ends it with a note saying from which seq on
// entries are lost.
func TestWriterReportsLossAndEndsWithNote(t *testing.T) {
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Skip(err)
	}
	path := filepath.Join(t.TempDir(), "j.jsonl")
	var reported []error
	w, err := Create(path, Header{}, WithOnError(func(err error) { reported = append(reported, err) }))
	if err != nil {
		t.Fatal(err)
	}
	lim := syscall.Rlimit{Cur: 64 << 10, Max: old.Max}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Skip(err)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old)
	msg := []byte(`{"t":"` + strings.Repeat("x", 10<<10) + `"}`)
	var appendErr error
	for i := 0; i < 10 && appendErr == nil; i++ {
		appendErr = w.Append(&Entry{Kind: KindMsg, Lane: LaneClient, Dir: DirAgent, Msg: msg})
	}
	if appendErr == nil || len(reported) != 1 {
		t.Fatalf("append error %v, reported %d times", appendErr, len(reported))
	}
	w.Append(&Entry{Kind: KindMsg, Lane: LaneClient, Dir: DirAgent, Msg: msg})
	if err := w.Close(); err == nil || len(reported) != 1 {
		t.Fatalf("Close: %v, reported %d times", err, len(reported))
	}
	syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old)
	_, got, err := ReadAll(path)
	if err != nil {
		t.Fatalf("the journal does not read back: %v", err)
	}
	last := got[len(got)-1]
	if last.Kind != KindNote || last.Seq != uint64(len(got)) || !strings.Contains(last.TextOf(), "cannot write the journal") ||
		!strings.Contains(last.TextOf(), "entries from seq "+strconv.Itoa(len(got))+" on are lost") {
		t.Fatalf("last entry %+v", last)
	}
}
