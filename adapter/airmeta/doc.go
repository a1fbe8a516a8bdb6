// Package airmeta builds the `_meta.jetbrains.air` namespace of the
// JetBrains AIR extensions (contract: "AIR metadata keys").
//
// Every AIR payload goes into `_meta.jetbrains.air` next to `version: 1`,
// merged into an existing `_meta` without touching its other namespaces
// (`claudeCode`, `terminal_*`, `steering`, ...) or the other keys of
// `jetbrains` and `jetbrains.air`. The package decides no gate: the caller
// sends an AIR key only to a client whose caps.Client.AIR.Client is true
// (and, for a gated key, whose AIR.Has(capability) holds).
//
// Entry points:
//
//	Merge(meta map[string]any, key, payload) → meta with jetbrains.air.<key>
//	MergeJSON(meta json.RawMessage, key, payload) → the same on raw JSON
//	Payload(meta, key) → the payload a _meta carries at jetbrains.air.<key>
package airmeta
