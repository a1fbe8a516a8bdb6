package conform

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/airwire/airwire/internal/testroot"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/reports"
)

// benchScenarios are the scenarios BenchmarkConformReports runs: three
// replayed model scenarios, each with its three profiles (9 runs). A
// subset keeps `make bench` short; the reports' cost grows with the runs
// as the runs' own cost does, so the ratio holds for the full suite (the
// benchmark of reports.Write* gives the absolute cost for a full-suite
// report).
const benchScenarios = "bash-*"

// TestMain removes the airwire binary the benchmarks built (testroot.Binary).
// With CONFORM_TEST_CLI_VERSION set, the test binary run as `--version` is
// a Claude CLI that prints that version (TestConformLiveNamesTheCLIVersion).
func TestMain(m *testing.M) {
	if v := os.Getenv("CONFORM_TEST_CLI_VERSION"); v != "" && len(os.Args) == 2 && os.Args[1] == "--version" {
		fmt.Println(v + " (Claude Code)")
		os.Exit(0)
	}
	os.Exit(testroot.RunTests(m))
}

// BenchmarkConformReports: airwire conform over benchScenarios against
// `airwire agent`, with --json, --junit and --html and without, in the same
// benchmark, alternating which goes first; one golden is changed so that a
// failed run (with both transcripts in the reports) is among them. It
// reports the ratio of the wall times (target: under 1.05), and, since a
// shared machine makes that ratio noisy, the time the reports' writing
// itself takes (writing the same report again) over a suite's time without
// reports.
//
//	go test -run '^$' -bench ConformReports -benchtime 3x ./cmd/conform/
func BenchmarkConformReports(b *testing.B) {
	opts := benchOptions(b)
	out := b.TempDir()
	// A first run warms the caches (the binary, the schemas): it would
	// otherwise count against whichever arm goes first.
	if err := runConform(context.Background(), opts); err != nil && !errors.Is(err, cmdutil.ErrMismatch) {
		b.Fatal(err)
	}
	var with, without, write time.Duration
	b.ResetTimer()
	for i := range b.N {
		for k := range 2 {
			reportsOn := (i+k)%2 == 0
			o := *opts
			if reportsOn {
				o.JSON, o.JUnit, o.HTML = filepath.Join(out, "r.json"), filepath.Join(out, "junit.xml"), filepath.Join(out, "html")
			}
			t0 := time.Now()
			if err := runConform(context.Background(), &o); err != nil && !errors.Is(err, cmdutil.ErrMismatch) {
				b.Fatal(err)
			}
			if !reportsOn {
				without += time.Since(t0)
				continue
			}
			with += time.Since(t0)
			write += rewrite(b, &o)
		}
	}
	ratio, share := float64(with)/float64(without), float64(write)/float64(without)
	b.ReportMetric(ratio, "reports/none")
	b.ReportMetric(share, "write/suite")
	b.ReportMetric(float64(write)/float64(b.N)/float64(time.Millisecond), "write-ms")
	b.Logf("conform %s (9 runs), %d times each: with the three reports %.2fs, without %.2fs: ratio %.3f (target < 1.05); "+
		"writing the reports %.0f ms a suite, %.2f %% of a suite without them", benchScenarios, b.N, with.Seconds(), without.Seconds(),
		ratio, float64(write.Milliseconds())/float64(b.N), 100*share)
}

// rewrite times writing again the three reports the run with o wrote.
func rewrite(b *testing.B, o *ConformOptions) time.Duration {
	rep, err := reports.Read(o.JSON)
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Now()
	if err := writeReports(o, rep); err != nil {
		b.Fatal(err)
	}
	return time.Since(t0)
}

// benchOptions are conform's options for the benchmark: this tree's
// airwire (built once), its agent, the pinned ACP schema (the benchmark is
// skipped without `make deps`), and a copy of the goldens of
// benchScenarios with bash-foreground/air changed.
func benchOptions(b *testing.B) *ConformOptions {
	p, err := deps.Paths()
	if err != nil || p.ACPSchemaDir == "" {
		b.Skipf("no ACP schema to validate with (make deps): %v", err)
	}
	airwire := testroot.Binary(b)
	root := repoRoot(b)
	goldens := benchGoldens(b, root)
	return &ConformOptions{IO: factory.IOStreams{Out: io.Discard, ErrOut: io.Discard}, Getenv: os.Getenv,
		Exe: func() (string, error) { return airwire, nil }, Now: time.Now,
		ACPSchemaDir: func(context.Context, string) (string, error) { return p.ACPSchemaDir, nil },
		Agent:        airwire + " agent", Scenario: benchScenarios, Scenarios: filepath.Join(root, "scenarios"), Goldens: goldens,
		Jobs: 2, Timeout: 2 * time.Minute, Getwd: os.Getwd, LookPath: exec.LookPath, Run: conform.Check, Version: "bench"}
}

// benchGoldens copies the declarations and the goldens and cassettes of
// benchScenarios, with one value of bash-foreground/air changed.
func benchGoldens(b *testing.B, root string) string {
	dir := b.TempDir()
	src := filepath.Join(root, "goldens")
	files, _ := filepath.Glob(filepath.Join(src, benchScenarios, "*"))
	decl, _ := filepath.Glob(filepath.Join(src, "*.json"))
	for _, f := range append(files, decl...) {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		rel, _ := filepath.Rel(src, f)
		if rel == filepath.Join("bash-foreground", "air.golden") {
			data = bytes.Replace(data, []byte(`"stopReason":"end_turn"`), []byte(`"stopReason":"cancelled"`), 1)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}
