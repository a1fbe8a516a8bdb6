package reports

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestAlign(t *testing.T) {
	tests := []struct {
		name      string
		want, got []string
		kinds     []rowKind
	}{
		{"same", []string{"a", "b"}, []string{"a", "b"}, []rowKind{rowSame, rowSame}},
		{"changed", []string{"a", "b", "c"}, []string{"a", "x", "c"}, []rowKind{rowSame, rowChanged, rowSame}},
		{"missing", []string{"a", "b", "c"}, []string{"a", "c"}, []rowKind{rowSame, rowMissing, rowSame}},
		{"extra at the end", []string{"a"}, []string{"a", "b"}, []rowKind{rowSame, rowExtra}},
		// A moved line is one missing and one extra, not every line shifted.
		{"moved", []string{"a", "b", "c", "d"}, []string{"b", "c", "d", "a"}, []rowKind{rowMissing, rowSame, rowSame, rowSame, rowExtra}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var kinds []rowKind
			for _, r := range align(tt.want, tt.got) {
				kinds = append(kinds, r.Kind)
			}
			if !reflect.DeepEqual(kinds, tt.kinds) {
				t.Errorf("kinds %v, want %v", kinds, tt.kinds)
			}
		})
	}
	rows := align([]string{"client editor->agent {}", "cli:1 spawn {}"}, []string{"client agent->editor {}"})
	if rows[0].WantLane != "editor" || rows[0].GotLane != "agent" || rows[1].WantLane != "cli" || rows[1].GotLane != "" {
		t.Errorf("lanes %+v", rows)
	}
}

func TestMatrix(t *testing.T) {
	r := &Report{Sections: []string{"Tool call contract", "Session failure", "Goal"}}
	for _, run := range []Run{
		{Scenario: "a", Profile: "air", Status: StatusPass, Covers: []string{"Tool call contract"}},
		{Scenario: "a", Profile: "zed", Status: StatusFail, Covers: []string{"Tool call contract"}},
		{Scenario: "b", Profile: "air", Status: StatusExpectedFail, Covers: []string{"Session failure > Identity and revisions"}},
		{Scenario: "c", Profile: "air", Status: StatusSkip, Covers: []string{"Goal"}},
	} {
		r.Add(run)
	}
	profiles, rows := r.coverage()
	if !reflect.DeepEqual(profiles, []string{"zed", "air"}) {
		t.Fatalf("profiles %v", profiles)
	}
	want := []matrixRow{
		{Section: "Tool call contract", Cells: []cellState{cellFail, cellPass}},
		{Section: "Session failure", Cells: []cellState{cellNone, cellKnown}},
		{Section: "Session failure > Identity and revisions", Depth: 1, Cells: []cellState{cellNone, cellKnown}},
		{Section: "Goal", Cells: []cellState{cellNone, cellNone}},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows\n%+v\nwant\n%+v", rows, want)
	}
}

// TestHTMLIsSelfContained: the page loads nothing (no script, style,
// image or font from elsewhere), names the failing run's JSON path, and
// marks the first differing row of its side-by-side view.
func TestHTMLIsSelfContained(t *testing.T) {
	dir := t.TempDir()
	if err := fixture(t).WriteHTML(dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	if m := regexp.MustCompile(`(?i)<(script|img|link|iframe)[^>]+(src|href)=|url\(|@import`).FindString(page); m != "" {
		t.Errorf("the page loads something: %q", m)
	}
	for _, s := range []string{failedStopReason, `class="changed firstdiff" id="run-0-first"`, `data-status="expected-fail"`,
		`<td class="cell fail" data-section="Tool call contract" data-profile="air"`, `<option>Permission presentation</option>`} {
		if !strings.Contains(page, s) {
			t.Errorf("the page lacks %q", s)
		}
	}
}

// writePage writes r's page and returns it.
func writePage(t *testing.T, r *Report) string {
	t.Helper()
	dir := t.TempDir()
	if err := r.WriteHTML(dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The side-by-side view highlights the changed value inside the line,
// gives changed, missing and extra rows their own class and legend entry,
// marks a side without a line as empty (never "lane-"), and leaves long
// lines to wrap in the one scrolling box (no scrolling cell inside it).
func TestHTMLDiffRows(t *testing.T) {
	page := writePage(t, fixture(t))
	for _, s := range []string{`<mark>end_turn</mark>`, `<mark>cancelled</mark>`, `<span class="changed">`, `<span class="missing">`, `<span class="extra">`} {
		if !strings.Contains(page, s) {
			t.Errorf("the page lacks %q", s)
		}
	}
	r := &Report{Sections: []string{"Goal"}}
	r.Add(Run{Scenario: "s", Profile: "air", Status: StatusFail, Covers: []string{"Goal"}, Failure: &Failure{Check: CheckGolden,
		Expected: []string{`client editor->agent {"id":1}`, `cli:1 agent->cli {"type":"gone"}`, `client agent->editor {"id":1,"result":{}}`},
		Actual:   []string{`client editor->agent {"id":1}`, `client agent->editor {"id":1,"result":{}}`, `cli:1 agent->cli {"type":"new"}`}}})
	page = writePage(t, r)
	for _, s := range []string{`<tr class="missing firstdiff"`, `<tr class="extra"`, `class="line lane-cli"`, `class="line empty"`} {
		if !strings.Contains(page, s) {
			t.Errorf("the page lacks %q", s)
		}
	}
	if m := regexp.MustCompile(`lane-[" ]|max-height: 16em|td\.line div`).FindString(page); m != "" {
		t.Errorf("the page holds %q", m)
	}
}

// A report of one run lists in its matrix only the sections that run
// covers; the others are named once, folded, not one "none" row each.
func TestHTMLMatrixOfOneRun(t *testing.T) {
	sections := []string{"Goal", "Session failure", "Tool call contract", "Permission presentation", "Negotiation"}
	r := &Report{Sections: sections}
	r.Add(Run{Scenario: "s", Profile: "air", Status: StatusPass, Covers: []string{"Tool call contract"}})
	page := writePage(t, r)
	if n := strings.Count(page, `<td class="cell `); n != 1 {
		t.Errorf("the matrix has %d cells, want 1", n)
	}
	if strings.Contains(page, `<td class="cell none"`) {
		t.Error("the matrix lists a section no run covers")
	}
	if !strings.Contains(page, "4 contract sections no run of this report covers") {
		t.Error("the page does not name the sections no run covers")
	}
}

func TestMarkDiff(t *testing.T) {
	a, b := markDiff(`{"s":"end_turn"}`, `{"s":"cancelled"}`)
	if a != (marked{`{"s":"`, "end_turn", `"}`}) || b != (marked{`{"s":"`, "cancelled", `"}`}) {
		t.Errorf("markDiff = %+v, %+v", a, b)
	}
	a, b = markDiff("añb", "aõb") // ñ and õ share their first byte
	if a.Mid != "ñ" || b.Mid != "õ" {
		t.Errorf("markDiff cuts a character: %+v, %+v", a, b)
	}
}
