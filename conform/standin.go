package conform

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/airwire/airwire/conform/scenario"
)

// A stand-in is a scenario's agent side set up for an editor that is not
// the driver: `airwire play` runs airwire's agent in it for a real editor.
// It is a run's layout (workspace, HOME, CLAUDE_CONFIG_DIR with the
// scenario's stored sessions and config files) and the scenario's CLI side:
// the scripted fake CLI, the cassette played loosely (prompts answer in
// order whatever their text, no timeout, unrecorded control requests
// answered), or with Live the real CLI against a mock model API whose
// turns answer in order. Nothing of the caller's environment reaches the
// agent: the model API, the CLI and the keys are the stand-in's own.

// StandInOptions are the inputs of NewStandIn.
type StandInOptions struct {
	// Airwire is the airwire binary (the fake CLI is airwire fake-cli).
	Airwire  string
	Scenario *scenario.Scenario
	Profile  scenario.Profile
	// Dir is an empty directory the stand-in owns (keep its path short).
	Dir string
	// Workspace is the session directory the editor opens; "" is Dir/work.
	// The scenario's files are written into it, never over a file with
	// other content.
	Workspace string
	// PATH is the agent's PATH (default: this process's).
	PATH string
	// Live plays a model scenario through RealCLI and a mock model API
	// instead of its Cassette.
	Live     bool
	RealCLI  string
	Cassette string
}

// StandIn is a prepared stand-in; Close stops what it started.
type StandIn struct {
	// Paths are its locations; Paths.Cwd is the workspace.
	Paths Paths
	// Env is the whole environment of the agent.
	Env []string
	d   *driver
}

// NewStandIn lays out the stand-in of o.Scenario with o.Profile.
func NewStandIn(o StandInOptions) (*StandIn, error) {
	if o.Airwire == "" || o.Scenario == nil || o.Dir == "" {
		return nil, errors.New("conform.NewStandIn: Airwire, Scenario and Dir are required")
	}
	if o.PATH == "" {
		o.PATH = os.Getenv("PATH")
	}
	d := &driver{o: Options{Airwire: o.Airwire, Scenario: o.Scenario, Profile: o.Profile, Dir: o.Dir, PATH: o.PATH,
		Live: o.Live, RealCLI: o.RealCLI, Cassette: o.Cassette}, sc: o.Scenario, saved: map[string]any{},
		standIn: true, workspace: o.Workspace}
	if err := d.layout(); err != nil {
		if d.stopModel != nil {
			_ = d.stopModel()
		}
		return nil, err
	}
	return &StandIn{Paths: d.p, Env: d.env(), d: d}, nil
}

// ModelProblems are the requests a live stand-in's mock model API could
// not answer (none for a replayed or scripted one).
func (s *StandIn) ModelProblems() []string { return s.d.modelProblems() }

// Close stops the mock model API of a live stand-in.
func (s *StandIn) Close() error {
	if s.d.stopModel == nil {
		return nil
	}
	stop := s.d.stopModel
	s.d.stopModel = nil
	return stop()
}

// writeWorkspaceFile writes a scenario file; in a workspace the caller
// chose, an existing file must already hold the same content.
func (d *driver) writeWorkspaceFile(p, content string) error {
	if d.workspace != "" {
		old, err := os.ReadFile(p)
		if err == nil && bytes.Equal(old, []byte(content)) {
			return nil
		}
		if err == nil {
			return fmt.Errorf("%s already exists with other content than the scenario's; the scenario writes its files into the workspace: choose an empty directory", p)
		}
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(content), 0o644)
}
