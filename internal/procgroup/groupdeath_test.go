//go:build !linux || airwire_portable

package procgroup

import (
	"testing"
	"time"
)

// TestGroupDiesWithTheParent: the parent is killed; its group, a leader
// and a child that both ignore SIGTERM, ends all the same: the watchdog
// sends SIGTERM and, after the grace, SIGKILL (Unix), or the job closes
// with its last handle (Windows). Linux's Pdeathsig could not do this: it
// reaches the leader only, and only with SIGTERM.
func TestGroupDiesWithTheParent(t *testing.T) {
	stubborn(t)
	for _, pid := range killParent(t) {
		if !gone(pid, 3*time.Second) {
			t.Errorf("pid %d of the group outlived its killed parent", pid)
		}
	}
}
