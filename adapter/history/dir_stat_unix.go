//go:build unix

package history

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// dirMtimes calls visit with the modification time of each regular file
// of dir named by names, stat'ed relative to the open directory (one path
// component to resolve each, not the whole path: a listing stats every
// transcript of a project).
func dirMtimes(dir string, names []string, visit func(name string, mtime time.Time)) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	defer d.Close()
	fd := int(d.Fd())
	var st unix.Stat_t
	for _, name := range names {
		if unix.Fstatat(fd, name, &st, 0) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			continue
		}
		visit(name, time.Unix(st.Mtim.Unix()))
	}
}
