//go:build !linux || airwire_portable

package sessionindex

import "testing"

// fsnotify watches every file of a directory on the kqueue systems only;
// there the queue budgets them.
func TestWatchesEachFile(t *testing.T) {
	for goos, want := range map[string]bool{"darwin": true, "freebsd": true, "linux": false, "windows": false} {
		if got := watchesEachFile(goos); got != want {
			t.Errorf("watchesEachFile(%s) = %v, want %v", goos, got, want)
		}
	}
}
