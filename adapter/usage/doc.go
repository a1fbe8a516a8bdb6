// Package usage shapes what a turn reports about tokens and cost: the
// `usage_update` session updates (context window size and occupancy,
// `_meta["_claude/model"]`, `_meta["_claude/origin"]`,
// `_meta["_claude/rateLimit"]`, cost) and the `session/prompt` result
// (`stopReason`, `usage`, `_meta.quota`), as the reference adapter
// (claude-agent-acp 0.101.0) emits them for every client.
//
// It owns no I/O. A Tracker lives as long as its session; the session's
// reader feeds it each top-level CLI stdout frame in order (Frame), the
// answers of `get_context_usage` (ContextUsage), turn activation
// (StartTurn) and model switches (SetWindow), and sends each Update that
// Frame returns, in that order, among the turn's other updates.
//
// When the reference emits a usage_update during a turn:
//   - on `message_start` and each `message_delta` of a top-level streamed
//     message, when the total (input + output + cache read + cache write)
//     changed;
//   - on a `rate_limit_event`, once the turn has a total;
//   - on `compact_boundary` (used = the retained tokens);
//   - on the `result`, once the turn has a total, with the cost and the
//     result's origin.
//
// The consolidated `assistant` message updates the total silently.
package usage
