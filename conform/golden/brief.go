package golden

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Bounds of the diff a mismatch prints: a transcript line can be a 15 KB
// JSON message, and a one-character change must not print it whole.
const (
	// Window is how many bytes of a line or value are shown on each side of
	// where it differs (a line or value no longer than 2*Window is shown
	// whole).
	Window = 120
	// maxHunks is how many changed regions the diff shows; maxHunkLines
	// is how many lines of each side one region shows.
	maxHunks     = 3
	maxHunkLines = 6
)

// Clip cuts s to Window bytes on each side of byte offset at, marking what
// was cut with "…" and its size, so that a long value is shown around
// where it differs.
func Clip(s string, at int) string {
	if len(s) <= 2*Window {
		return s
	}
	at = min(max(at, 0), len(s))
	from, to := max(at-Window, 0), min(at+Window, len(s))
	if from < 3 { // "…(N bytes)" must save more than it costs
		from = 0
	}
	for from > 0 && !utf8.RuneStart(s[from]) {
		from--
	}
	for to < len(s) && !utf8.RuneStart(s[to]) {
		to++
	}
	var b strings.Builder
	if from > 0 {
		fmt.Fprintf(&b, "…(%d bytes)", from)
	}
	b.WriteString(s[from:to])
	if to < len(s) {
		fmt.Fprintf(&b, "…(%d more bytes)", len(s)-to)
	}
	return b.String()
}

// clipLine clips a transcript line like Clip, but always keeps its tag
// (the words before the JSON), which says what the line is.
func clipLine(l string, at int) string {
	i := strings.IndexAny(l, "{[")
	if i <= 0 || i > Window || at < i {
		return Clip(l, at)
	}
	return l[:i] + Clip(l[i:], at-i)
}

// DiffAt is the byte offset where a and b first differ (the shorter
// length when one is a prefix of the other).
func DiffAt(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// briefDiff is the difference of two transcripts as a person reads it:
// the first maxHunks changed regions, each with a line of context, "-" for
// golden lines and "+" for actual ones, every line clipped to a window
// around where it differs from its counterpart.
func briefDiff(ops []op, wl, gl []string) string {
	var b strings.Builder
	b.WriteString("--- Expected\n+++ Actual\n")
	n := 0
	for i, j := range hunks(ops) {
		if n++; n > maxHunks {
			b.WriteString("… more differences follow\n")
			break
		}
		writeHunk(&b, ops, i, j, wl, gl)
	}
	return b.String()
}

// writeHunk writes the changed region ops[i:j] with one line of context
// on each side.
func writeHunk(b *strings.Builder, ops []op, i, j int, wl, gl []string) {
	var dels, inss []string
	for _, o := range ops[i:j] {
		if o.kind == del {
			dels = append(dels, wl[o.w])
		} else {
			inss = append(inss, gl[o.g])
		}
	}
	fmt.Fprintf(b, "@@ golden line %d, actual line %d @@\n", ops[i].w+1, ops[i].g+1)
	if i > 0 {
		fmt.Fprintf(b, " %s\n", clipLine(wl[ops[i-1].w], 0))
	}
	writeSide(b, "-", dels, inss)
	writeSide(b, "+", inss, dels)
	if j < len(ops) && ops[j].w < len(wl) {
		fmt.Fprintf(b, " %s\n", clipLine(wl[ops[j].w], 0))
	}
}

// writeSide writes one side's lines of a region, each clipped around
// where it first differs from the other side's line at the same place when
// that line is the same message (lineKey), else from its start.
func writeSide(b *strings.Builder, mark string, lines, other []string) {
	for k, l := range lines {
		if k == maxHunkLines {
			fmt.Fprintf(b, "%s… %d more lines\n", mark, len(lines)-k)
			return
		}
		at := 0 // a line with no counterpart shows from its start
		if k < len(other) && lineKey(l) == lineKey(other[k]) {
			at = DiffAt(l, other[k])
		}
		fmt.Fprintf(b, "%s%s\n", mark, clipLine(l, at))
	}
}
