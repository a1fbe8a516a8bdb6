// Package wirediff compares two recordings of an ACP adapter and
// classifies every change on the wire, as `buf breaking` does for
// protobuf: each rule (Rules) has a stable UPPER_SNAKE id, a category
// (WIRE, AIR, CLI, ADDITIVE, COSMETIC) and a one-sentence purpose, and a
// team picks the categories that fail its gate (DefaultBreaking is the
// strictest). `airwire diff` (cmd/diff) is its command.
//
// It owns:
//
//   - the inputs (source.go, journal.go): Load reads a golden set
//     (<dir>/<scenario>/<profile>.golden), one golden file, or a journal,
//     which conform.Canonical renders with the suite's own placement and
//     normalization, so every side is canonical text. Loaders is the list
//     of input kinds: a report JSON is added as one more Loader;
//   - the alignment (session.go, align.go): a run splits into sessions
//     (the client lane by sessionId, each CLI process apart), and Align
//     lines up one session with a longest common subsequence of message
//     kinds, so a message is named missing, extra or moved, never compared
//     with an unrelated line;
//   - the classification (compare.go, op.go, rules.go) and the report
//     (diff.go, format.go: text, json, github-actions, markdown).
//
// Contract sections behind the rules: "Compatibility rule" (what a client
// that does not declare AIR must never get: WIRE_AIR_KEY_TO_NON_AIR_CLIENT),
// "Negotiation" (how AIR is declared), "AIR metadata keys" (the AIR
// category is what lives under _meta.jetbrains).
//
// It never normalizes goldens again (they are canonical) beyond masking,
// with conform's own rule (conform.MaskRecorded), the durations and token
// estimates that two recordings measure anew; it never runs an adapter and
// never writes files.
package wirediff
