package sessionindex

import "testing"

// TestOpenTasks: the records of scenarios/session-list-background-tasks.yaml
// and session-list-live-registry.yaml; only the dev server of the latter
// stays open, so its held session is running in the golden.
func TestOpenTasks(t *testing.T) {
	const (
		startBk1  = `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_bg_tests"}]},"toolUseResult":{"backgroundTaskId":"bk1"}}`
		endBk1    = `{"type":"user","message":{"content":"<task-notification>\n<task-id>bk1</task-id>\n<status>completed</status>\n</task-notification>"}}`
		checkIn   = `{"type":"user","message":{"content":"<task-notification>\n<task-id>bk1</task-id>\n<summary>still running</summary>\n</task-notification>"}}`
		stopCall  = `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_stop","name":"TaskStop","input":{"task_id":"bk1"}}]}}`
		stopped   = `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_stop"}]},"toolUseResult":{"task_id":"bk1"}}`
		otherID   = `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_x"}]},"toolUseResult":{"task_id":"bk1"}}`
		agent     = `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_a"}]},"toolUseResult":{"isAsync":true,"agentId":"ag7f3c"}}`
		dequeued  = `{"type":"queue-operation","operation":"remove","content":"<task-notification>\n<task-id>ag7f3c</task-id>\n<status>completed</status>\n</task-notification>"}`
		enqueued  = `{"type":"queue-operation","operation":"enqueue","content":"<task-notification>\n<task-id>ag7f3c</task-id>\n<status>completed</status>\n</task-notification>"}`
		sidechain = `{"type":"user","isSidechain":true,"message":{"content":[]},"toolUseResult":{"backgroundTaskId":"bk5"}}`
	)
	for _, c := range []struct {
		name  string
		lines []string
		want  int
	}{
		{"ended by its notification", []string{startBk1, endBk1}, 0},
		{"a check-in keeps it open", []string{startBk1, checkIn}, 1},
		{"stopped by TaskStop", []string{startBk1, stopCall, stopped}, 0},
		{"a task_id of another tool keeps it open", []string{startBk1, otherID}, 1},
		{"subagent taken from the queue", []string{agent, enqueued, dequeued}, 0},
		{"subagent still queued", []string{agent, enqueued}, 1},
		{"sidechain opens nothing", []string{sidechain}, 0},
	} {
		text := ""
		for _, l := range c.lines {
			text += l + "\n"
		}
		if got := openTasks(text); got != c.want {
			t.Errorf("%s: %d open, want %d", c.name, got, c.want)
		}
	}
}
