// Package air holds airwire's JSON Schemas (draft-07) for every
// _meta.jetbrains.air payload and the JetBrains shared keys, written from the
// contract air-extensions.md, and compiles them once per process.
//
// Each *.schema.json file has an $id, a description that names its contract
// section (also in x-contract-section), and examples that must pass.
// testdata/negative/<name>.json holds at least one failing instance per
// required rule, each tagged with the expected "keyword@pointer".
//
// Sections covered: "Client declaration", "Agent declaration", "AIR metadata
// keys", "JetBrains shared keys", "Goal", "Diff patch", "Permission
// presentation", "Recommended config values", "Async tasks", "Agent
// file-change report", "Session failure", "Native subagent sessions",
// "Session index", "Context compaction", "Question custom answers",
// "Session fork point", "Presentation hints", "Tool call contract",
// "Claude tools and ACP fields".
//
// The package only knows shapes. Where a payload may appear, and the rules
// a schema cannot express, live in schemas/validate.
package air
