//go:build (unix && !linux) || (linux && airwire_portable)

package procgroup

import (
	"testing"
	"time"
)

// TestWatchdogKillsTheGroupWhenTheParentIsKilled: the parent is SIGKILLed;
// the watchdog sends the group SIGTERM, which the leader and its child
// ignore, and SIGKILL after the grace. Only the watchdog can do this: no
// kernel parent-death signal is in use here, and it would reach the leader
// only, never its child.
func TestWatchdogKillsTheGroupWhenTheParentIsKilled(t *testing.T) {
	parent, pids := startParent(t, `trap '' TERM; sleep 30 & echo $$ $!; wait`)
	if !Running(pids[0]) || !Running(pids[1]) {
		t.Fatal("the group is not running")
	}
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	for _, pid := range pids {
		if !gone(pid, 3*time.Second) {
			t.Errorf("pid %d of the group outlived its SIGKILLed parent", pid)
		}
	}
}

// TestReleasedWatchdogLeavesTheGroupAlone: once released, the watchdog
// exits and kills nothing.
func TestReleasedWatchdogLeavesTheGroupAlone(t *testing.T) {
	d, err := newDeathGuard(nil, options{parentDeath: true, deathGrace: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	d.watch(1 << 22) // no such group
	done := make(chan struct{})
	go func() { d.release(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("release did not end the watchdog")
	}
	if d.cmd.ProcessState == nil || !d.cmd.ProcessState.Success() {
		t.Errorf("watchdog ended %v", d.cmd.ProcessState)
	}
}
