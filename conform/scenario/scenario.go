package scenario

import "github.com/airwire/airwire/conform/mockapi"

// Scenario is one scenarios/<name>.yaml file.
type Scenario struct {
	// Name is the scenario's id; it must equal the file's base name without
	// .yaml. Goldens live under goldens/<name>/.
	Name string `yaml:"name" json:"name"`
	// Description is one line saying what the run shows.
	Description string `yaml:"description" json:"description"`
	// Covers lists contract section names (see Sections). They become Ginkgo
	// labels verbatim.
	Covers []string `yaml:"covers" json:"covers"`
	// Profiles lists the client profiles to run (conform/scenario/profiles.yaml).
	// Empty means DefaultProfiles.
	Profiles []Profile `yaml:"profiles,omitempty" json:"profiles,omitempty"`
	// Capabilities changes the profile's clientCapabilities for this scenario.
	Capabilities *CapabilityChange `yaml:"capabilities,omitempty" json:"capabilities,omitempty"`
	// Files is the workspace fixture: relative path → content, written into the
	// session cwd before the run.
	Files map[string]string `yaml:"files,omitempty" json:"files,omitempty"`
	// GeneratedFiles are more workspace files, for bytes a YAML string
	// cannot hold (not UTF-8) or a text too large to spell out: relative
	// path → its FileBytes, written like Files. A path is in one of the two.
	GeneratedFiles map[string]FileBytes `yaml:"generatedFiles,omitempty" json:"generatedFiles,omitempty"`
	// ConfigFiles are files written under the CLI's config directory
	// (CLAUDE_CONFIG_DIR) before the run: relative path → content, for what
	// the Claude CLI keeps there besides transcripts, such as the live
	// registry <config>/sessions/<pid>.json. Paths and contents may use the
	// ConfigFilePlaceholders.
	ConfigFiles map[string]string `yaml:"configFiles,omitempty" json:"configFiles,omitempty"`
	// Transcript is an optional stored Claude session, written under
	// CLAUDE_CONFIG_DIR before the run, for session/load, list and fork.
	Transcript *Transcript `yaml:"transcript,omitempty" json:"transcript,omitempty"`
	// Sessions are more stored sessions, written like Transcript, for
	// session/list paging, archive filters and the list subscription.
	Sessions []Transcript `yaml:"sessions,omitempty" json:"sessions,omitempty"`
	// Client holds the editor's steps and its answers to agent requests.
	Client Client `yaml:"client" json:"client"`
	// Model is the mock model API's script (conform/mockapi). A scenario
	// with a model runs through the real Claude CLI: recorded live against
	// `airwire mock-api`, replayed from its cassette by default. Exactly one
	// of Model and CLI is set.
	Model *mockapi.Script `yaml:"model,omitempty" json:"model,omitempty"`
	// CLI is the scripted fake Claude CLI's script, for what the real CLI
	// cannot be made to do offline.
	CLI CLIScript `yaml:"cli,omitempty" json:"cli"`
	// Scripted says why the scenario is scripted (cli:) rather than driven
	// through the real CLI (model:). Required with cli:.
	Scripted string `yaml:"scripted,omitempty" json:"scripted,omitempty"`
	// ReferenceRace says how the reference adapter races on this scenario
	// on a loaded machine (what it then sends otherwise): the Ginkgo suite
	// runs such a scenario up to ReferenceRaceAttempts times. The golden is
	// what the reference sends when it wins the race; an adapter is still
	// held to it, and `airwire conform` runs it once.
	ReferenceRace string `yaml:"referenceRace,omitempty" json:"referenceRace,omitempty"`
	// Unix says why the scenario's recording holds only on Unix: what the
	// CLI writes there means something else on Windows (a permission
	// rule's //absolute path). On Windows its runs are skipped, with
	// this reason.
	Unix string `yaml:"unix,omitempty" json:"unix,omitempty"`

	// Path is the file the scenario was loaded from (not part of the YAML).
	Path string `yaml:"-" json:"-"`
}

// ReferenceRaceAttempts is how many times the suite runs a scenario with a
// ReferenceRace before it fails it.
const ReferenceRaceAttempts = 6

// Profile names one of the client profiles of the suite, defined in
// conform/scenario/profiles.yaml.
type Profile string

// The profiles every scenario runs by default (see DefaultProfiles).
const (
	// ProfilePlain declares fs read/write, terminal and elicitation.form.
	ProfilePlain Profile = "plain"
	// ProfileZed is plain plus Zed's terminal-auth and terminal_output keys.
	ProfileZed Profile = "zed"
	// ProfileAir is plain plus the terminal_output keys and the
	// _meta.jetbrains.air declaration with every AIR capability.
	ProfileAir Profile = "air"
)

// Live reports whether the scenario runs through the real Claude CLI (it
// has a model script) rather than the scripted fake.
func (s *Scenario) Live() bool { return s.Model != nil }

// RunProfiles returns the profiles the scenario runs with: Profiles, or
// DefaultProfiles.
func (s *Scenario) RunProfiles() []Profile {
	if len(s.Profiles) == 0 {
		return DefaultProfiles()
	}
	return append([]Profile(nil), s.Profiles...)
}

// CapabilityChange adds to or removes from a profile's clientCapabilities.
type CapabilityChange struct {
	// Merge is deep-merged into clientCapabilities (objects merge, other
	// values replace).
	Merge map[string]any `yaml:"merge,omitempty" json:"merge,omitempty"`
	// Remove lists dotted paths to delete, e.g. "_meta.terminal_output".
	Remove []string `yaml:"remove,omitempty" json:"remove,omitempty"`
	// AddAir appends AIR capability names (AIR profile only).
	AddAir []string `yaml:"addAir,omitempty" json:"addAir,omitempty"`
	// WithoutAir removes AIR capability names, e.g. diffPatch (AIR profile only).
	WithoutAir []string `yaml:"withoutAir,omitempty" json:"withoutAir,omitempty"`
}
