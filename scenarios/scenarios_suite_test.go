package scenarios_test

import (
	"cmp"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/schemas/validate"
)

// Flags, passed after -- with the ginkgo CLI (ginkgo -- -agent "…").
// goldie registers -update itself; conform/golden reads it.
var (
	agentFlag   = flag.String("agent", "", "adapter command under test (default: $"+conform.EnvAgent+", else the reference adapter from .deps)")
	keepFlag    = flag.Bool("keep", false, "keep each run's directory (journal, fake CLI log) and print its path")
	timeoutFlag = flag.Duration("run-timeout", 2*time.Minute, "NodeTimeout of each scenario × profile entry")
	liveFlag    = flag.Bool("live", false, "run model scenarios through the real Claude CLI (make deps) and a mock model API instead of their cassettes")
)

// goldensDir is where goldens live, relative to this package.
const goldensDir = "../goldens"

// loaded holds every scenario file; it is filled in TestScenarios before
// RunSpecs, so that the table below can be built from it.
var loaded []*scenario.Scenario

func TestScenarios(t *testing.T) {
	g := NewGomegaWithT(t)
	scs, err := scenario.LoadDir(".")
	g.Expect(err).NotTo(HaveOccurred(), "every scenarios/*.yaml must load and validate")
	g.Expect(scs).NotTo(BeEmpty(), "no scenarios/*.yaml")
	loaded = scs
	RegisterFailHandler(Fail)
	RunSpecs(t, "Scenarios Suite", Label("scenarios"))
}

// airwireBin is built once (on process 1) and shared with every process.
var (
	airwireBin string
	agentArgv  []string
	realCLI    string
	// referenceUnderTest: no -agent and no $AIRWIRE_CONFORM_AGENT, so the
	// suite runs the reference adapter of .deps, whose recorded goldens
	// it checks (see attemptsOf).
	referenceUnderTest bool
)

var _ = SynchronizedBeforeSuite(func() []byte {
	bin, err := gexec.Build("github.com/airwire/airwire/cmd/airwire")
	Expect(err).NotTo(HaveOccurred())
	return []byte(bin)
}, func(bin []byte) {
	airwireBin = string(bin)
	cmd := *agentFlag
	if cmd == "" {
		cmd = os.Getenv(conform.EnvAgent)
	}
	var err error
	if cmd != "" {
		agentArgv, err = conform.SplitCommand(cmd)
		if wd, werr := os.Getwd(); err == nil && werr == nil {
			agentArgv = conform.ResolveAgent(agentArgv, wd) // a relative agent path names a file here
		}
	} else {
		agentArgv, err = conform.DefaultAgent(os.Getenv, ".")
		referenceUnderTest = true
	}
	Expect(err).NotTo(HaveOccurred())
	Expect(agentArgv).NotTo(BeEmpty())
	if *liveFlag {
		realCLI, err = conform.RealCLI(os.Getenv, ".")
		Expect(err).NotTo(HaveOccurred())
	}
})

var _ = SynchronizedAfterSuite(func() {}, func() { gexec.CleanupBuildArtifacts() })

// referenceAttempts is how many times the suite runs a scenario against
// the reference adapter before it fails it. The reference is a node
// process: with both cores busy (make test runs the suites two at a time)
// its output order follows the event loop's timing, and a scenario it
// passes alone can lose twice in a row (removed-keys/zed, a Skill call's
// update overtaken by the next, lost 2 of 2 attempts in a make test run).
// Each lost attempt is reported; one that never matches still fails.
const referenceAttempts = 3

// attemptsOf is how many times the suite runs sc before it fails it (the
// suite's --flake-attempts would override a decorator): a declared
// reference race runs until the reference wins it, any scenario runs
// referenceAttempts times against the reference, and once against any
// other adapter.
func attemptsOf(sc *scenario.Scenario) int {
	switch {
	case sc.ReferenceRace != "":
		return scenario.ReferenceRaceAttempts
	case referenceUnderTest:
		return referenceAttempts
	}
	return 1
}

// labels are a scenario's covers verbatim plus the profile and lane sets.
func labels(sc *scenario.Scenario, p scenario.Profile) Labels {
	l := Labels{"profile:" + string(p), "lane:client", "lane:cli", "cli:scripted"}
	if sc.Live() {
		l[3] = "cli:real"
	}
	return append(l, sc.Covers...)
}

func entries() []TableEntry {
	var out []TableEntry
	for _, sc := range loaded {
		for _, p := range sc.RunProfiles() {
			out = append(out, Entry(fmt.Sprintf("%s [%s]", sc.Name, p), sc, p, labels(sc, p), NodeTimeout(*timeoutFlag)))
		}
	}
	return out
}

// runOptions are the driver's options for one entry. The driver
// (conform) starts and reaps its own processes rather than through
// gexec.Start, because `airwire conform` runs the same code without Ginkgo;
// the adapter's stderr still goes to GinkgoWriter, every process is in one
// group that is killed on a timeout, and none outlives conform.Run.
func runOptions(sc *scenario.Scenario, p scenario.Profile) conform.Options {
	return conform.Options{Airwire: airwireBin, Agent: agentArgv, Scenario: sc, Profile: p, Stderr: GinkgoWriter, Live: *liveFlag, RealCLI: realCLI}
}

// reportFindings attaches the validator's findings on the agent's messages
// to the spec report. They never fail a spec: the reference's departures
// from the contract are listed in goldens/DEVIATIONS.md, and an adapter is
// gated on them by airwire validate.
func reportFindings(out *conform.Outcome) {
	if out.ValidationSkipped != "" {
		AddReportEntry("validation skipped", out.ValidationSkipped, ReportEntryVisibilityFailureOrVerbose)
		return
	}
	for _, set := range []struct {
		what     string
		findings []validate.Finding
	}{{"the agent's messages", out.AgentFindings}, {"the scenario's own editor messages", out.ScriptedFindings}} {
		if len(set.findings) == 0 {
			continue
		}
		var b strings.Builder
		for _, f := range set.findings {
			b.WriteString(f.String())
			b.WriteByte('\n')
		}
		AddReportEntry(fmt.Sprintf("validator: %d findings on %s", len(set.findings), set.what), b.String(), ReportEntryVisibilityFailureOrVerbose)
	}
}

var _ = Describe("Scenario", func() {
	DescribeTable("matches its golden transcript",
		func(ctx SpecContext, sc *scenario.Scenario, p scenario.Profile) {
			attempts := attemptsOf(sc)
			var out *conform.Outcome
			var err error
			for i := range attempts {
				out, err = conform.Check(ctx, runOptions(sc, p), golden.New(goldensDir), *keepFlag)
				if err == nil || ctx.Err() != nil || i == attempts-1 {
					break
				}
				AddReportEntry(fmt.Sprintf("attempt %d of %d: %s", i+1, attempts, cmp.Or(sc.ReferenceRace, "the reference's timing")), err.Error(), ReportEntryVisibilityFailureOrVerbose)
			}
			if *keepFlag {
				AddReportEntry("run directory", out.Dir)
			}
			reportFindings(out)
			Expect(err).NotTo(HaveOccurred())
		},
		entries(),
	)
})
