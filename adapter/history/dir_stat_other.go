//go:build !unix || airwire_portable

package history

import (
	"os"
	"path/filepath"
	"time"
)

// dirTranscripts are the transcripts of dir (<session id>.jsonl) that are
// regular files, and their modification times, in the directory's order.
// The portable twin (Windows, and -tags airwire_portable): each is
// stat'ed by its path, one after another.
func dirTranscripts(dir string) (names []string, mtimes []time.Time) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, nil
	}
	all, _ := d.Readdirnames(-1)
	d.Close()
	for _, name := range all {
		if !isTranscriptName(name) {
			continue
		}
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.Mode().IsRegular() {
			names, mtimes = append(names, name), append(mtimes, st.ModTime())
		}
	}
	return names, mtimes
}
