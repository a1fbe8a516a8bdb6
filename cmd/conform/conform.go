// Package conform implements `airwire conform`: run the conformance
// scenarios against an ACP adapter command and compare every run with its
// golden transcript. It runs the same driver, normalizer and goldens as
// `go test ./scenarios/...` (conform, conform/golden), without
// Ginkgo, so it needs no Go toolchain.
package conform

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/conform/suitedata"
	"github.com/airwire/airwire/reports"
	"github.com/airwire/airwire/schemas/validate"
)

// ConformOptions are the inputs of `airwire conform`.
type ConformOptions struct {
	IO     factory.IOStreams
	Getenv func(string) string
	Exe    func() (string, error)
	Now    func() time.Time
	// ACPSchemaDir finds the pinned ACP schema from the --acp-schema value
	// (factory.Factory.ACPSchemaDir).
	ACPSchemaDir func(ctx context.Context, flag string) (string, error)
	// Suite unpacks the built-in scenarios and goldens
	// (factory.Factory.Suite).
	Suite func() (suitedata.Dirs, error)

	// Agent is the adapter command line (split like a shell, no expansion).
	Agent string
	// Reference runs the reference adapter installed by make deps instead
	// of the default, this airwire's own `airwire agent`.
	Reference bool
	// Scenario is a glob over scenario names ("" = all).
	Scenario string
	// Profile limits the runs to one profile ("" = each scenario's profiles).
	Profile string
	// Update rewrites the goldens instead of comparing.
	Update bool
	// Scenarios and Goldens are the directories ("" = the ones built into
	// airwire; Goldens with Update: ./goldens).
	Scenarios string
	Goldens   string
	// ACPSchema is the --acp-schema directory ("" = the usual places).
	ACPSchema string
	// NoValidate compares without validating the runs' messages.
	NoValidate bool
	// Jobs is how many runs go at once.
	Jobs int
	// Timeout bounds one run.
	Timeout time.Duration
	// Keep keeps the directory of failed runs.
	Keep bool
	// Live runs the model scenarios through the real Claude CLI and a mock
	// model API instead of replaying their cassettes.
	Live bool
	// FailFast stops at the first failed run: no new run starts and the
	// running ones are cancelled (not counted as failures).
	FailFast bool
	// EditorLane compares the editor lane only (conform.Options.EditorLane).
	EditorLane bool

	// JSON, JUnit and HTML are where the reports go ("" = not written):
	// two files and a directory (reports.Report).
	JSON, JUnit, HTML string
	// ExpectedFailures is the expected-failures baseline file ("" = none).
	ExpectedFailures string
	// Shard is "i/n": run only the i-th of n parts of the selected runs.
	Shard string
	// Durations is an earlier JSON report whose run durations balance the
	// shards ("" = weigh each run by its golden's line count).
	Durations string
	// Version is this airwire's version, written into the reports.
	Version string

	// Getwd is the directory relative paths of the agent command are
	// resolved against (os.Getwd); LookPath finds its executable
	// (exec.LookPath).
	Getwd    func() (string, error)
	LookPath func(string) (string, error)

	// Run replaces conform.Check in tests.
	Run func(ctx context.Context, o conform.Options, g *golden.Golden, keep bool) (*conform.Outcome, error)
}

// NewCmdConform builds `airwire conform`. runF replaces the behaviour in tests.
func NewCmdConform(f *factory.Factory, runF func(context.Context, *ConformOptions) error) *cobra.Command {
	opts := &ConformOptions{IO: f.IO, Getenv: f.Getenv, Exe: f.Executable, Now: f.Now, Run: conform.Check,
		ACPSchemaDir: f.ACPSchemaDir, Suite: f.Suite, Getwd: os.Getwd, LookPath: exec.LookPath, Version: f.Version}
	cmd := &cobra.Command{
		Use:   "conform [--agent CMD] [--scenario GLOB] [--profile NAME] [--update]",
		Short: "Run the conformance scenarios against an ACP adapter and compare with the goldens",
		Long: `Run every scenario (scenarios/*.yaml) with each of its client profiles
(plain, zed, air by default; a scenario may add variants such as
air-minimal, defined in conform/scenario/profiles.yaml) against the adapter command, and compare the canonical
transcript of each run (both lanes: editor <-> agent, agent -> Claude CLI)
with goldens/<scenario>/<profile>.golden.

Each run is isolated: a temporary HOME, CLAUDE_CONFIG_DIR and workspace,
IS_SANDBOX=1, and its own Claude CLI as CLAUDE_CODE_EXECUTABLE. The adapter
runs behind "airwire record --cli-lane". Of conform's own environment only
$NODE_V8_COVERAGE reaches the adapter (made absolute): Node then writes
each run's V8 coverage there (make reach, docs/reach.md).

Where the CLI comes from:
  - a scenario with "model:" (what the model answers) was recorded through
    the real Claude Code CLI against airwire's mock model API; by default its
    run replays that recording, goldens/<scenario>/<profile>.cassette, with
    "airwire fake-cli" (fast, deterministic, no model, no real CLI needed);
  - with --live it runs the real CLI (installed by "make deps") against
    "airwire mock-api" instead, under "airwire record --model-lane" too;
    --live --update re-records its golden and its cassette;
  - a scenario with "cli:" (and "scripted:", saying why) runs airwire's
    scripted fake CLI, for what the real CLI cannot be made to do offline.

Without --agent, the adapter is $AIRWIRE_CONFORM_AGENT, else airwire's own
ACP agent ("airwire agent", run from this executable). --reference runs the
reference adapter instead ($AIRWIRE_NODE running $AIRWIRE_REFERENCE_ADAPTER,
the adapter's dist/index.js; in an airwire checkout "make deps" installs
both and writes them to .deps/paths.env, which conform reads there); so
does --update without --agent, since goldens are recorded from the
reference. --reference and --agent exclude each other.

The scenarios, goldens and cassettes are the ones built into this airwire,
unpacked once into the user cache directory (~/.cache/airwire/suite/);
--scenarios DIR and --goldens DIR use others. --update writes into
--goldens DIR, by default ./goldens (run it in a checkout).

Every message of every run is validated against the pinned ACP schema and
the AIR schemas (as "airwire validate" does): the ACP schema comes from
--acp-schema DIR, else $AIRWIRE_ACP_SCHEMA_DIR, else the user cache, which
the first run fills with npm pack. When it cannot be found, conform stops
before any run; --no-validate compares without validating.

An adapter other than the reference may keep a difference on purpose: it
is declared in goldens/agent-deviations.json (the adapter's agentInfo.name,
the message, the JSON paths, the goldens/DEVIATIONS.md entry). Its runs
compare those paths as if they held the golden's values, each run says how
many values that masked, and everything else must match. A declaration
that names its runs ("runs") applies to them only, one with a "when" path
only where that path selects a message ("equals" narrows it to the
messages holding that JSON value there) and pairs those messages (with
"pairOn" it pairs the messages that hold that path instead, for a
difference that removes what "when" looks for), and a declaration fails
every run it applies to where it masks nothing (the difference is gone).
A path may pick array elements by value ([="v"]) or by what the golden's
element holds ([?kind="skill"&!skillPath]). A declaration with "absent":
true, in place of paths, names golden messages the adapter does not send:
in each run it names ("runs", required) the messages it selects are left
out of the golden before the comparison, with the messages holding the
same value at one of its "with" paths and the answers to the requests
left out; the run says how many golden lines that left out, a
difference's line number counts the golden without them, and the run
fails where the golden has no message it selects. One marked "extra"
declares, for the runs it names, messages the adapter sends beyond the
golden's, which are left out of the actual run. --update is
refused for such an adapter: goldens are recorded from the reference.

In the adapter command, {scenario}, {profile}, {cwd} and {root} are
replaced in every run by the run's scenario name, its profile name (plain,
zed, air), its workspace directory (the cwd of its session/new) and the
run's directory (its HOME is {root}/home), as one word or
inside one (--dir={cwd}/sub); the normalizer then knows the run's paths
by the replaced words. So one command line can serve each run with what
it needs, e.g. airwire play, the stand-in that plays a scenario's agent
side itself:
  airwire conform --agent "airwire play --scenario {scenario} --profile {profile} --root {root}" --editor-lane

--editor-lane compares only what the editor sees: the client lines of each
run (editor -> agent, agent -> editor) against those of its golden, with
the masks and the declared deviations that apply to them. The CLI lane,
and whatever else the golden holds for the CLI and model lanes, is not
compared, and the checks that read it are skipped: that a run has a CLI
lane at all, whether a cassette applies, and the declared deviations of a
CLI lane. The adapter's own process must still exit, and its messages are
still validated. The summary says the runs compared the editor lane only.
It is for an adapter whose CLI side is its own (airwire play); --update
refuses it, since goldens hold every lane.

A relative path in the adapter command (./dist/index.js) is resolved
against the directory conform was started in. A scenario file that does
not load is reported and the other runs go on; it fails the command when
--scenario selects it. Each failure is explained as soon as its run ends;
--fail-fast stops at the first. A failed comparison lists all its
differences (up to 20). At the end, the differences of all the failed
runs are grouped by cause (the same change at the same JSON path of the
same method's message, from the same old value to the same new one; the
differences the compared runs only ever show together are one cause, and
so is a cassette refused for the same argv option, or runs that failed
with the same message), each said once with its count of runs and an
example, most runs first; each failed run then names its causes.
When the first runs all end before the
adapter answered initialize, conform stops and says so once, with the
adapter's exit status, its non-JSON output and its stderr.

--run-timeout bounds each run, ending the adapter included.

Reports (any combination; docs/report.md describes them):
  --json FILE   every run (scenario x profile): status (pass, fail, skip,
                expected-fail), duration, the contract sections it covers,
                the differences (golden line and JSON path) and both
                transcripts of a failed comparison, the causes they share,
                validator findings, the
                golden's path and, with --keep, the failed run's journal;
                a versioned format (schema airwire-report/1) that
                "airwire report merge" and "airwire diff" read; the runs'
                transcripts go gzipped into the folder FILE.transcripts/
                beside it, which must stay with it;
  --junit FILE  JUnit XML for a CI's test tab: one testsuite per profile, a
                <failure> per failed run naming its causes;
  --html DIR    DIR/index.html, one static page (no server, nothing loaded):
                the causes of the failures, filters by status, profile and
                section, the matrix of contract sections x profiles, and a
                side-by-side view of the golden and the run for each failure;
                with --keep, each failed run's journal drawn as a picture
                ("airwire journal view") in DIR/journals/, linked.

--expected-failures FILE is a YAML mapping of known failures to reasons:
    bash-background:air: the adapter does not report background tasks yet
    write-new:zed:golden: DEVIATIONS.md 12
    edit-with-permission:air:diff-patch-text: diffPatch text is not sent yet
An entry is scenario:profile (any failure of the run) or
scenario:profile:CHECK, where CHECK says how it must fail:
  golden     the transcript differs from the golden (or it is missing)
  validate   the validator found errors known-findings.json does not list
  RULE       a validator rule id among those errors (e.g. diff-patch-text)
  run        the run did not complete (timeout, agent died or errored)
  cassette   the cassette does not apply: the adapter started the CLI with
             other arguments, or sent it a control request, than the
             recording has (nothing was compared; run it with --live)
A listed failure is reported as expected-fail and does not fail the
command. A failure not listed (or failing another CHECK) exits 1, and so
does a listed run that now passes: the baseline is stale, and conform
names the file and line to remove. An entry naming a scenario the suite
lacks, or a profile its scenario does not run, is an error that names its
file and line. Entries whose runs were not selected
(--scenario, --profile, --shard) are ignored.

--shard i/n runs only the i-th of n parts of the selected runs, for a CI
matrix: the split depends only on the selection and the weights, so the n
jobs together run every run exactly once. The runs are balanced by
duration: --durations FILE reads them from an earlier --json report (a
merged one is best); without it each run weighs its golden's line count.
A scenario file that does not load is reported by shard 1 only. Join the
shards' JSON reports with "airwire report merge".

Exit status: 0 when every run matches (or fails as the baseline expects),
1 on any other mismatch or failed run, or a stale baseline, 2 on a usage
error.`,
		Example: `  airwire conform                                 # airwire agent, every scenario and profile
  airwire conform --reference                     # the reference adapter (make deps)
  airwire conform --agent "node ./dist/index.js" --scenario 'bash-*' --profile air
  airwire conform --scenario write-new --update   # re-record one scenario's goldens
  airwire conform --live                          # the real Claude CLI instead of the cassettes
  airwire conform --live --update                 # re-record goldens and cassettes (make rerecord)
  airwire conform --json r.json --junit junit.xml --html report/
  airwire conform --shard 2/4 --durations last.json --json shard2.json --expected-failures known.yaml
  airwire conform --agent "airwire play --scenario {scenario} --profile {profile} --root {root}" --editor-lane`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Jobs < 1 {
				return cmdutil.FlagErrorf("--jobs must be at least 1")
			}
			if opts.Timeout <= 0 {
				return cmdutil.FlagErrorf("--run-timeout must be positive, got %s", opts.Timeout)
			}
			if opts.Profile != "" && !scenario.KnownProfile(scenario.Profile(opts.Profile)) {
				return cmdutil.FlagErrorf("--profile %q: want one of %s", opts.Profile, strings.Join(scenario.ProfileNames(), ", "))
			}
			if _, err := path.Match(opts.Scenario, ""); err != nil {
				return cmdutil.FlagErrorf("--scenario %q: %v", opts.Scenario, err)
			}
			if _, err := reports.ParseShard(opts.Shard); opts.Shard != "" && err != nil {
				return cmdutil.FlagErrorf("--shard: %v", err)
			}
			if opts.EditorLane && opts.Update {
				return cmdutil.FlagErrorf("--editor-lane and --update exclude each other: goldens hold every lane")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runConform(cmd.Context(), opts)
		},
	}
	cmd.AddCommand(NewCmdPacedCLI(f), NewCmdMCPServer(f))
	cmd.Flags().StringVar(&opts.Agent, "agent", "", "adapter `CMD` line; {scenario}, {profile} and {cwd} name each run's own (default: $AIRWIRE_CONFORM_AGENT, else this airwire's own \"airwire agent\")")
	cmd.Flags().BoolVar(&opts.Reference, "reference", false, "run the reference adapter: $AIRWIRE_NODE with $AIRWIRE_REFERENCE_ADAPTER, or what \"make deps\" installed in a checkout (the default of --update)")
	cmd.Flags().StringVar(&opts.Scenario, "scenario", "", "run only scenarios whose name matches `GLOB`")
	cmd.Flags().StringVar(&opts.Profile, "profile", "", "run only profile `NAME` (plain, zed, air, or a variant of conform/scenario/profiles.yaml)")
	cmd.Flags().BoolVar(&opts.Update, "update", false, "re-record the goldens of the selected runs instead of comparing")
	cmd.Flags().StringVar(&opts.Scenarios, "scenarios", "", "scenario `DIR` (default: the scenarios built into airwire)")
	cmd.Flags().StringVar(&opts.Goldens, "goldens", "", "golden `DIR` (default: the goldens built into airwire; with --update: ./goldens)")
	cmd.Flags().StringVar(&opts.ACPSchema, "acp-schema", "", "`DIR` holding the pinned ACP schema.json and schema.unstable.json (default: $AIRWIRE_ACP_SCHEMA_DIR, else the user cache)")
	cmd.Flags().BoolVar(&opts.NoValidate, "no-validate", false, "compare without validating the runs' messages against the ACP and AIR schemas")
	cmd.Flags().IntVarP(&opts.Jobs, "jobs", "j", 2, "runs at once")
	cmd.Flags().DurationVar(&opts.Timeout, "run-timeout", 2*time.Minute, "time limit of one run")
	cmd.Flags().BoolVar(&opts.Keep, "keep", false, "keep the directory (journal, fake CLI log) of each failed run and print its path")
	cmd.Flags().BoolVar(&opts.FailFast, "fail-fast", false, "stop at the first failed run")
	cmd.Flags().BoolVar(&opts.EditorLane, "editor-lane", false, "compare only the editor lane (client lines) with the goldens; skip the CLI lane and its checks")
	cmd.Flags().BoolVar(&opts.Live, "live", false, "run model scenarios through the real Claude CLI and a mock model API instead of their cassettes")
	cmd.Flags().StringVar(&opts.JSON, "json", "", "write the JSON report to `FILE`")
	cmd.Flags().StringVar(&opts.JUnit, "junit", "", "write JUnit XML to `FILE`")
	cmd.Flags().StringVar(&opts.HTML, "html", "", "write the HTML report into `DIR` (DIR/index.html)")
	cmd.Flags().StringVar(&opts.ExpectedFailures, "expected-failures", "", "YAML `FILE` of runs known to fail (scenario:profile[:check]: reason)")
	cmd.Flags().StringVar(&opts.Shard, "shard", "", "run only part `i/n` of the selected runs (a CI matrix)")
	cmd.Flags().StringVar(&opts.Durations, "durations", "", "an earlier JSON report `FILE` whose durations balance --shard")
	return cmd
}

// job is one scenario × profile.
type job struct {
	sc *scenario.Scenario
	p  scenario.Profile
}

func runConform(ctx context.Context, opts *ConformOptions) error {
	agent, err := agentArgv(opts)
	if err != nil {
		return err
	}
	exe, err := opts.Exe()
	if err != nil {
		return fmt.Errorf("cannot find the airwire binary: %w", err)
	}
	realCLI := ""
	if opts.Live {
		if realCLI, err = conform.RealCLI(opts.Getenv, "."); err != nil {
			return err
		}
	}
	if opts.Scenarios, opts.Goldens, err = dataDirs(opts); err != nil {
		return err
	}
	schemaDir, err := acpSchema(ctx, opts)
	if err != nil {
		return err
	}
	known := map[string][]string{}
	jobs, bad, skipped, err := selectJobs(opts, known)
	if err != nil {
		return err
	}
	g := golden.New(opts.Goldens, golden.WithUpdate(opts.Update))
	baseline, err := loadBaseline(opts, known)
	if err != nil {
		return err
	}
	shard, jobs, bad, err := shardJobs(opts, jobs, bad, g)
	if err != nil {
		return err
	}
	jobs, unix := unixOnly(jobs)
	mode := "comparing with"
	switch {
	case opts.Update:
		mode = "recording"
	case opts.EditorLane:
		mode = "comparing the editor lane only with"
	}
	cliVersion := ""
	if opts.Live {
		mode = "live, " + mode
		if cliVersion, err = conform.CLIVersion(ctx, realCLI); err != nil {
			fmt.Fprintf(opts.IO.ErrOut, "airwire conform: the real Claude CLI's version is unknown: %v\n", err)
		} else {
			mode = "live with Claude CLI " + cliVersion + ", " + strings.TrimPrefix(mode, "live, ")
		}
	}
	for _, b := range skipped {
		fmt.Fprintf(opts.IO.ErrOut, "airwire conform: not run, and not selected anyway: %v\n", b.err)
	}
	for _, j := range unix {
		fmt.Fprintf(opts.IO.ErrOut, "airwire conform: not run on Windows: %s: %s\n", conform.GoldenName(j.sc, j.p), j.sc.Unix)
	}
	fmt.Fprintf(opts.IO.ErrOut, "airwire conform: %s (%s) against %s, %s %s\n",
		cmdutil.Plural(len(jobs), "run", "runs"), cmdutil.Plural(countScenarios(jobs), "scenario", "scenarios"), strings.Join(agent, " "), mode, opts.Goldens)
	env, err := passthroughEnv(opts)
	if err != nil {
		return err
	}
	rep := newReport(opts, agent, shard)
	rep.CLI = cliVersion
	r := newRunner(opts, len(jobs)+len(bad), g, baseline, rep)
	r.unixOnly = len(unix)
	for _, b := range bad {
		r.report(outcome{file: b.path, err: b.err, out: &conform.Outcome{}})
	}
	r.runAll(ctx, jobs, func(j job) conform.Options {
		return conform.Options{Airwire: exe, Agent: agent, Scenario: j.sc, Profile: j.p, Live: opts.Live, RealCLI: realCLI,
			ACPSchemaDir: schemaDir, NoValidate: opts.NoValidate, Env: env, EditorLane: opts.EditorLane}
	}, g)
	err = r.finish(ctx, append(jobs, unix...))
	return errors.Join(err, writeReports(opts, rep))
}

// EnvNodeCoverage is Node's coverage directory. It is the one variable of
// conform's own environment that reaches the adapter (whose environment is
// otherwise isolated): set, every Node process of every run writes its V8
// coverage there, which `make reach` aggregates (docs/reach.md).
const EnvNodeCoverage = "NODE_V8_COVERAGE"

// passthroughEnv is what conform's environment adds to each run's:
// EnvNodeCoverage made absolute, since the adapter runs in the run's own
// workspace.
func passthroughEnv(opts *ConformOptions) ([]string, error) {
	dir := opts.Getenv(EnvNodeCoverage)
	if dir == "" {
		return nil, nil
	}
	if !filepath.IsAbs(dir) {
		wd, err := opts.Getwd()
		if err != nil {
			return nil, err
		}
		dir = filepath.Join(wd, dir)
	}
	return []string{EnvNodeCoverage + "=" + dir}, nil
}

// badScenario is a scenario file that does not load.
type badScenario struct {
	path string
	err  error
}

// selectJobs loads the scenario files one by one and returns the runs that
// --scenario and --profile select. A file that does not load never stops
// the others: it is bad when --scenario selects its name (a failed run),
// skipped otherwise (only reported).
func selectJobs(opts *ConformOptions, known map[string][]string) (jobs []job, bad, skipped []badScenario, err error) {
	paths, err := scenario.Files(opts.Scenarios)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".yaml")
		selected := true
		if opts.Scenario != "" {
			selected, _ = path.Match(opts.Scenario, name)
		}
		sc, err := scenario.Load(p)
		known[name] = runNames(sc, err)
		switch {
		case err != nil && selected:
			bad = append(bad, badScenario{p, err})
			continue
		case err != nil:
			skipped = append(skipped, badScenario{p, err})
			continue
		case !selected:
			continue
		}
		for _, pr := range sc.RunProfiles() {
			if opts.Profile == "" || string(pr) == opts.Profile {
				jobs = append(jobs, job{sc, pr})
			}
		}
	}
	if len(jobs) == 0 && len(bad) == 0 {
		return nil, nil, nil, cmdutil.FlagErrorf("no scenario in %s matches --scenario %q --profile %q", opts.Scenarios, opts.Scenario, opts.Profile)
	}
	return jobs, bad, skipped, nil
}

// unixOnly takes out of jobs, on Windows, the runs of scenarios whose
// recording holds only on Unix (scenario.Scenario.Unix).
func unixOnly(jobs []job) (run, skip []job) {
	if !cassette.OnWindows {
		return jobs, nil
	}
	for _, j := range jobs {
		if j.sc.Unix != "" {
			skip = append(skip, j)
		} else {
			run = append(run, j)
		}
	}
	return run, skip
}

// runNames is the profiles a scenario runs, for checking the baseline's
// entries; nil (any profile) for a file that did not load.
func runNames(sc *scenario.Scenario, err error) []string {
	if err != nil {
		return nil
	}
	var ps []string
	for _, p := range sc.RunProfiles() {
		ps = append(ps, string(p))
	}
	return ps
}

// profileNames is every profile of the suite (conform/scenario/profiles.yaml).
func profileNames() []string { return scenario.ProfileNames() }

// deviationNote says how many values declared deviations masked in a run
// (goldens/agent-deviations.json), how many golden lines they left out,
// and which DEVIATIONS.md entries they stand for, so that no masked
// difference goes unreported.
func deviationNote(ds []conform.AppliedDeviation, left []conform.LeftOut) string {
	note := ""
	if len(ds) > 0 {
		var entries []int
		for _, d := range ds {
			entries = append(entries, d.Entry)
		}
		note = fmt.Sprintf(", %s applied (DEVIATIONS.md %s)", cmdutil.Plural(len(ds), "declared deviation", "declared deviations"), entryList(entries))
	}
	if len(left) > 0 {
		var entries []int
		for _, l := range left {
			entries = append(entries, l.Entry)
		}
		note += fmt.Sprintf(", %s left out (DEVIATIONS.md %s)", cmdutil.Plural(len(left), "golden line", "golden lines"), entryList(entries))
	}
	return note
}

// entryList is the distinct entry numbers, in the order first seen.
func entryList(entries []int) string {
	var out []string
	seen := map[int]bool{}
	for _, e := range entries {
		if !seen[e] {
			seen[e] = true
			out = append(out, fmt.Sprint(e))
		}
	}
	return strings.Join(out, ", ")
}

func countScenarios(jobs []job) int {
	seen := map[string]bool{}
	for _, j := range jobs {
		seen[j.sc.Name] = true
	}
	return len(seen)
}

// agentArgv is the adapter command: --agent, $AIRWIRE_CONFORM_AGENT or the
// reference adapter, with relative paths resolved (conform.ResolveAgent)
// and its executable found before any run starts (unless a run's value
// names it: conform.HasAgentPlaceholder).
func agentArgv(opts *ConformOptions) ([]string, error) {
	argv, err := agentLine(opts)
	if err != nil {
		return nil, err
	}
	wd, err := opts.Getwd()
	if err != nil {
		return nil, err
	}
	argv = conform.ResolveAgent(argv, wd)
	if conform.HasAgentPlaceholder(argv[0]) {
		return argv, nil
	}
	if _, err := opts.LookPath(argv[0]); err != nil {
		return nil, cmdutil.FlagErrorf("--agent: %v", err)
	}
	return argv, nil
}

func agentLine(opts *ConformOptions) ([]string, error) {
	line := opts.Agent
	if opts.Reference && line != "" {
		return nil, cmdutil.FlagErrorf("--reference and --agent exclude each other")
	}
	if line == "" && !opts.Reference {
		line = opts.Getenv(conform.EnvAgent)
	}
	if line != "" {
		argv, err := conform.SplitCommand(line)
		if err != nil {
			return nil, cmdutil.FlagErrorf("--agent: %v", err)
		}
		if len(argv) == 0 {
			return nil, cmdutil.FlagErrorf("--agent is empty")
		}
		return argv, nil
	}
	if !opts.Reference && !opts.Update {
		exe, err := opts.Exe()
		if err != nil {
			return nil, fmt.Errorf("cannot find the airwire binary: %w", err)
		}
		return []string{exe, "agent"}, nil
	}
	argv, err := conform.DefaultAgent(opts.Getenv, ".")
	switch {
	case errors.Is(err, conform.ErrNoAgent) && opts.Reference:
		return nil, cmdutil.FlagErrorf("--reference: %v", err)
	case errors.Is(err, conform.ErrNoAgent):
		return nil, cmdutil.FlagErrorf("--update records from the reference adapter (or the --agent you pass): %v", err)
	}
	return argv, err
}

// dataDirs returns the scenario and golden directories: the flags, else the
// data built into airwire; --update writes into ./goldens by default, never
// into the built-in copy.
func dataDirs(opts *ConformOptions) (scenarios, goldens string, err error) {
	scenarios, goldens = opts.Scenarios, opts.Goldens
	if goldens == "" && opts.Update {
		goldens = "goldens"
		if st, err := os.Stat(goldens); err != nil || !st.IsDir() {
			return "", "", cmdutil.FlagErrorf("--update writes the goldens into ./goldens, which is not a directory here: pass --goldens DIR")
		}
	}
	return suitedata.Fill(scenarios, goldens, opts.Suite)
}

// acpSchema finds the ACP schema the runs are validated against and loads
// it once, so that a missing or broken schema stops conform before any run
// ("" with --no-validate, which it says).
func acpSchema(ctx context.Context, opts *ConformOptions) (string, error) {
	if opts.NoValidate {
		fmt.Fprintln(opts.IO.ErrOut, "airwire conform: --no-validate: the runs' messages are not checked against the ACP and AIR schemas")
		return "", nil
	}
	dir, err := opts.ACPSchemaDir(ctx, opts.ACPSchema)
	if err == nil {
		_, _, err = validate.LoadDir(dir)
	}
	if err != nil {
		return "", fmt.Errorf("%w: %v; pass --no-validate to compare without validating", conform.ErrNoValidation, err)
	}
	return dir, nil
}
