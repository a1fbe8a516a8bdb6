// Package bgoutput reads the output of a command that Claude Code runs in
// the background from the file it writes it to, for the command's display
// terminal (ACP v2 "Background work": a listed terminal's output stays
// current). Claude Code streams no output of such a command.
package bgoutput

import (
	"io"
	"os"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/airwire/airwire/internal/poll"
)

// MaxBytes bounds the output a terminal shows of a command that ran in
// the background, and one read of it: a client keeps a bounded amount of
// it anyway.
const MaxBytes = 1 << 20

// Poll is how often a running command's output file is
// read. The file is polled: a file watch is not reliable on every
// platform, and a missing file only means nothing was written yet.
const Poll = 500 * time.Millisecond

// Tail follows the output file of one command that went on in the
// background, for a client that gets its session's background lists (ACP
// v2 "Background work": a listed terminal's output stays current). Claude
// Code streams no output of such a command; the file is where it writes
// it. Reads must not overlap: the adapter reads under its translator's
// lock, in its polls as at the task's end. Past MaxBytes unread bytes, a read skips
// to the file's last bytes and replaces what the terminal shows.
type Tail struct {
	path     string
	offset   int64
	pending  []byte // the start of a character the command has not finished
	replaces bool   // the next text replaces what the terminal shows
	stop     chan struct{}
	once     sync.Once
}

func New(path string) *Tail {
	return &Tail{path: path, replaces: true, stop: make(chan struct{})}
}

// Follow calls poll every Poll until the tail stops.
func (tl *Tail) Follow(poll func()) {
	go func() {
		tick := time.NewTicker(Poll)
		defer tick.Stop()
		for {
			select {
			case <-tl.stop:
				return
			case <-tick.C:
				poll()
			}
		}
	}()
}

// Halt stops the polls; what the file adds is no longer read.
func (tl *Tail) Halt() { tl.once.Do(func() { close(tl.stop) }) }

// StopNoticeWait bounds how long the end of a command that was stopped
// waits for its output file to grow: Claude Code reports the stop at once,
// and writes its stop notice ("[killed]") to the file once the command's
// process exited, a moment later.
const StopNoticeWait = 250 * time.Millisecond

// Unread is where the tail reads next, and the file it reads.
func (tl *Tail) Unread() (path string, offset int64) { return tl.path, tl.offset }

// AwaitGrowth waits until the file at path holds more than offset bytes,
// or until max passed. It reads nothing, so it needs no lock of the tail.
func AwaitGrowth(path string, offset int64, max time.Duration) {
	poll.Until(max, 10*time.Millisecond, func() bool {
		st, err := os.Stat(path)
		return err == nil && st.Size() > offset
	})
}

// Stopped reports whether the tail was halted.
func (tl *Tail) Stopped() bool {
	select {
	case <-tl.stop:
		return true
	default:
		return false
	}
}

// Read reads what the file added. With end, the command ended: what the
// file holds is its whole output, a character it cut off is ended with a
// replacement character, and a tail that showed nothing yet shows the
// (maybe empty) output. ok is false when there is nothing to show, or the
// file cannot be read (not written yet).
func (tl *Tail) Read(end bool) (text string, replaces, ok bool) {
	f, err := os.Open(tl.path)
	if err != nil {
		return "", false, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", false, false
	}
	if size := st.Size(); size < tl.offset || size-tl.offset > MaxBytes {
		tl.offset, tl.pending, tl.replaces = max(0, size-MaxBytes), nil, true
	}
	b, err := io.ReadAll(io.NewSectionReader(f, tl.offset, MaxBytes))
	if err != nil {
		return "", false, false
	}
	tl.offset += int64(len(b))
	b = append(tl.pending, b...)
	tl.pending = nil
	if cut := incompleteTail(b); !end && cut > 0 {
		b, tl.pending = b[:len(b)-cut], append([]byte(nil), b[len(b)-cut:]...)
	}
	if len(b) == 0 && !(end && tl.replaces) {
		return "", false, false
	}
	replaces = tl.replaces
	tl.replaces = false
	return string([]rune(string(b))), replaces, true
}

// incompleteTail is how many bytes at the end of b start a character that
// is not whole yet.
func incompleteTail(b []byte) int {
	for n := 1; n <= utf8.UTFMax-1 && n <= len(b); n++ {
		if utf8.RuneStart(b[len(b)-n]) {
			if !utf8.FullRune(b[len(b)-n:]) {
				return n
			}
			return 0
		}
	}
	return 0
}
