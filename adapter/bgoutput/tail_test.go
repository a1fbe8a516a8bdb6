package bgoutput

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type read struct {
	text     string
	replaces bool
	ok       bool
}

func readOf(tl *Tail, end bool) read {
	text, replaces, ok := tl.Read(end)
	return read{text, replaces, ok}
}

// A tail shows what the file adds, the first text replacing the
// placeholder, then appending; a missing file shows nothing yet; a
// character cut in two waits for its end, and the end of the command
// shows what is left, also nothing as an empty replacement.
func TestTailReadsWhatTheFileAdds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b1.output")
	tl := New(path)
	if got := readOf(tl, false); got.ok {
		t.Errorf("a file not written yet = %+v", got)
	}
	write := func(s string) {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = f.WriteString(s)
		f.Close()
	}
	write("")
	if got := readOf(tl, false); got.ok {
		t.Errorf("an empty file before the end = %+v", got)
	}
	write("serving\n\xc3")
	if got, want := readOf(tl, false), (read{"serving\n", true, true}); got != want {
		t.Errorf("first output = %+v, want %+v", got, want)
	}
	write("\xa9 done\n")
	if got, want := readOf(tl, false), (read{"é done\n", false, true}); got != want {
		t.Errorf("the rest of a cut character = %+v, want %+v", got, want)
	}
	if got := readOf(tl, true); got.ok {
		t.Errorf("the end with nothing new, after output = %+v", got)
	}
	empty := filepath.Join(t.TempDir(), "empty.output")
	write2 := New(empty)
	_ = os.WriteFile(empty, nil, 0o600)
	if got, want := readOf(write2, true), (read{"", true, true}); got != want {
		t.Errorf("the end of a command that printed nothing = %+v, want %+v", got, want)
	}
}

// Past MaxBytes unread, a read skips to the file's last bytes and
// replaces what the terminal shows; a file that shrank starts over.
func TestTailBoundsItsReads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.output")
	big := strings.Repeat("x", MaxBytes) + "tail\n"
	if err := os.WriteFile(path, []byte(big), 0o600); err != nil {
		t.Fatal(err)
	}
	tl := New(path)
	got := readOf(tl, false)
	if len(got.text) != MaxBytes || !strings.HasSuffix(got.text, "tail\n") || !got.replaces {
		t.Errorf("a backlog past the bound: %d bytes, replaces %v", len(got.text), got.replaces)
	}
	_ = os.WriteFile(path, []byte("new\n"), 0o600)
	if got, want := readOf(tl, false), (read{"new\n", true, true}); got != want {
		t.Errorf("a file that shrank = %+v, want %+v", got, want)
	}
}

// Follow polls until Halt, and no longer after it.
func TestTailFollowsUntilHalted(t *testing.T) {
	tl := New(filepath.Join(t.TempDir(), "x"))
	polled := make(chan struct{}, 10)
	tl.Follow(func() { polled <- struct{}{} })
	select {
	case <-polled:
	case <-time.After(5 * Poll):
		t.Fatal("no poll")
	}
	tl.Halt()
	tl.Halt() // twice is harmless
	if !tl.Stopped() {
		t.Error("a halted tail is not stopped")
	}
	for len(polled) > 0 {
		<-polled
	}
	time.Sleep(3 * Poll)
	if len(polled) > 1 {
		t.Errorf("%d polls after Halt", len(polled))
	}
}
