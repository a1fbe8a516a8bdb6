//go:build !linux || airwire_portable

package sessionindex

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/airwire/airwire/adapter/parallel"
)

// readBatch is how many names readListing reads at a time.
const readBatch = 512

// statBatch is a batch of transcript names and their stat.
type statBatch struct {
	names []string
	found []candidate
	ok    []bool
}

// readListing reads a directory and stats its transcripts by path (the
// portable twin of the getdents and fstatat listing: macOS, Windows, and
// -tags airwire_portable), several at once: each batch of names is
// stat'ed while the next is read (parallel.Stream); the transcripts are
// newest first (newestFirst).
func readListing(dir string) []candidate {
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	fd := int(f.Fd())
	var batches []*statBatch
	parallel.Stream(func(send func(*statBatch)) {
		for {
			names, err := f.Readdirnames(readBatch)
			names = slices.DeleteFunc(names, func(n string) bool { _, ok := transcriptName(n); return !ok })
			if len(names) > 0 {
				b := &statBatch{names: names, found: make([]candidate, len(names)), ok: make([]bool, len(names))}
				batches = append(batches, b)
				send(b)
			}
			if err != nil {
				return
			}
		}
	}, func(b *statBatch) {
		for i, name := range b.names {
			b.found[i], b.ok[i] = statFd(fd, dir, name)
		}
	})
	var out []candidate
	for _, b := range batches {
		for i, name := range b.names {
			if b.ok[i] {
				c := b.found[i]
				c.sessionID = strings.TrimSuffix(name, ".jsonl")
				out = append(out, c)
			}
		}
	}
	return sortCandidates(out)
}

// statFd stats dir/name by its path: the portable twin of an fstatat on
// the open directory.
func statFd(_ int, dir, name string) (candidate, bool) {
	return statCandidate(filepath.Join(dir, name))
}
