package conform

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/reports"
	"github.com/airwire/airwire/schemas/validate"

	"github.com/airwire/airwire/internal/testroot"
)

func repoRoot(t testing.TB) string {
	t.Helper()
	return testroot.Root(t)
}

// goldenRun is a fake conform.Check whose adapter answers exactly what the
// repository's golden of each run says: each run is compared with the
// goldens of the run's golden directory (a copy that the test may have
// changed) by conform/golden, as Check compares.
func goldenRun(t *testing.T) func(context.Context, conform.Options, *golden.Golden, bool) (*conform.Outcome, error) {
	root := repoRoot(t)
	return func(_ context.Context, o conform.Options, g *golden.Golden, _ bool) (*conform.Outcome, error) {
		name := conform.GoldenName(o.Scenario, o.Profile)
		canon, err := os.ReadFile(filepath.Join(root, "goldens", filepath.FromSlash(name)+golden.Suffix))
		if err != nil {
			return nil, err
		}
		warn := validate.Finding{Seq: 2, Dir: validate.DirAgent, Method: "initialize", Pointer: "/result/_meta", Rule: "air-capabilities",
			Section: "Negotiation", Severity: validate.SeverityWarning, Message: "an unknown capability"}
		out := &conform.Outcome{Canon: canon, Compared: canon, AgentFindings: []validate.Finding{warn}}
		return out, g.Match(name, canon)
	}
}

// changedGoldens copies the goldens of scenario, and those of others as
// they are, into a temporary directory, with the first
// `"stopReason":"end_turn"` of scenario's air golden turned into
// "cancelled": the run of scenario/air then fails on that value. It
// returns the directory and the changed line's number.
func changedGoldens(t *testing.T, scenario string, others ...string) (string, int) {
	t.Helper()
	dir := t.TempDir()
	line := 0
	for _, name := range append([]string{scenario}, others...) {
		src := filepath.Join(repoRoot(t), "goldens", name)
		files, err := filepath.Glob(filepath.Join(src, "*.golden"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no goldens in %s: %v", src, err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if name == scenario && filepath.Base(f) == "air.golden" {
				i := bytes.Index(b, []byte(`"stopReason":"end_turn"`))
				line = bytes.Count(b[:i], []byte("\n")) + 1
				b = bytes.Replace(b, []byte(`"stopReason":"end_turn"`), []byte(`"stopReason":"cancelled"`), 1)
			}
			writeFile(t, filepath.Join(dir, name, filepath.Base(f)), b)
		}
	}
	return dir, line
}

// scenarioCopies copies the named scenarios into a temporary directory,
// with their ACP v1 profiles only (the reports' tests count those runs).
func scenarioCopies(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(repoRoot(t), "scenarios", n+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		b = []byte(strings.Replace(string(b), ", plain-v2, air-v2]", "]", 1))
		writeFile(t, filepath.Join(dir, n+".yaml"), b)
	}
	return dir
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestConformReports: a run of the real bash-foreground scenario whose air
// golden was changed writes all three reports, each showing the failing
// run with its difference: the JSON with its golden line and JSON path,
// the JUnit XML as a <failure>, the HTML page in headless Chromium with the
// path in its text and the highlighted line on screen.
func TestConformReports(t *testing.T) {
	fc := newFakeConform(t, nil, nil, nil)
	out := t.TempDir()
	var line int
	fc.opts.Goldens, line = changedGoldens(t, "bash-foreground", "read")
	fc.opts.Scenarios = scenarioCopies(t, "bash-foreground", "read")
	fc.opts.Run = goldenRun(t)
	fc.opts.JSON, fc.opts.JUnit, fc.opts.HTML = filepath.Join(out, "r.json"), filepath.Join(out, "junit.xml"), filepath.Join(out, "html")
	if err := runConform(context.Background(), &fc.opts); !errors.Is(err, cmdutil.ErrMismatch) {
		t.Fatalf("err = %v, want a mismatch\n%s", err, fc.err.String())
	}
	rep, err := reports.Read(fc.opts.JSON)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Summary != (reports.Summary{Total: 6, Pass: 5, Fail: 1}) {
		t.Fatalf("summary %+v", rep.Summary)
	}
	air := rep.Runs[0]
	d := air.Failure.Difference
	if air.ID() != "bash-foreground/air" || air.Failure.Check != reports.CheckGolden || d == nil || d.Line != line || d.Path != "$.result.stopReason" ||
		d.Expected != `"cancelled"` || d.Actual != `"end_turn"` || len(air.Covers) == 0 || len(air.Findings) != 1 || !air.Findings[0].Known {
		t.Fatalf("the failing run in the JSON report: %+v, failure %+v", air, air.Failure)
	}
	junit, err := os.ReadFile(fc.opts.JUnit)
	if err != nil {
		t.Fatal(err)
	}
	want := `<failure message="cause #1: client agent-&gt;editor session/prompt $.result.stopReason: &#34;cancelled&#34; → &#34;end_turn&#34; (1 run)" type="golden">`
	if !strings.Contains(string(junit), want) {
		t.Errorf("the JUnit XML lacks %s:\n%s", want, junit)
	}
	if xmllint, err := exec.LookPath("xmllint"); err == nil {
		xsd := filepath.Join(repoRoot(t), "reports", "testdata", "junit.xsd") // the Jenkins JUnit structure
		if out, err := exec.Command(xmllint, "--noout", "--schema", xsd, fc.opts.JUnit).CombinedOutput(); err != nil {
			t.Errorf("the JUnit XML does not validate: %v\n%s", err, out)
		}
	}
	checkPageInChromium(t, filepath.Join(fc.opts.HTML, reports.HTMLFile), "$.result.stopReason")
}

// baselineCase is one run of alpha and beta (plain and air each) with
// beta/air failing on its golden, against an expected-failures file.
type baselineCase struct {
	name      string
	baseline  string
	wantErr   error
	wantInErr []string
	wantOut   string
}

// TestConformExpectedFailures: a listed failure passes the command; a new
// failure, a failure of another check and a listed run that passes (a
// stale baseline) each fail it, the last naming the file and line to
// remove.
func TestConformExpectedFailures(t *testing.T) {
	mismatch := &golden.MismatchError{File: "goldens/beta/air.golden", Line: 3, Path: "$.result.stopReason", Want: `"end_turn"`, Got: `"cancelled"`}
	tests := []baselineCase{
		{name: "listed failure", baseline: "beta:air: issue 9\n", wantOut: "3 runs match, 1 fails as ",
			wantInErr: []string{"xfail beta/air", "expected failure (", ":1: issue 9)"}},
		{name: "listed with its check", baseline: "beta:air:golden: issue 9\n", wantOut: "3 runs match, 1 fails as "},
		{name: "stale entry", baseline: "beta:air: issue 9\nalpha:plain: issue 10\n", wantErr: cmdutil.ErrMismatch,
			wantInErr: []string{":2: alpha:plain passes now: remove this line (stale expected failure: issue 10)"}},
		{name: "new failure", baseline: "alpha:air: issue 9\n", wantErr: cmdutil.ErrMismatch,
			wantInErr: []string{"FAIL beta/air", ":1: alpha:air passes now"}},
		{name: "another check", baseline: "beta:air:validate: issue 9\n", wantErr: cmdutil.ErrMismatch,
			wantInErr: []string{":1: beta:air:validate expects check validate, but the run failed golden", "FAIL beta/air"}},
		{name: "entries of runs not selected are ignored", baseline: "beta:air: issue 9\n", wantOut: "3 runs match, 1 fails as "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc := newFakeConform(t, []string{"alpha", "beta"}, nil, func(name string) error {
				if name == "beta/air" {
					return mismatch
				}
				return nil
			})
			fc.opts.ExpectedFailures = filepath.Join(t.TempDir(), "known.yaml")
			if err := os.WriteFile(fc.opts.ExpectedFailures, []byte(tt.baseline), 0o644); err != nil {
				t.Fatal(err)
			}
			fc.opts.JSON = filepath.Join(t.TempDir(), "r.json")
			err := runConform(context.Background(), &fc.opts)
			if tt.wantErr == nil && err != nil || tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v\n%s", err, tt.wantErr, fc.err.String())
			}
			for _, s := range tt.wantInErr {
				if !strings.Contains(fc.err.String(), s) {
					t.Errorf("stderr lacks %q:\n%s", s, fc.err.String())
				}
			}
			if !strings.Contains(fc.out.String(), tt.wantOut) {
				t.Errorf("stdout %q lacks %q", fc.out.String(), tt.wantOut)
			}
			checkBetaAirStatus(t, fc.opts.JSON, tt.wantErr == nil)
		})
	}
}

// checkBetaAirStatus: beta/air is expected-fail in the JSON report when the
// command passed, and fail when an entry did not match it.
func checkBetaAirStatus(t *testing.T, path string, passed bool) {
	t.Helper()
	rep, err := reports.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Runs {
		if r.ID() == "beta/air" && passed && r.Status != reports.StatusExpectedFail {
			t.Errorf("beta/air is %s in the report, want expected-fail", r.Status)
		}
	}
}

// TestConformShards: the runs of the real scenarios, split in 4 shards by
// golden line count and then by the durations of an earlier report, are
// each run by exactly one shard, and the merged shard reports hold them
// all.
func TestConformShards(t *testing.T) {
	all := shardRuns(t, "", "")
	if len(all) < 100 {
		t.Fatalf("only %d runs in the whole suite", len(all))
	}
	durations := durationsReport(t, all)
	for _, weights := range []string{"", durations} {
		seen := map[string]int{}
		var parts []*reports.Report
		for i := 1; i <= 4; i++ {
			json := filepath.Join(t.TempDir(), "shard.json")
			for _, id := range shardRuns(t, fmt.Sprintf("%d/4", i), weights, json) {
				seen[id]++
			}
			r, err := reports.Read(json)
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, r)
		}
		for _, id := range all {
			if seen[id] != 1 {
				t.Errorf("durations %q: %s ran in %d shards", weights, id, seen[id])
			}
		}
		if len(seen) != len(all) {
			t.Errorf("durations %q: the shards ran %d runs, the suite has %d", weights, len(seen), len(all))
		}
		merged, err := reports.Merge(parts...)
		if err != nil || merged.Summary.Total != len(all) || merged.Summary.Pass != len(all) {
			t.Errorf("merged: %v, summary %+v", err, merged.Summary)
		}
	}
}

// shardRuns runs the real scenarios (all passing, faked) as --shard shard
// with --durations durations and returns the runs started; json, if
// given, receives the report.
func shardRuns(t *testing.T, shard, durations string, json ...string) []string {
	t.Helper()
	fc := newFakeConform(t, nil, nil, func(string) error { return nil })
	fc.opts.Scenarios, fc.opts.Goldens = filepath.Join(repoRoot(t), "scenarios"), filepath.Join(repoRoot(t), "goldens")
	fc.opts.Shard, fc.opts.Durations = shard, durations
	if len(json) > 0 {
		fc.opts.JSON = json[0]
	}
	if err := runConform(context.Background(), &fc.opts); err != nil {
		t.Fatalf("--shard %s: %v\n%s", shard, err, fc.err.String())
	}
	return fc.runs
}

// durationsReport writes a report that gives each run a duration of its own
// (from a hash of its name), for --durations.
func durationsReport(t *testing.T, ids []string) string {
	t.Helper()
	r := &reports.Report{Agent: "a"}
	for _, id := range ids {
		h := fnv.New32a()
		h.Write([]byte(id))
		sc, p, _ := strings.Cut(id, "/")
		r.Add(reports.Run{Scenario: sc, Profile: p, Status: reports.StatusPass, DurationMS: int64(500 + h.Sum32()%20000)})
	}
	path := filepath.Join(t.TempDir(), "durations.json")
	if err := r.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	return path
}
