//go:build !unix

package history

import (
	"os"
	"path/filepath"
	"time"
)

// dirMtimes are the modification times of the files of dir named by
// names, in order; the zero time for one that is not a regular file.
func dirMtimes(dir string, names []string) []time.Time {
	out := make([]time.Time, len(names))
	for i, name := range names {
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.Mode().IsRegular() {
			out[i] = st.ModTime()
		}
	}
	return out
}
