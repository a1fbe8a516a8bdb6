package conform

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/reports"
	"github.com/airwire/airwire/schemas/validate"
)

// runOf is the report's view of one finished run (or of a scenario file
// that did not load): its status before the baseline, the sections it
// covers, its files, its validator findings and why it failed.
func runOf(o outcome, g *golden.Golden, keep bool) reports.Run {
	if o.file != "" {
		return reports.Run{Scenario: strings.TrimSuffix(filepath.Base(o.file), ".yaml"), Status: reports.StatusFail,
			Failure: &reports.Failure{Check: reports.CheckLoad, Message: o.err.Error()}}
	}
	name := conform.GoldenName(o.sc, o.p)
	run := reports.Run{Scenario: o.sc.Name, Profile: string(o.p), Status: reports.StatusPass,
		DurationMS: o.took.Milliseconds(), Covers: o.sc.Covers, Golden: g.File(name), Deviations: len(o.out.Deviations),
		LeftOut: len(o.out.LeftOut)}
	run.Transcript = lines(o.out.Compared)
	if keep && o.err != nil && o.out.Dir != "" {
		run.Journal = filepath.Join(o.out.Dir, "journal.jsonl")
	}
	known, _ := conform.LoadKnownFindings(g.Dir()) // Check failed already if it does not load
	for _, f := range o.out.AgentFindings {
		run.Findings = append(run.Findings, findingOf(name, o.out.Agent, f, known))
	}
	if o.err != nil {
		run.Status = reports.StatusFail
		run.Failure = failureOf(o, run.Golden, run.Findings)
	}
	return run
}

func findingOf(run string, agent conform.AgentID, f validate.Finding, known []conform.KnownFinding) reports.Finding {
	out := reports.Finding{Seq: f.Seq, Method: f.Method, Pointer: f.Pointer, Rule: f.Rule, Section: f.Section,
		Severity: f.Severity.String(), Message: f.Message, Known: f.Severity != validate.SeverityError}
	for _, k := range known {
		out.Known = out.Known || k.Matches(run, agent, f)
	}
	return out
}

// failureOf attributes a run's error to its check (reports.Check*) and,
// for a golden mismatch, keeps the first difference, all the differences
// up to golden.MaxDiffs and both transcripts
// (the run's as compared, declared deviations masked).
func failureOf(o outcome, goldenFile string, findings []reports.Finding) *reports.Failure {
	f := &reports.Failure{Check: reports.CheckRun, Message: o.err.Error()}
	var mm *golden.MismatchError
	var ce *conform.CassetteError
	switch {
	case errors.Is(o.err, conform.ErrCassetteNotApplicable):
		f.Check = reports.CheckCassette
		if errors.As(o.err, &ce) {
			f.Reasons = ce.Reasons
		}
	case errors.As(o.err, &mm):
		brief := *mm
		brief.Diff = ""
		want := o.out.Expected // as compared
		if want == nil {
			want = readFile(goldenFile)
			if o.out.EditorLane {
				want = conform.EditorLane(want)
			}
		}
		f.Expected, f.Actual = lines(want), lines(o.out.Compared)
		f.Check, f.Message = reports.CheckGolden, strings.TrimSpace(brief.Error())
		f.Difference = differenceOf(golden.Diff{Kind: mm.Kind, Line: mm.Line, GotLine: mm.GotLine, Tag: mm.Tag, Path: mm.Path, Want: mm.Want, Got: mm.Got}, f)
		for _, d := range mm.Diffs {
			f.Differences = append(f.Differences, *differenceOf(d, f))
		}
		f.MoreDifferences = mm.More
	case errors.Is(o.err, golden.ErrMissing):
		f.Check, f.Actual = reports.CheckGolden, lines(o.out.Compared)
	case errors.Is(o.err, conform.ErrAgentInvalid):
		f.Check = reports.CheckValidate
		for _, x := range findings {
			if !x.Known && !slices.Contains(f.Rules, x.Rule) {
				f.Rules = append(f.Rules, x.Rule)
			}
		}
	}
	return f
}

// differenceOf is a difference as the report keeps it: its values clipped
// (reports.ClipPair), the method of its message found in the transcript
// that has the line (the run's for an extra line, else the golden's).
func differenceOf(d golden.Diff, f *reports.Failure) *reports.Difference {
	out := &reports.Difference{Kind: d.Kind, Line: d.Line, Tag: d.Tag, Path: d.Path}
	out.Expected, out.Actual = reports.ClipPair(d.Want, d.Got)
	if d.Kind == golden.Extra {
		out.Method = reports.MethodAt(f.Actual, d.GotLine)
	} else {
		out.Method = reports.MethodAt(f.Expected, d.Line)
	}
	return out
}

func readFile(path string) []byte {
	b, _ := os.ReadFile(path) // Match read it a moment ago
	return b
}

// lines splits a canonical transcript into its lines.
func lines(b []byte) []string {
	b = bytes.TrimSuffix(b, []byte("\n"))
	if len(b) == 0 {
		return nil
	}
	return strings.Split(string(b), "\n")
}
