package reports

import (
	"fmt"
	"unicode/utf8"
)

// Bounds of the side-by-side view, so that a page of hundreds of failed
// runs with long transcripts stays small: only the changed rows and
// contextRows equal rows around each are shown (the others fold into one
// gap row), at most maxRows rows a run, each side of a line clipped to
// lineWindow bytes around the part that differs.
const (
	contextRows = 2
	maxRows     = 60
	lineWindow  = 160
	// pageRowBytes bounds the text of the side-by-side views of a whole
	// page: past it, a failed run shows its differences without the view.
	pageRowBytes = 1 << 20
)

// rowBytes is the text size of rows as the page shows them.
func rowBytes(rows []alignedRow) int {
	n := 0
	for _, r := range rows {
		n += len(r.WantMark.Pre) + len(r.WantMark.Mid) + len(r.WantMark.Post) +
			len(r.GotMark.Pre) + len(r.GotMark.Mid) + len(r.GotMark.Post) + 200 // the row's markup
	}
	return n
}

// trimRows keeps the rows that differ and contextRows equal rows on each
// side of them; each run of equal rows left out becomes one gap row
// (Gap counts them). Past maxRows, one gap row says how many rows follow.
func trimRows(rows []alignedRow) []alignedRow {
	keep := make([]bool, len(rows))
	for i, r := range rows {
		if r.Kind == rowSame {
			continue
		}
		for k := max(i-contextRows, 0); k <= min(i+contextRows, len(rows)-1); k++ {
			keep[k] = true
		}
	}
	var out []alignedRow
	for i := 0; i < len(rows); {
		if len(out) >= maxRows {
			out = append(out, alignedRow{Kind: rowGap, Gap: len(rows) - i, Cut: true})
			break
		}
		if keep[i] {
			out = append(out, clipRow(rows[i]))
			i++
			continue
		}
		j := i
		for j < len(rows) && !keep[j] {
			j++
		}
		out = append(out, alignedRow{Kind: rowGap, Gap: j - i})
		i = j
	}
	return out
}

// clipRow clips both sides of a row around their marked part.
func clipRow(r alignedRow) alignedRow {
	r.WantMark, r.GotMark = clipMarked(r.WantMark), clipMarked(r.GotMark)
	r.Want, r.Got = "", "" // the page shows the marks only
	return r
}

// clipMarked keeps lineWindow bytes of Pre before the differing part, of
// Post after it, and twice that of Mid, marking what was cut; a line with
// no marked part keeps its first 2*lineWindow bytes.
func clipMarked(m marked) marked {
	if m.Mid == "" && m.Post == "" { // a whole line: shown from its start
		m.Pre = clipHead(m.Pre, 2*lineWindow)
		return m
	}
	if len(m.Pre) > lineWindow+20 {
		at := len(m.Pre) - lineWindow
		for at < len(m.Pre) && !utf8.RuneStart(m.Pre[at]) {
			at++
		}
		m.Pre = fmt.Sprintf("…(%d bytes)", at) + m.Pre[at:]
	}
	m.Mid = clipHead(m.Mid, 2*lineWindow)
	m.Post = clipHead(m.Post, lineWindow)
	return m
}

// clipHead keeps the first n bytes of s (whole characters).
func clipHead(s string, n int) string {
	if len(s) <= n+20 {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + fmt.Sprintf("…(%d more bytes)", len(s)-n)
}
