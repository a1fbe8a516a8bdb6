// Package subagents is contract "Native subagent sessions": a client that
// declares `clientCapabilities.subagents` (the draft ACP subagent RFD), or
// an AIR client that declares `nativeSubagentSessions`, gets each Agent or
// Task subagent as a native ACP child session. A client that is not AIR
// gets the RFD form (`subagent_update`, `session_message`); an AIR client
// the AIR form (`subagent_spawned`, `subagent_state_update`).
//
// Use: New(host, root, cwd, caps) once per session; the session holds the
// Router and calls it under its translator's lock. Initialize sets what
// the CLI's initialize says of subagents (the subagent configuration hook,
// which calls HookReport; forwarded subagent text); ToolUpdate, Assistant
// and Frame take the CLI's frames, ResumeDeferred goes before each; ParentCancelled takes a cancel of the root session,
// ChildTask a cancel of a child session, OpenRequest a permission or
// question request; ChildSession and RouteOfCall tell where a child's
// requests and async tasks go. On `session/load`, Replay rebuilds the
// child sessions and returns the Loaded state that PublishStates and
// PublishModels finish after the load's answer. The Host gives the
// Router the session's notifications, configuration and transcript.
//
// Files: router.go (Router, Host, the CLI initialize, the entry points),
// route.go (the routing of updates to child sessions, and the updates
// that wait for a child), lifecycle.go (a child's start and end),
// config.go (a child's configuration options), restore.go (a new
// generation of an agent that runs again, and the restore of one from
// before a load or resume: the restorer part), load.go and replay.go
// (the AIR replay on `session/load`), rfd.go (what the RFD form does
// differently: the rfdForm part), rfd_cwd.go (a child's working
// directory), rfd_restore.go (the RFD restore of an agent from before a
// load or resume), rfd_replay.go and rfd_replay_cwd.go (the RFD replay
// on `session/load`).
package subagents
