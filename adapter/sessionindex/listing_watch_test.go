package sessionindex

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// A watched listing follows the directory without reading it again (the
// same listing is kept): a transcript created, one appended to and one
// removed just before a use are seen by that use, with no wait. This runs
// the raw inotify queue, and under -tags airwire_portable (or off Linux)
// the fsnotify queue with its probe.
func TestWatchedListingSeesWritesThatEndedBeforeTheList(t *testing.T) {
	dir := t.TempDir()
	ls := newListings()
	defer ls.close()
	id := func(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", i) }
	write := func(i int, text string) {
		t.Helper()
		f, err := os.OpenFile(filepath.Join(dir, id(i)+".jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	write(0, "{}\n")
	if got := ls.candidates(dir, scope{}); len(got) != 1 {
		t.Fatalf("first listing: %d transcripts, want 1", len(got))
	}
	watched := ls.dirs[dir]
	if watched == nil {
		t.Fatal("the directory is not watched")
	}
	for round := 1; round <= 40; round++ {
		write(round, "{}\n") // created
		write(0, "{}\n")     // appended to
		if round > 1 && round%2 == 0 {
			if err := os.Remove(filepath.Join(dir, id(round-1)+".jsonl")); err != nil { // removed
				t.Fatal(err)
			}
		}
		got := map[string]int64{}
		for _, c := range ls.candidates(dir, scope{}) {
			got[c.sessionID] = c.size
		}
		if ls.dirs[dir] != watched {
			t.Fatalf("round %d: the directory was read again instead of followed", round)
		}
		if got[id(0)] != int64(3*(round+1)) {
			t.Fatalf("round %d: the appended transcript is %d bytes in the listing, want %d", round, got[id(0)], 3*(round+1))
		}
		if _, ok := got[id(round)]; !ok {
			t.Fatalf("round %d: the new transcript is not listed", round)
		}
		if _, ok := got[id(round-1)]; ok == (round > 1 && round%2 == 0) {
			t.Fatalf("round %d: the removed transcript is listed, or a kept one is not", round)
		}
	}
}
