// Package compaction is the contract section "Context compaction"
// (contract/air-extensions.md): a context compaction (manual /compact or
// the CLI's automatic one) is one idempotent lifecycle, shown as the
// reference shows it: to a client that declared session.compaction as
// compaction_update updates (in_progress, then one terminal status with the
// summary the PostCompact hook reported), to every other client as the
// synthetic "Compact conversation" tool call (kind think, tool name
// compact, the boundary's facts in rawOutput, a failure's error as its
// content).
//
// The CLI's signals: system/status compacting (start), its compact_result
// success or failed (finish), compact_boundary (finish, adding the token
// counts), the API's compaction content block in the stream (progress),
// and the PostCompact hook (the summary). The CLI can repeat a terminal
// status and can skip the opening one, so the state lives until the
// turn's result.
//
// The idle compaction (Idle) is the /compact the agent sends by itself
// shortly before a session's one-hour prompt cache expires, as the
// reference does; its compaction is reported as any other, with the
// trigger "automatic" (the reference says "idle", which the contract does
// not have: goldens/DEVIATIONS.md, entry 30).
//
// Files:
//
//   - lifecycle.go: Lifecycle (New), the start, progress and terminal
//     reports of both forms, the turn boundary (Reset), a cancel
//     (Interrupt, Resume), the failed compaction's duplicate error
//     (ConsumeDuplicateError);
//   - frames.go: the CLI frames that drive it (StatusFrame, BoundaryFrame,
//     StreamFrame, Hook);
//   - summary.go: the summary text a user reads of Claude's compaction
//     output;
//   - air_meta.go: AIR's `_meta.jetbrains.air.contextCompaction`;
//   - replay.go: a stored compaction summary replayed on session/load
//     (Replay);
//   - idle.go: the idle compaction's policy (Idle); the session wires it
//     in adapter/compaction.go.
//
// The translator holds one Lifecycle per session and sends what its
// methods return (adapter/compaction.go).
package compaction
