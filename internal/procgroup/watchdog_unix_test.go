//go:build (unix && !linux) || (linux && airwire_portable)

package procgroup

import (
	"testing"
	"time"
)

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
