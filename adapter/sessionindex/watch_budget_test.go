package sessionindex

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// fsnotify watches every file of a directory on the kqueue systems only.
func TestWatchesEachFile(t *testing.T) {
	for goos, want := range map[string]bool{"darwin": true, "freebsd": true, "linux": false, "windows": false} {
		if got := watchesEachFile(goos); got != want {
			t.Errorf("watchesEachFile(%s) = %v, want %v", goos, got, want)
		}
	}
}

// With kqueue a directory is watched only while its files fit in what is
// left of the budget, and a watch that ends gives them back; elsewhere
// nothing is counted.
func TestFileBudget(t *testing.T) {
	dirOf := func(files int) string {
		dir := t.TempDir()
		for i := range files {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprint(i)), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	a, b := dirOf(6), dirOf(6)
	mac := newFileBudget("darwin", 10)
	took, err := mac.reserve(a)
	if err != nil || took != 6 {
		t.Fatalf("first directory: took %d, %v; want 6", took, err)
	}
	if _, err := mac.reserve(b); err == nil {
		t.Fatal("a directory past the budget was let in")
	}
	mac.release(took)
	if took, err := mac.reserve(b); err != nil || took != 6 {
		t.Fatalf("after a release: took %d, %v; want 6", took, err)
	}
	for _, goos := range []string{"linux", "windows"} {
		other := newFileBudget(goos, 1)
		if took, err := other.reserve(a); err != nil || took != 0 {
			t.Errorf("%s: took %d, %v; want nothing counted", goos, took, err)
		}
	}
}
