//go:build unix && !airwire_portable

package history

import (
	"os"
	"slices"
	"time"

	"golang.org/x/sys/unix"

	"github.com/airwire/airwire/adapter/parallel"
)

// readBatch is how many names dirTranscripts reads at a time.
const readBatch = 512

// statBatch is a batch of names and their modification times.
type statBatch struct {
	names  []string
	mtimes []time.Time
}

// dirTranscripts are the transcripts of dir (<session id>.jsonl) that are
// regular files, and their modification times, in the directory's order.
// Each is stat'ed relative to the open directory (one path component to
// resolve, not the whole path), several at once, and each batch of names
// while the next is read (parallel.Stream): a listing stats every
// transcript of a project.
func dirTranscripts(dir string) (names []string, mtimes []time.Time) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, nil
	}
	defer d.Close()
	fd := int(d.Fd())
	var batches []*statBatch
	parallel.Stream(func(send func(*statBatch)) {
		for {
			read, err := d.Readdirnames(readBatch)
			read = slices.DeleteFunc(read, func(n string) bool { return !isTranscriptName(n) })
			if len(read) > 0 {
				b := &statBatch{names: read, mtimes: make([]time.Time, len(read))}
				batches = append(batches, b)
				send(b)
			}
			if err != nil {
				return
			}
		}
	}, func(b *statBatch) {
		var st unix.Stat_t
		for i, name := range b.names {
			if unix.Fstatat(fd, name, &st, 0) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
				b.mtimes[i] = time.Unix(st.Mtim.Unix())
			}
		}
	})
	for _, b := range batches {
		for i, name := range b.names {
			if !b.mtimes[i].IsZero() {
				names, mtimes = append(names, name), append(mtimes, b.mtimes[i])
			}
		}
	}
	return names, mtimes
}
