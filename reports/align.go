package reports

import (
	"strings"
	"unicode/utf8"
)

// rowKind says how a line of the side-by-side view compares.
type rowKind string

// The kinds of aligned rows.
const (
	rowSame    rowKind = "same"
	rowChanged rowKind = "changed" // both sides have a line, and they differ
	rowMissing rowKind = "missing" // only the golden has the line
	rowExtra   rowKind = "extra"   // only the run has the line
	rowGap     rowKind = "gap"     // equal rows the page leaves out (trimRows)
)

// alignedRow is one line of the side-by-side view: the golden's line and the
// run's, each with its 1-based number (0 when the side has no line).
type alignedRow struct {
	Kind              rowKind
	WantNo, GotNo     int
	Want, Got         string
	WantLane, GotLane string
	// WantMark and GotMark cut each side of a changed row around the part
	// that differs (the whole line is Pre on other rows).
	WantMark, GotMark marked
	// Gap counts the equal rows a gap row stands for; Cut says they are
	// the rest of the run's rows, past the page's bound.
	Gap int
	Cut bool
}

// marked is a line cut into what both sides of a changed row share before
// and after the difference (Pre, Post) and the differing part (Mid), which
// the page highlights.
type marked struct{ Pre, Mid, Post string }

// markDiff cuts a and b at their common prefix and suffix (whole UTF-8
// characters), so that the page highlights only what changed.
func markDiff(a, b string) (marked, marked) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	for p > 0 && (p < len(a) && !utf8.RuneStart(a[p]) || p < len(b) && !utf8.RuneStart(b[p])) {
		p--
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	for s > 0 && (!utf8.RuneStart(a[len(a)-s]) || !utf8.RuneStart(b[len(b)-s])) {
		s--
	}
	return marked{a[:p], a[p : len(a)-s], a[len(a)-s:]}, marked{b[:p], b[p : len(b)-s], b[len(b)-s:]}
}

// align lines up the golden's lines (want) and the run's (got) on their
// longest common subsequence, so that a missing, extra or moved message
// shows as such instead of shifting every line after it. Between two
// common lines, removed and added lines are paired as changed rows.
func align(want, got []string) []alignedRow {
	lcs := lcsTable(want, got)
	var rows []alignedRow
	var dels, adds []int
	flush := func() {
		for k := range max(len(dels), len(adds)) {
			r := alignedRow{Kind: rowChanged}
			if k < len(dels) {
				r.WantNo, r.Want = dels[k]+1, want[dels[k]]
			} else {
				r.Kind = rowExtra
			}
			if k < len(adds) {
				r.GotNo, r.Got = adds[k]+1, got[adds[k]]
			} else {
				r.Kind = rowMissing
			}
			rows = append(rows, r)
		}
		dels, adds = dels[:0], adds[:0]
	}
	i, j := 0, 0
	for i < len(want) || j < len(got) {
		switch {
		case i < len(want) && j < len(got) && want[i] == got[j]:
			flush()
			rows = append(rows, alignedRow{Kind: rowSame, WantNo: i + 1, GotNo: j + 1, Want: want[i], Got: got[j]})
			i, j = i+1, j+1
		case j >= len(got) || i < len(want) && lcs[i+1][j] >= lcs[i][j+1]:
			dels = append(dels, i)
			i++
		default:
			adds = append(adds, j)
			j++
		}
	}
	flush()
	for k := range rows {
		r := &rows[k]
		r.WantLane, r.GotLane = laneOf(r.Want), laneOf(r.Got)
		r.WantMark, r.GotMark = marked{Pre: r.Want}, marked{Pre: r.Got}
		if r.Kind == rowChanged {
			r.WantMark, r.GotMark = markDiff(r.Want, r.Got)
		}
	}
	return rows
}

// lcsTable is the suffix LCS length table: t[i][j] is the length of the
// longest common subsequence of a[i:] and b[j:].
func lcsTable(a, b []string) [][]int {
	t := make([][]int, len(a)+1)
	for i := range t {
		t[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	return t
}

// laneOf names the lane of a canonical transcript line for the page's
// colours: "editor" (client editor->agent), "agent" (client
// agent->editor), "cli" (cli:N ..., the adapter and its Claude CLI), or
// "" for anything else.
func laneOf(line string) string {
	switch {
	case strings.HasPrefix(line, "client editor->agent"):
		return "editor"
	case strings.HasPrefix(line, "client "):
		return "agent"
	case strings.HasPrefix(line, "cli:"):
		return "cli"
	}
	return ""
}
