//go:build unix

package history

import (
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/airwire/airwire/internal/parallel"
)

// dirMtimes are the modification times of the files of dir named by
// names, in order; the zero time for one that is not a regular file. Each
// is stat'ed relative to the open directory (one path component to
// resolve, not the whole path), several at once: a listing stats every
// transcript of a project.
func dirMtimes(dir string, names []string) []time.Time {
	out := make([]time.Time, len(names))
	d, err := os.Open(dir)
	if err != nil {
		return out
	}
	defer d.Close()
	fd := int(d.Fd())
	parallel.For(len(names), func(i int) {
		var st unix.Stat_t
		if unix.Fstatat(fd, names[i], &st, 0) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
			out[i] = time.Unix(st.Mtim.Unix())
		}
	})
	return out
}
