//go:build linux && !airwire_portable

package proxy

import (
	"os"
	"syscall"
	"time"

	"github.com/airwire/airwire/internal/procgroup"
	"github.com/airwire/airwire/internal/proctree"
)

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER from <linux/prctl.h>.
const prSetChildSubreaper = 36

// becomeSubreaper makes this process adopt every orphaned descendant (a CLI
// whose agent exited first, a shim whose parent died), so none of them is
// left to an init that may never reap it. Best effort: not fatal on error.
func becomeSubreaper() {
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
}

// reapOrphans waits up to grace for adopted descendants to exit, then kills
// the rest, and reaps them all; then it lets the agent's group go. Call it
// only once every child this process started itself has been waited for.
func reapOrphans(agent *procgroup.Group, grace time.Duration) {
	deadline := time.Now().Add(grace)
	killed := false
	for {
		for {
			pid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
		kids := proctree.Children(os.Getpid())
		if len(kids) == 0 {
			break
		}
		if !killed && time.Now().After(deadline) {
			for _, pid := range kids {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			killed = true
			deadline = time.Now().Add(2 * time.Second)
		} else if killed && time.Now().After(deadline) {
			break // unkillable (D state): give up rather than hang
		}
		time.Sleep(10 * time.Millisecond)
	}
	if agent != nil {
		agent.Release(0)
	}
}
