// Package sessionindex is the session index of an AIR client (contract:
// "Session index"): bounded, ordered `session/list` pages with row
// metadata, `_session/rename`, `_session/archive` and `_session/unarchive`,
// the list subscription, and the delete of a sessionIndex client; plus the
// archive behind `session/delete` of an AIR client without it. It reads
// and writes the transcripts the Claude CLI keeps under
// <config>/projects and reads its live registry <config>/sessions; it
// sends nothing to the CLI (a session that runs on the connection is
// titled through the Live callback the adapter gives).
//
// One file per contract subsection: activation.go (Enabled, Advertised),
// list_request.go (ParseListRequest, the opaque cursor bound to cwd,
// includeWorktrees and archived), list_response.go (Service.List, rows,
// state), transcript_scan.go and titles.go (what a row reads of a
// transcript), index.go (the cache by path, size, mtime and inode),
// project_dirs.go, worktrees.go, live_registry.go, rename.go
// (ParseRename, Service.Rename, the sidecar), archive.go (the title
// prefix model, Service.Archive, ArchiveInsteadOfDelete, HiddenArchived),
// list_subscription.go and list_watch.go (Service.Subscribe, Unsubscribe,
// fsnotify watching, debounce and rate limits), delete_and_close.go
// (Service.Delete).
//
// Use: NewService(configDir, own, notify) once per connection; own reports
// a session the connection runs (state, turn end, cost), notify sends
// `_session/list/changes`. Errors are *Error (Code, Message, Data) for
// the JSON-RPC answer. Close ends the watchers.
//
// Not done: a session whose query failed here (Own.QueryFailedAt is read
// but the adapter does not set it yet), the early stop of a cold list
// (every transcript of the scope is stat'ed and, once, read), reading only
// the transcript an event names (a pass stats the scope), the wait of a
// finished turn for open background tasks, `agentWorktree`,
// `_session/batch_get`, and the fork holds of the reference.
package sessionindex
