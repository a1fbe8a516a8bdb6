package conform_test

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/testroot"
)

// shutdownScenario quits the editor while a task runs, then waits for the
// task's end: a frame only an agent that follows the contract's Liveness
// rule sends, and only after its stdin closed.
const shutdownScenario = `
name: shutdown-open-task
description: The editor quits while a workflow task runs.
covers: [Async tasks, Async tasks > Liveness]
profiles: [air]
scripted: "a test of the driver's shutdown step"
client:
  steps:
    - prompt: {text: "Start the workflow."}
    - waitFor: {sessionUpdate: async_task_spawned}
    - shutdown: true
    - waitFor: {sessionUpdate: async_task_state_update}
cli:
  turns:
    - steps:
        - system: {subtype: task_started, task_id: wf_1, description: "Release workflow", task_type: local_workflow, workflow_name: release}
        - text: "The workflow is running."
`

// TestShutdownStep: the shutdown step closes the agent's stdin in the
// middle of the steps, and the waitFor after it sees what the agent sends
// before it exits (our agent's stopped task, DEVIATIONS.md 29), after the
// run's ClosedAt.
func TestShutdownStep(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns airwire agent")
	}
	sc, err := scenario.Parse("shutdown-open-task.yaml", []byte(shutdownScenario))
	if err != nil {
		t.Fatal(err)
	}
	bin := testroot.Binary(t)
	dir, err := os.MkdirTemp("", "aw-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	res, err := conform.Run(context.Background(), conform.Options{Airwire: bin, Agent: []string{bin, "agent"},
		Scenario: sc, Profile: scenario.ProfileAir, Dir: dir, WaitTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	stopped := []byte(`"sessionUpdate":"async_task_state_update","state":"stopped"`)
	for _, e := range res.Entries {
		if bytes.Contains(e.Msg, stopped) {
			if at := res.Header.Start.Add(time.Duration(e.TNs)); at.Before(res.ClosedAt) {
				t.Errorf("the task ended at %s, before the driver closed stdin at %s", at, res.ClosedAt)
			}
			return
		}
	}
	t.Errorf("no stopped task in the journal")
}
