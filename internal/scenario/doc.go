// Package scenario is the Go model of a conformance scenario file
// (scenarios/*.yaml): what the editor does, what the scripted Claude Code CLI
// does, and which contract sections the run exercises.
//
// It owns four things:
//
//   - the data model (scenario.go, client.go, cli.go): name, description,
//     covers, profiles, workspace files, an optional stored session
//     transcript, the client's steps and answers, and the fake CLI's script;
//   - the loader (load.go): strict YAML decoding (unknown keys are errors) and
//     validation, so a bad file is rejected with its path and the field at
//     fault before any spec runs;
//   - the builders (build.go): a script step such as a tool call expands into
//     the frames the real CLI would write (stream events, the consolidated
//     assistant message, the can_use_tool request, hooks, the tool result),
//     in the order observed on the wire;
//   - deterministic ids (ids.go) and the on-disk session layout
//     (transcript.go), shared by the fake CLI and the client driver.
//
// It never spawns a process, opens a socket or talks to an adapter: the fake
// CLI (internal/fakecli) plays a script, and the suite (scenarios/) drives a
// client. Labels in covers are the section names of the AIR contract
// (air-extensions.md), checked against Sections.
package scenario
