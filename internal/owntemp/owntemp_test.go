package owntemp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A process killed before it could remove its directory leaves it behind;
// the next Dir of the same prefix removes it, and keeps those of processes
// still running, those of another prefix and names it did not make.
func TestDirRemovesTheDirectoriesOfProcessesGone(t *testing.T) {
	const prefix = "airwire-test-"
	base := t.TempDir()
	gone := exec.Command(os.Args[0], "-test.run=^$")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead, parent := strconv.Itoa(gone.Process.Pid), strconv.Itoa(os.Getppid()) // the go command: running
	dirs := map[string]bool{
		prefix + dead + "-11":           false,
		prefix + parent + "-22":         true,
		prefix + "33":                   true, // not a name Dir makes
		"airwire-other-" + dead + "-44": true,
	}
	for d := range dirs {
		if err := os.MkdirAll(filepath.Join(base, d, "1"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	dir, err := Dir(base, prefix)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(dir) != base || !strings.HasPrefix(filepath.Base(dir), prefix+strconv.Itoa(os.Getpid())+"-") {
		t.Errorf("Dir made %s, want %s%d-… in %s", dir, prefix, os.Getpid(), base)
	}
	for d, kept := range dirs {
		if _, err := os.Stat(filepath.Join(base, d)); (err == nil) != kept {
			t.Errorf("%s: kept %v, want %v", d, err == nil, kept)
		}
	}
	if _, err := Dir(base, prefix); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Errorf("this process's own directory went: %v", err)
	}
}
