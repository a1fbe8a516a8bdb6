package reports

import "strings"

// rowKind says how a line of the side-by-side view compares.
type rowKind string

// The kinds of aligned rows.
const (
	rowSame    rowKind = "same"
	rowChanged rowKind = "changed" // both sides have a line, and they differ
	rowMissing rowKind = "missing" // only the golden has the line
	rowExtra   rowKind = "extra"   // only the run has the line
)

// alignedRow is one line of the side-by-side view: the golden's line and the
// run's, each with its 1-based number (0 when the side has no line).
type alignedRow struct {
	Kind              rowKind
	WantNo, GotNo     int
	Want, Got         string
	WantLane, GotLane string
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
		rows[k].WantLane, rows[k].GotLane = laneOf(rows[k].Want), laneOf(rows[k].Got)
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
