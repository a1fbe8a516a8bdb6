//go:build !linux || airwire_portable

package sessionindex

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// An agent killed before it could remove its probe directory leaves it in
// the temporary directory; the next agent's probe removes it, and keeps
// those of agents still running and directories it did not make.
func TestNewProbeRemovesTheProbesOfAgentsGone(t *testing.T) {
	tmp := t.TempDir()
	gone := exec.Command(os.Args[0], "-test.run=^$")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	parent := os.Getppid() // the go command, or the shell: running
	dirs := map[string]bool{
		probePrefix + strconv.Itoa(gone.Process.Pid) + "-11": false,
		probePrefix + strconv.Itoa(parent) + "-22":           true,
		probePrefix + "33": true, // not one a probe names
		"other-" + strconv.Itoa(gone.Process.Pid) + "-44": true,
	}
	for d := range dirs {
		if err := os.MkdirAll(filepath.Join(tmp, d, "1"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	probe, err := newProbe(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(probe) != tmp || filepath.Base(probe)[:len(probePrefix)] != probePrefix {
		t.Errorf("probe %s is not a probe directory of %s", probe, tmp)
	}
	for d, kept := range dirs {
		if _, err := os.Stat(filepath.Join(tmp, d)); (err == nil) != kept {
			t.Errorf("%s: kept %v, want %v", d, err == nil, kept)
		}
	}
}
