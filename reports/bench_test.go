package reports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkReportWrite: the three reports of a full-suite run, one run per
// golden of the repository (about 220), every tenth failed on its golden
// with both transcripts kept, as `airwire conform` writes them at its end.
// One op writes the JSON report, the JUnit XML and the HTML page; compare
// its time with a full suite run's (minutes) for the overhead of the
// reports at full size.
//
//	go test -run '^$' -bench ReportWrite -benchtime 3x ./reports/
func BenchmarkReportWrite(b *testing.B) {
	r := fullReport(b)
	dir := b.TempDir()
	b.ResetTimer()
	for range b.N {
		if err := r.WriteJSON(filepath.Join(dir, "r.json")); err != nil {
			b.Fatal(err)
		}
		if err := r.WriteJUnit(filepath.Join(dir, "junit.xml")); err != nil {
			b.Fatal(err)
		}
		if err := r.WriteHTML(filepath.Join(dir, "html")); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(r.Summary.Total), "runs")
	b.ReportMetric(float64(r.Summary.Fail), "failed-runs")
}

func fullReport(b *testing.B) *Report {
	files, err := filepath.Glob(filepath.Join(repoRoot(b), "goldens", "*", "*.golden"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no goldens: %v", err)
	}
	r := &Report{Agent: "bench", Sections: []string{"Tool call contract"}}
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		run := Run{Scenario: filepath.Base(filepath.Dir(f)), Profile: strings.TrimSuffix(filepath.Base(f), ".golden"),
			Status: StatusPass, DurationMS: 1000, Covers: []string{"Tool call contract"}, Golden: f}
		if i%10 == 0 {
			want := splitLines(data)
			got := append([]string{}, want...)
			got[len(got)/2] += " changed"
			run.Status = StatusFail
			run.Failure = &Failure{Check: CheckGolden, Message: "does not match", Expected: want, Actual: got,
				Difference: &Difference{Line: len(got)/2 + 1, Expected: want[len(got)/2], Actual: got[len(got)/2]}}
		}
		r.Add(run)
	}
	return r
}
