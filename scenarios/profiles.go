// Package scenarios holds the conformance scenarios (*.yaml, one per run
// script) and the client profiles they run with (profiles.yaml, built in
// here for conform/scenario).
package scenarios

import _ "embed"

// ProfilesFile is the name of the profiles file in the scenarios directory;
// every other *.yaml file there is a scenario.
const ProfilesFile = "profiles.yaml"

// Profiles is profiles.yaml: the clientCapabilities each client profile
// declares in initialize.
//
//go:embed profiles.yaml
var Profiles []byte
