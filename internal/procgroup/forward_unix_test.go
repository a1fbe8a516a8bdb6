//go:build unix

package procgroup

import (
	"syscall"
	"testing"
	"time"
)

// TestSignalReachesTheLeaderOnly: a forwarded signal ends the leader, as
// it would have ended a child in this process's group, and leaves the
// leader's child to the group's end.
func TestSignalReachesTheLeaderOnly(t *testing.T) {
	cmd := self("spawn")
	var g *Group
	pids := readPids(t, cmd, func() (err error) { g, err = Start(cmd); return err })
	if err := g.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("the leader ended %v, want SIGTERM", cmd.ProcessState)
	}
	if gone(pids[1], 100*time.Millisecond) {
		t.Error("the leader's child ended with it: the signal reached the group")
	}
	g.Release(0)
	if !gone(pids[1], 3*time.Second) {
		t.Errorf("the leader's child (pid %d) outlived Release", pids[1])
	}
}
