//go:build linux && !airwire_portable

package conform

import (
	"golang.org/x/sys/unix"

	"github.com/airwire/airwire/internal/proctree"
)

// recorderAgents are the agents the recorder (pid) started, found before
// its death reparents them. The recorder's agent is in a process group of
// its own, and the kernel sends it only SIGTERM when the recorder dies
// (Pdeathsig): an agent that ignores SIGTERM would outlive the run.
func recorderAgents(recorder int) []int { return proctree.Children(recorder) }

// killAgents kills each agent with its process group.
func killAgents(pids []int) {
	for _, pid := range pids {
		_ = unix.Kill(-pid, unix.SIGKILL)
		_ = unix.Kill(pid, unix.SIGKILL)
	}
}
