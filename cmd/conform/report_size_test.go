package conform

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/reports"
)

// bigFailure is a golden mismatch as conform reports it (failureOf),
// between two transcripts of 30 lines of 4 KB, of which every line but one
// holds two changed values unique to run i.
func bigFailure(t *testing.T, dir string, i int) *reports.Failure {
	pad := strings.Repeat("p", 4000)
	var want, got []string
	for k := range 30 {
		want = append(want, fmt.Sprintf(`client agent->editor {"id":%d,"result":{"a":"%s-old-%d","b":"%s","c":"x%d"}}`, k, pad, i, pad, k))
		if k == 5 {
			got = append(got, want[k])
			continue
		}
		got = append(got, fmt.Sprintf(`client agent->editor {"id":%d,"result":{"a":"%s-new-%d","b":"%s","c":"y%d"}}`, k, pad, i, pad, k))
	}
	wantText, gotText := []byte(strings.Join(want, "\n")+"\n"), []byte(strings.Join(got, "\n")+"\n")
	file := filepath.Join(dir, fmt.Sprintf("g%03d.golden", i))
	if err := os.WriteFile(file, wantText, 0o644); err != nil {
		t.Fatal(err)
	}
	mm := golden.Compare(file, wantText, gotText)
	return failureOf(outcome{err: mm, out: &conform.Outcome{Compared: gotText}}, file, nil)
}

// TestReportOf344BigFailuresIsBounded: 344 failed runs, each with more
// differences than a run lists, long values and causes of its own, make a
// JSON report and a page under 5 MB each; the JSON report keeps the runs'
// full transcripts beside it (reports.TranscriptsDir).
func TestReportOf344BigFailuresIsBounded(t *testing.T) {
	const limit = 5 << 20
	r := &reports.Report{Sections: []string{"Goal"}}
	goldens := t.TempDir()
	for i := range 344 {
		r.Add(reports.Run{Scenario: fmt.Sprintf("s%03d", i), Profile: "air", Status: reports.StatusFail, Covers: []string{"Goal"}, Failure: bigFailure(t, goldens, i)})
	}
	r.Group()
	if len(r.Causes) != reports.MaxCauses || r.MoreCauses == 0 {
		t.Fatalf("%d causes listed, %d more", len(r.Causes), r.MoreCauses)
	}
	dir := t.TempDir()
	if err := r.WriteHTML(dir); err != nil {
		t.Fatal(err)
	}
	for i := range r.Runs {
		f := r.Runs[i].Failure
		if !f.MoreDifferences || len(f.Differences) != golden.MaxDiffs {
			t.Fatalf("run %d: %d differences, more %v", i, len(f.Differences), f.MoreDifferences)
		}
	}
	path := filepath.Join(dir, "r.json")
	if err := r.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{path, filepath.Join(dir, reports.HTMLFile)} {
		st, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() >= limit {
			t.Errorf("%s is %d bytes, over %d", filepath.Base(file), st.Size(), limit)
		}
		t.Logf("%s: %d bytes", filepath.Base(file), st.Size())
	}
}
