package adapter

import (
	"os"
	"path/filepath"
	"testing"
)

// A reported path that runs through a file as if it were a directory
// (ENOTDIR on Unix, ERROR_DIRECTORY or ERROR_PATH_NOT_FOUND on Windows)
// is a missing path: the part that exists is resolved and the rest kept,
// not the whole path returned unresolved.
func TestCanonicalPathThroughAFile(t *testing.T) {
	real := t.TempDir()
	if err := os.WriteFile(filepath.Join(real, "file.txt"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("no symlinks here: %v", err) // Windows without the privilege
	}
	resolved, err := filepath.EvalSymlinks(real)
	if err != nil {
		t.Fatal(err)
	}
	got := canonicalFromExistingAncestor(filepath.Join(link, "file.txt", "sub", "x.go"))
	if want := filepath.Join(resolved, "file.txt", "sub", "x.go"); got != want {
		t.Errorf("canonical path %q, want %q", got, want)
	}
}
