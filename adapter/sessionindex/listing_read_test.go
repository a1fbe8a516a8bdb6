package sessionindex

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// readListing lists every regular transcript of a directory once, with
// its stat, newest first and by path among equal mtimes, across many
// getdents buffers and stat batches; other entries are left out.
func TestReadListingOrdersEveryTranscriptOnce(t *testing.T) {
	dir := t.TempDir()
	base := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	want := map[string]time.Time{}
	for i := range 3000 {
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		path := filepath.Join(dir, id+".jsonl")
		if err := os.WriteFile(path, []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		at := base.Add(time.Duration(i%700) * time.Second) // many equal mtimes
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
		want[path] = at
	}
	for _, name := range []string{"not-an-id.jsonl", "00000000-0000-4000-8000-999999999999.json"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "00000000-0000-4000-8000-999999999998.jsonl"), 0o700); err != nil {
		t.Fatal(err)
	}
	got := readListing(dir)
	if len(got) != len(want) {
		t.Fatalf("%d transcripts listed, want %d", len(got), len(want))
	}
	if !slices.IsSortedFunc(got, func(a, b candidate) int { return newestFirst(&a, &b) }) {
		t.Error("the listing is not newest first, then by path")
	}
	seen := map[string]bool{}
	for _, c := range got {
		at, ok := want[c.path]
		switch {
		case !ok || seen[c.path]:
			t.Fatalf("%s listed unexpectedly or twice", c.path)
		case c.mtimeNs != at.UnixNano() || c.size != 3 || (c.ino == 0) == inodeKnown:
			t.Errorf("%s: mtime %d size %d ino %d", c.path, c.mtimeNs, c.size, c.ino)
		case c.sessionID+".jsonl" != filepath.Base(c.path):
			t.Errorf("%s: session id %q", c.path, c.sessionID)
		}
		seen[c.path] = true
	}
}
