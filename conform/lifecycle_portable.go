//go:build !linux || airwire_portable

package conform

// recorderAgents finds none, and needs to: without /proc the recorder's
// children cannot be listed, and none outlives the run anyway. On Unix the
// recorder's agent is guarded by the recorder's watchdog, which sends its
// group SIGTERM when the recorder dies and SIGKILL a second later; on
// Windows the agent's job is nested in the recorder's, and killing the
// recorder's job ends it too.
func recorderAgents(int) []int { return nil }

// killAgents has nothing to kill: see recorderAgents.
func killAgents([]int) {}
