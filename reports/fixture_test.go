package reports

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/airwire/airwire/internal/testroot"
)

func repoRoot(t testing.TB) string {
	t.Helper()
	return testroot.Root(t)
}

// failedStopReason is the JSON path the fixture's failing run differs at.
const failedStopReason = "$.result.stopReason"

// fixture is a report over the real bash-foreground scenario: plain
// passes, zed is an expected failure, air fails because its run answered
// stopReason "cancelled" where the golden says "end_turn" (the run's
// transcript is the real golden with that one value changed, its
// difference written as conform/golden reports one), and read/air was not
// run. It reads the checkout's files itself: reports sits below the
// harness that loads scenarios and compares goldens.
func fixture(t testing.TB) *Report {
	t.Helper()
	root := repoRoot(t)
	sc := loadScenario(t, filepath.Join(root, "scenarios", "bash-foreground.yaml"))
	file := filepath.Join(root, "goldens", "bash-foreground", "air.golden")
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got := bytes.Replace(want, []byte(`"stopReason":"end_turn"`), []byte(`"stopReason":"cancelled"`), 1)
	mm := firstDifference(t, want, got)
	mm.Path, mm.Want, mm.Got = failedStopReason, `"end_turn"`, `"cancelled"`
	r := &Report{Airwire: "test", Agent: "node dist/index.js", Started: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC),
		DurationMS: 4200, Sections: sectionsOf(sc.Covers)}
	base := Run{Scenario: sc.Name, Covers: sc.Covers, DurationMS: 900}
	pass, known, fail := base, base, base
	pass.Profile, pass.Status, pass.Golden = "plain", StatusPass, filepath.Join(root, "goldens", sc.Name, "plain.golden")
	fail.Profile, fail.Status, fail.Golden = "air", StatusFail, file
	fail.Transcript = splitLines(got)
	fail.Failure = &Failure{Check: CheckGolden, Message: "does not match",
		Difference: &Difference{Line: mm.Line, Tag: mm.Tag, Path: mm.Path, Expected: mm.Want, Actual: mm.Got},
		Expected:   splitLines(want), Actual: splitLines(got)}
	fail.Findings = []Finding{{Seq: 4, Method: "initialize", Pointer: "/result/_meta", Rule: "air-capabilities",
		Section: "Negotiation", Severity: "warning", Message: "unknown capability", Known: true}}
	known.Profile, known.Status = "zed", StatusExpectedFail
	known.Failure = &Failure{Check: CheckRun, Message: "the agent died"}
	known.Baseline = &Entry{Scenario: sc.Name, Profile: "zed", Reason: "issue 9", File: "known.yaml", Line: 2}
	for _, run := range []Run{pass, known, fail, {Scenario: "read", Profile: "air", Status: StatusSkip, Covers: []string{"Tool call contract"}}} {
		r.Add(run)
	}
	r.Sort()
	return r
}

func splitLines(b []byte) []string {
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// fixtureScenario is what the fixture takes from a scenario file.
type fixtureScenario struct {
	Name   string   `yaml:"name"`
	Covers []string `yaml:"covers"`
}

func loadScenario(t testing.TB, path string) fixtureScenario {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sc fixtureScenario
	if err := yaml.Unmarshal(data, &sc); err != nil || sc.Name == "" {
		t.Fatalf("%s: %v (name %q)", path, err, sc.Name)
	}
	return sc
}

// sectionsOf lists the contract sections of covers ("Section" and the
// Section of "Section > Subsection"), in order of first appearance.
func sectionsOf(covers []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range covers {
		s, _, _ := strings.Cut(c, " > ")
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// lineDifference is the first differing line of two transcripts: its
// 1-based line, its tag (the words before the JSON), and where and how
// the JSON differs.
type lineDifference struct {
	Line            int
	Tag             string
	Path, Want, Got string
}

func firstDifference(t testing.TB, want, got []byte) lineDifference {
	t.Helper()
	w, g := splitLines(want), splitLines(got)
	for i := range min(len(w), len(g)) {
		if w[i] != g[i] {
			tag, _, _ := strings.Cut(w[i], " {")
			return lineDifference{Line: i + 1, Tag: tag}
		}
	}
	t.Fatal("the fixture's transcripts do not differ")
	return lineDifference{}
}
