package wirediff

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/airwire/airwire/reports"
)

// Cause is one change as the findings of many runs share it: the same
// change at the same JSON path (a command-line option by its flag, not its
// place), from the same old value to the same new one, once the values
// that differ between runs by nature are made equal (reports.Normalize),
// whatever message carries it. Messages that appear or vanish only in
// runs that have the change, and changes seen in exactly the same runs
// (two or more), are folded into it as Also: one change reported once.
type Cause struct {
	Finding
	// Runs counts the runs with this change; Finding is the first of them.
	Runs int
	// Also holds the first finding of each change folded into this one
	// (at most maxAlso); AlsoMore counts the others.
	Also     []Finding
	AlsoMore int
}

// maxAlso bounds the folded changes a cause lists.
const maxAlso = 5

type causeGroup struct {
	Cause
	runs []string // sorted
	gone bool     // folded into another
}

// causeKey is what makes two findings one change.
func causeKey(f Finding) string {
	what := ""
	if f.Path == "" || f.Change == "missing" || f.Change == "extra" {
		what = reports.Normalize(f.Kind) // a whole message: which one
	}
	return strings.Join([]string{f.Rule, f.Change, reports.Normalize(reports.KeyPath(f.Path, f.Old, f.New)), what,
		reports.Normalize(f.Old), reports.Normalize(f.New)}, "\x00")
}

// Causes groups the findings by cause, most runs first (at a tie, in the
// order they first appear).
func (r *Report) Causes() []Cause {
	var groups []*causeGroup
	at := map[string]*causeGroup{}
	for _, f := range r.Findings {
		k := causeKey(f)
		g := at[k]
		if g == nil {
			g = &causeGroup{Cause: Cause{Finding: f}}
			at[k] = g
			groups = append(groups, g)
		}
		if i, found := slices.BinarySearch(g.runs, f.Run); !found {
			g.runs = slices.Insert(g.runs, i, f.Run)
		}
	}
	foldMessages(groups)
	foldTogether(groups)
	var out []Cause
	for _, g := range groups {
		if !g.gone {
			g.Cause.Runs = len(g.runs)
			out = append(out, g.Cause)
		}
	}
	slices.SortStableFunc(out, func(a, b Cause) int { return b.Runs - a.Runs })
	return out
}

// isMessage reports whether g is a message that appears or vanishes.
func (g *causeGroup) isMessage() bool { return g.Change == "missing" || g.Change == "extra" }

// foldMessages folds each message that appears or vanishes into the
// change with the fewest runs (the most particular one) whose runs hold
// all of its runs: it comes with that change.
func foldMessages(groups []*causeGroup) {
	for _, m := range groups {
		if !m.isMessage() {
			continue
		}
		var into *causeGroup
		for _, g := range groups {
			if g != m && !g.isMessage() && subset(m.runs, g.runs) && (into == nil || len(g.runs) < len(into.runs)) {
				into = g
			}
		}
		if into != nil {
			into.also(m)
		}
	}
}

// foldTogether folds the changes seen in exactly the same runs (two or
// more) into the first of them.
func foldTogether(groups []*causeGroup) {
	lead := map[string]*causeGroup{}
	for _, g := range groups {
		if g.gone || len(g.runs) < 2 {
			continue
		}
		k := strings.Join(g.runs, "\x00")
		if l := lead[k]; l != nil {
			l.also(g)
		} else {
			lead[k] = g
		}
	}
}

// also folds g into c.
func (c *causeGroup) also(g *causeGroup) {
	g.gone = true
	for _, f := range append([]Finding{g.Finding}, g.Also...) {
		if len(c.Also) < maxAlso {
			c.Also = append(c.Also, f)
		} else {
			c.AlsoMore++
		}
	}
	c.AlsoMore += g.AlsoMore
}

// subset reports whether every element of the sorted a is in the sorted b.
func subset(a, b []string) bool {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			return false
		}
	}
	return len(a) > 0
}

// alsoText says what a cause carries with it, briefly.
func (c Cause) alsoText() string {
	if len(c.Also) == 0 {
		return ""
	}
	parts := make([]string, len(c.Also))
	for i, f := range c.Also {
		parts[i] = clipText(f.Sentence(), 120)
	}
	more := ""
	if c.AlsoMore > 0 {
		more = fmt.Sprintf("; and %d more", c.AlsoMore)
	}
	return "with it: " + strings.Join(parts, "; ") + more
}

// clipText cuts s to n bytes (whole characters) and marks the cut.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// writeCauses writes the causes of more than one finding, each once with
// its count of runs, an example run and what comes with it.
func writeCauses(w io.Writer, r *Report) {
	causes := r.Causes()
	if len(causes) == len(r.Findings) {
		return // no cause repeats: the findings say it all
	}
	fmt.Fprintf(w, "causes (%d, most runs first):\n", len(causes))
	for i, c := range causes {
		fmt.Fprintf(w, "  #%d %-9s %s, %s, e.g. %s: %s\n", i+1, c.verdict(), c.Rule, runCount(c.Runs), c.Run, c.Sentence())
		if t := c.alsoText(); t != "" {
			fmt.Fprintf(w, "      %s\n", t)
		}
	}
}
