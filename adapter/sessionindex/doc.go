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
// project_dirs.go, listing.go and watch_queue_*.go (the directory listings
// a list reads, kept current by a watch drained before each list: raw
// inotify on Linux, fsnotify elsewhere or under -tags airwire_portable;
// watch_budget.go the files kqueue may watch), file_id_*.go (the inode,
// none on Windows), worktrees.go, live_registry.go, rename.go (ParseRename,
// Service.Rename, the sidecar), archive.go (the title prefix model,
// Service.Archive, ArchiveInsteadOfDelete, HiddenArchived),
// list_subscription.go and list_watch.go (Service.Subscribe, Unsubscribe,
// fsnotify watching, debounce and rate limits), delete_and_close.go
// (Service.Delete).
//
// Cost (issue 10): a list page reads its transcripts newest first and
// stops once the page is full (Index.page): a cold page of 50 over 10,000
// transcripts reads about 60 of them, after one readdir and one stat of
// each; a warm page stats only what the watch saw change. A row's
// metadata is a few hundred bytes; the process holds about 36 MiB with
// every one of 10,000 transcripts indexed (agentbench).
//
// Use: NewService(configDir, own, notify) once per connection; own reports
// a session the connection runs (state, turn end, cost), notify sends
// `_session/list/changes`. Errors are *Error (Code, Message, Data) for
// the JSON-RPC answer. Close ends the watchers.
//
// Not done: a session whose query failed here (Own.QueryFailedAt is read
// but the adapter does not set it yet), avoiding the stat of every
// transcript of the scope on a cold list, reading only the transcript an
// event names (a subscription pass stats the scope), `agentWorktree`, and
// `_session/batch_get`.
package sessionindex
