// Package airwire holds the data built into the airwire binary: the
// conformance scenarios (scenarios/*.yaml) and their goldens and cassettes
// (goldens/), so that a binary from `go install …/cmd/airwire@latest` runs
// the suite from any directory. cmd/airwire, the only importer, hands them
// to conform/suitedata, which unpacks them for `airwire conform`; the AIR
// schemas are built in by schemas/air, the PIN of
// the ACP schema by schemas/acp.
package airwire

import "embed"

// Scenarios holds scenarios/*.yaml.
//
//go:embed scenarios/*.yaml
var Scenarios embed.FS

// Goldens holds goldens/: <scenario>/<profile>.golden and .cassette, and the
// declarations beside them (agent-deviations.json, known-findings.json,
// DEVIATIONS.md).
//
//go:embed goldens
var Goldens embed.FS
