// Package history reads and writes the sessions the Claude CLI stores, for
// `session/load`, `session/resume`, `session/fork`, `session/list` and
// `session/delete` of a plain or a Zed client, as the reference adapter
// (through its SDK's file functions) does them (contract: "Compatibility
// rule", "Session index" for what a client without the index gets).
//
// The CLI keeps each session as JSONL in
// <config dir>/projects/<encoded cwd>/<session id>.jsonl (ConfigDir:
// CLAUDE_CONFIG_DIR or $HOME/.claude), one row a line, linked by
// parentUuid. The package reads those files and writes a fork; it sends
// nothing and starts no process.
//
//   - Find locates a session's transcript in any project directory;
//     ReadMessages reads it into the messages of the active branch (bad
//     lines skipped; a transcript over LargeTranscript keeps only what
//     follows its last full compaction); Model is the model a load passes
//     to the CLI; ReadTail reads the model and the permission mode of a
//     resume from the end of the file only.
//   - Replay turns the messages into the `session/update` objects that
//     `session/load` sends before its response: text, image and thought
//     chunks with their messageId; tool calls rendered whole by a
//     toolcall.Renderer (the reference's replay tracks no fields, but for
//     AIR it leaves out unchanged `_meta` keys: Session.FilterMeta); and the
//     plan tools through the session's toolcall.Session, whose task list
//     later turns go on from; an approved ExitPlanMode plan, for a client
//     that declares `plan` (toolcall.Renderer.ApprovedPlan). ReplayWith lets the caller swap a message's
//     updates for its own (the AIR session failure replay). A Replayer
//     replays one message at a time, for a caller that sends each
//     message's updates to a session of its own. MessageText is the text
//     of a stored API message (the adapter's compaction replay reads a
//     compaction summary with it).
//   - Subagents reads the metadata files of a session's subagent
//     transcripts (<session>/subagents/agent-<id>.meta.json: the launching
//     tool use, name, type, description, background launch, and the
//     directory it ran in when the metadata places it: Subagent.Cwd, the
//     first absolute cwd of its transcript's rows, else the metadata's);
//     ReadSubagent reads one subagent's transcript as the SDK's
//     getSubagentMessages gives it (the chain that ends at its last
//     message, meta rows kept, a fork child's inherited context cut), each
//     message with its launch as ParentToolUseID, whose updates the
//     Replayer stamps `_meta.claudeCode.parentToolUseId` (contract:
//     "Native subagent sessions", the AIR replay of a loaded session).
//   - List is one `session/list` page (PageSize sessions, "offset:N"
//     cursors, newest first; a bad cursor or a relative cwd is a
//     *ParamsError for invalidParams), built from the first and last
//     64 KiB of each transcript (Stat reads the same Info for one
//     session).
//   - Delete removes a session's transcript and its sidecar directory.
//   - Fork copies a transcript into a new session to resume.
//
// Not modelled: the AIR forms (fork points, the session index, archived
// sessions, compaction entities; the native subagent replay is the
// adapter's, on Subagents and ReadSubagent), queued-command attachments
// (also in a subagent transcript) and other trailing rows after the
// leaf, sessions "continued in" another one, the SDK's check that a
// listed session's recorded cwd is the listed directory, git worktree
// listings, and remote session stores.
package history
