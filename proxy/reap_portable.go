//go:build !linux || airwire_portable

package proxy

import (
	"time"

	"github.com/airwire/airwire/internal/procgroup"
)

// becomeSubreaper does nothing: only Linux lets a process adopt its
// orphaned descendants.
func becomeSubreaper() {}

// reapOrphans gives what the agent left in its process group (Windows: its
// job, which holds every descendant) up to grace to exit, then kills it.
// The orphans themselves are reaped by init (launchd), their parent now;
// that is enough because what the recorder must guarantee is that none
// outlives the recording. A descendant that left the group (a Claude CLI in
// a group of its own) reaches the recorder through the CLI shim, and the
// shim listener has already killed any that overstayed. Call it only once
// every child this process started itself has been waited for.
func reapOrphans(agent *procgroup.Group, grace time.Duration) {
	if agent != nil {
		agent.Release(grace)
	}
}
