package reports

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/golden"
)

// bigFailure is a golden mismatch as conform reports it, between two
// transcripts of 30 lines of 4 KB, of which every line but one holds two
// changed values unique to run i.
func bigFailure(i int) *Failure {
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
	mm := golden.Compare("x.golden", []byte(strings.Join(want, "\n")), []byte(strings.Join(got, "\n")))
	brief := *mm
	brief.Diff = ""
	f := &Failure{Check: CheckGolden, Message: brief.Error(), Expected: want, Actual: got, MoreDifferences: mm.More,
		Difference: &Difference{Kind: mm.Kind, Line: mm.Line, Tag: mm.Tag, Path: mm.Path}}
	f.Difference.Expected, f.Difference.Actual = ClipPair(mm.Want, mm.Got)
	for _, d := range mm.Diffs {
		w, g := ClipPair(d.Want, d.Got)
		f.Differences = append(f.Differences, Difference{Kind: d.Kind, Line: d.Line, Tag: d.Tag, Path: d.Path, Expected: w, Actual: g})
	}
	return f
}

// TestReportOf344BigFailuresIsBounded: 344 failed runs, each with more
// differences than a run lists, long values and causes of its own, make a
// JSON report and a page under 5 MB each. The JSON report is measured
// without the runs' full transcripts (expected, actual, transcript),
// which it holds whole.
func TestReportOf344BigFailuresIsBounded(t *testing.T) {
	const limit = 5 << 20
	r := &Report{Sections: []string{"Goal"}}
	for i := range 344 {
		r.Add(Run{Scenario: fmt.Sprintf("s%03d", i), Profile: "air", Status: StatusFail, Covers: []string{"Goal"}, Failure: bigFailure(i)})
	}
	r.Group()
	if len(r.Causes) != MaxCauses || r.MoreCauses == 0 {
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
		f.Expected, f.Actual = nil, nil
	}
	path := filepath.Join(dir, "r.json")
	if err := r.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{path, filepath.Join(dir, HTMLFile)} {
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

// The side-by-side view keeps the changed rows and two equal rows on each
// side; the other equal rows fold into gap rows, and a long line is
// clipped around the part that differs.
func TestTrimRows(t *testing.T) {
	var want, got []string
	for k := range 50 {
		want = append(want, fmt.Sprintf("client agent->editor {\"n\":%d}", k))
	}
	got = append(got, want...)
	long := strings.Repeat("z", 5000)
	want[25], got[25] = `client agent->editor {"v":"`+long+`old"}`, `client agent->editor {"v":"`+long+`new"}`
	rows := trimRows(align(want, got))
	var kinds []string
	for _, r := range rows {
		kinds = append(kinds, fmt.Sprintf("%s%d", r.Kind, r.Gap))
	}
	if got := strings.Join(kinds, " "); got != "gap23 same0 same0 changed0 same0 same0 gap22" {
		t.Fatalf("rows %s", got)
	}
	m := rows[3].WantMark
	if m.Mid != "old" || len(m.Pre) > lineWindow+20 || !strings.HasPrefix(m.Pre, "…(") {
		t.Errorf("changed row not clipped around its difference: %+v", m)
	}
}
