// Package asynctasks is the contract section "Async tasks"
// (contract/air-extensions.md): Claude Code's background work that is not
// a subagent (a backgrounded Bash command, a workflow) published to an AIR client that declared `asyncTasks`
// as async_task_spawned, async_task_progress and async_task_state_update
// updates. Without the capability it publishes nothing.
//
// Files:
//
//   - tasks.go: the registry (Tasks, New, the Host it publishes through),
//     a task's hold until its tool call is known and what it publishes
//     ("Updates", "Tool call of a task");
//   - frames.go: the CLI frames it reads (Frame, Head), a Bash call's
//     backgrounded marker (TakeBackgrounded), the CLI's end (CLIEnded),
//     the agent's shutdown (Shutdown);
//   - events.go: task_started, task_progress, task_updated,
//     task_notification and the background task list ("Liveness");
//   - output_paths.go: the output path in a tool result's text ("Task id
//     and output path");
//   - tool_results.go: tool results and tool uses, the task a backgrounded
//     Bash result names (ToolResultIDs);
//   - stop.go: the registry's side of `_session/async_task/stop`
//     (ClaimStop, ReleaseStop, Stopped; "Stop request").
//
// The adapter holds one Tasks per session (adapter/async_tasks.go: the
// host, the stop request's CLI call) and calls it under the translator's
// lock. The Bash card's backgrounded marker is set in adapter/toolcall.
package asynctasks
