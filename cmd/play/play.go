// Package play implements `airwire play`, the stand-in agent client teams
// launch from their editor (conform/play does the playing).
package play

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/play"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/conform/suitedata"
	"github.com/airwire/airwire/reports"
	"github.com/airwire/airwire/schemas/acp"
	"github.com/airwire/airwire/schemas/air"
	checks "github.com/airwire/airwire/schemas/validate"
)

// PlayOptions are the inputs of `airwire play`.
type PlayOptions struct {
	IO           factory.IOStreams
	Getenv       func(string) string
	Exe          func() (string, error)
	Suite        func() (suitedata.Dirs, error)
	ACPSchemaDir func(ctx context.Context, flag string) (string, error)
	Version      string

	Scenario  string
	Profile   string
	Live      bool
	Workspace string
	Root      string
	Report    string
	Log       string
	Keep      bool
	// List prints the catalogue instead of playing; Section filters it.
	List    bool
	Section string

	Scenarios, Goldens string
	ACPSchema          string
	NoValidate         bool
}

// NewCmdPlay builds `airwire play`. runF replaces the behaviour in tests.
func NewCmdPlay(f *factory.Factory, runF func(context.Context, *PlayOptions) error) *cobra.Command {
	opts := &PlayOptions{IO: f.IO, Getenv: f.Getenv, Exe: f.Executable, Suite: f.Suite, ACPSchemaDir: f.ACPSchemaDir, Version: f.Version}
	cmd := &cobra.Command{
		Use:   "play --scenario NAME [--profile plain|zed|air] [--report DIR]",
		Short: "Stand in for an agent: play one scenario to your editor and check what the editor sends",
		Long:  playLong,
		Example: `  # the catalogue: which scenario shows what
  airwire play --list
  airwire play --list --section "Permission presentation"

  # in the editor's agent settings: command "airwire", these arguments
  airwire play --scenario edit-with-permission --report /tmp/play-report

  # a client team's CI: a scripted client drives play; exit 1 on a broken obligation
  my-acp-client --agent "airwire play --scenario read --profile plain --report out/"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !opts.List && opts.Scenario == "" {
				return cmdutil.FlagErrorf("--scenario NAME is required (airwire play --list shows the scenarios)")
			}
			if opts.Profile != "" && !scenario.KnownProfile(scenario.Profile(opts.Profile)) {
				return cmdutil.FlagErrorf("--profile: want one of %s, got %q", strings.Join(scenario.ProfileNames(), ", "), opts.Profile)
			}
			if opts.Section != "" && !opts.List {
				return cmdutil.FlagErrorf("--section filters --list")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runPlay(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Scenario, "scenario", "", "the scenario to play (`NAME`, see --list)")
	fl.StringVar(&opts.Profile, "profile", "", "whose recording answers: plain, zed, air or a variant the scenario runs (default: what the editor's initialize declares)")
	fl.BoolVar(&opts.Live, "live", false, "run the real Claude CLI against airwire's mock model API instead of the recording")
	fl.StringVar(&opts.Workspace, "workspace", "", "the session `DIR` the editor opens, which gets the scenario's files (default: a new temporary one)")
	fl.StringVar(&opts.Root, "root", "", "lay the stand-in out in `DIR` (HOME DIR/home, TMPDIR DIR/tmp, workspace DIR/work); default: a new temporary directory, removed at the end")
	fl.StringVar(&opts.Report, "report", "", "write the client report into `DIR`: report.json, junit.xml, index.html, journal.html, journal.jsonl")
	fl.StringVar(&opts.Log, "log", "", "also append play's notes and findings to `FILE`")
	fl.BoolVar(&opts.Keep, "keep", false, "keep the play's temporary directory (journal, logs, workspace) and say where")
	fl.BoolVar(&opts.List, "list", false, "list the scenarios: contract sections, profiles and what the editor will see")
	fl.StringVar(&opts.Section, "section", "", "with --list, only the scenarios of this contract `SECTION` (and its subsections)")
	fl.StringVar(&opts.Scenarios, "scenarios", "", "scenario `DIR` (default: the scenarios built into airwire)")
	fl.StringVar(&opts.Goldens, "goldens", "", "goldens `DIR` with the recordings (default: the goldens built into airwire)")
	fl.StringVar(&opts.ACPSchema, "acp-schema", "", "`DIR` holding the pinned schema.json and schema.unstable.json (default: $AIRWIRE_ACP_SCHEMA_DIR, else the user cache)")
	fl.BoolVar(&opts.NoValidate, "no-validate", false, "play without checking the editor's messages")
	return cmd
}

const playLong = `Stand in for an ACP agent: your editor launches "airwire play" as its agent,
and play answers it as airwire's own agent does in one scenario, with the
scenario's recorded Claude Code CLI side. No model account and no Claude CLI
are needed: play brings its own CLI side and ignores any model endpoint or
CLI in its environment.

Whatever you type, the scenario's model turns answer in order: the first
prompt gets the scenario's first turn, and so on; tool permissions, cancels,
mode changes and session methods work as with the real agent. Past the
scenario's last turn each prompt gets a short text answer, noted on stderr.
With --live the real Claude CLI (the one "make deps" installs, or
$AIRWIRE_REFERENCE_CLI) runs against airwire's mock model API instead.

The profile (plain, zed, air, or a variant such as air-minimal that the
scenario runs) picks whose recording answers; by default play reads it from
the editor's initialize: the scenario's profile whose declaration it
repeats exactly, else air for an editor that declares _meta.jetbrains.air,
zed for one that declares terminal auth, plain otherwise.

Every message is checked as it passes, against the pinned ACP schema, the
AIR contract and the editor's obligations (every agent request answered
once, permissions answered with an offered optionId, pending requests
answered cancelled after session/cancel, no prompt to an unknown or closed
session, only advertised goal actions, session-list cursors passed back
unchanged, only declared capabilities). Findings print on stderr (and
into --log FILE) as they happen, never on the protocol stream. At the end, --report DIR writes the
client report (JSON, JUnit, HTML and the journal view of the whole
conversation), and play exits 1 when the editor broke an obligation.

play ends, with every process it started, when the editor closes stdin or
on Ctrl-C.`

func runPlay(ctx context.Context, opts *PlayOptions) error {
	if opts.Log != "" {
		f, err := os.OpenFile(opts.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("--log: %w", err)
		}
		defer f.Close()
		opts.IO.ErrOut = io.MultiWriter(opts.IO.ErrOut, f)
	}
	scenarios, goldens, err := opts.dataDirs()
	if err != nil {
		return err
	}
	if opts.List {
		return list(opts, scenarios, goldens)
	}
	sc, err := loadScenario(scenarios, opts.Scenario)
	if err != nil {
		return err
	}
	exe, err := opts.Exe()
	if err != nil {
		return fmt.Errorf("cannot find the airwire binary: %w", err)
	}
	po := play.Options{Airwire: exe, Scenario: sc, Profile: scenario.Profile(opts.Profile), Goldens: goldens,
		Workspace: opts.Workspace, Root: opts.Root, Live: opts.Live, In: opts.IO.In, Out: opts.IO.Out, ErrOut: opts.IO.ErrOut}
	if opts.Live && sc.Live() {
		if po.RealCLI, err = conform.RealCLI(opts.Getenv, "."); err != nil {
			return err
		}
	}
	newValidator, err := opts.validator(ctx)
	if err != nil {
		return err
	}
	po.Validator = newValidator()
	res, err := play.Run(ctx, po)
	if res != nil {
		defer opts.cleanup(res)
	}
	if err != nil {
		return err
	}
	return opts.finish(res, sc, newValidator())
}

// finish writes the report and turns a broken obligation into exit 1.
func (opts *PlayOptions) finish(res *play.Result, sc *scenario.Scenario, v *checks.Validator) error {
	fmt.Fprintf(opts.IO.ErrOut, "airwire play: %s/%s ended: %s (the scenario has %d), agent %s\n",
		res.Scenario, res.Profile, cmdutil.Plural(res.Prompts, "prompt", "prompts"), res.Turns, res.AgentExit)
	if opts.Report != "" {
		if _, err := play.WriteReport(res, play.ReportOptions{Dir: opts.Report, Airwire: opts.Version, Validator: v, Covers: sc.Covers}); err != nil {
			return fmt.Errorf("writing the report: %w", err)
		}
		fmt.Fprintf(opts.IO.ErrOut, "airwire play: report: %s\n", filepath.Join(opts.Report, reports.HTMLFile))
	}
	if res.EditorBroke() {
		return cmdutil.Mismatchf("the editor broke its side of the contract (the findings above say where)")
	}
	return nil
}

func (opts *PlayOptions) cleanup(res *play.Result) {
	if !res.Owned {
		return
	}
	if opts.Keep {
		fmt.Fprintf(opts.IO.ErrOut, "airwire play: kept %s\n", res.Dir)
		return
	}
	_ = os.RemoveAll(res.Dir)
}

// validator returns a maker of fresh validators (nil validators with
// --no-validate); a schema that cannot be loaded stops play before it
// starts, so that checking is never skipped silently.
func (opts *PlayOptions) validator(ctx context.Context) (func() *checks.Validator, error) {
	if opts.NoValidate {
		return func() *checks.Validator { return nil }, nil
	}
	dir, err := opts.ACPSchemaDir(ctx, opts.ACPSchema)
	if err != nil {
		return nil, fmt.Errorf("the ACP schema the editor's messages are checked against: %w (--no-validate plays without checking)", err)
	}
	a, err := acp.LoadDir(dir, true)
	if err != nil {
		return nil, err
	}
	set, err := air.Load()
	if err != nil {
		return nil, err
	}
	return func() *checks.Validator { return checks.New(a, set) }, nil
}

// loadScenario loads dir/NAME.yaml, naming the catalogue when it is not
// there.
func loadScenario(dir, name string) (*scenario.Scenario, error) {
	p := filepath.Join(dir, name+".yaml")
	if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
		return nil, cmdutil.FlagErrorf("--scenario: no scenario %q in %s (airwire play --list shows them)", name, dir)
	}
	return scenario.Load(p)
}
