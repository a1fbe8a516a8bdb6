package reports

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/conform/scenario"

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
// transcript is the real golden with that one value changed, compared by
// conform/golden as conform compares), and read/air was not run.
func fixture(t testing.TB) *Report {
	t.Helper()
	root := repoRoot(t)
	sc, err := scenario.Load(filepath.Join(root, "scenarios", "bash-foreground.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "goldens", "bash-foreground", "air.golden")
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got := bytes.Replace(want, []byte(`"stopReason":"end_turn"`), []byte(`"stopReason":"cancelled"`), 1)
	mm := golden.Compare(file, want, got)
	if mm.Path != failedStopReason {
		t.Fatalf("the fixture's mismatch is at %q, want %s", mm.Path, failedStopReason)
	}
	r := &Report{Airwire: "test", Agent: "node dist/index.js", Started: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC),
		DurationMS: 4200, Sections: scenario.Sections}
	base := Run{Scenario: sc.Name, Covers: sc.Covers, DurationMS: 900}
	pass, known, fail := base, base, base
	pass.Profile, pass.Status, pass.Golden = "plain", StatusPass, filepath.Join(root, "goldens", sc.Name, "plain.golden")
	fail.Profile, fail.Status, fail.Golden = "air", StatusFail, file
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
