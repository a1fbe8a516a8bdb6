//go:build !unix

package history

import (
	"os"
	"path/filepath"
	"time"
)

// dirMtimes calls visit with the modification time of each regular file
// of dir named by names.
func dirMtimes(dir string, names []string, visit func(name string, mtime time.Time)) {
	for _, name := range names {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		visit(name, st.ModTime())
	}
}
