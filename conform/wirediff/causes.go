package wirediff

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/airwire/airwire/reports"
)

// Cause is one change as the findings of many runs share it: the same rule
// and change, on the same kind of message, at the same path, from the same
// old value to the same new one, once the values that differ between runs
// by nature are made equal (reports.Normalize).
type Cause struct {
	Finding
	// Runs counts the runs with this change; Finding is the first of them.
	Runs int
}

// Causes groups the findings by cause, most runs first (at a tie, in the
// order they first appear).
func (r *Report) Causes() []Cause {
	var out []Cause
	at := map[string]int{}
	seen := map[string]bool{} // cause and run: a run counts once
	for _, f := range r.Findings {
		k := strings.Join([]string{f.Rule, f.Change, f.Tag, reports.Normalize(f.Kind), reports.Normalize(f.Path),
			reports.Normalize(f.Old), reports.Normalize(f.New)}, "\x00")
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, Cause{Finding: f})
		}
		if !seen[k+"\x00"+f.Run] {
			seen[k+"\x00"+f.Run] = true
			out[i].Runs++
		}
	}
	slices.SortStableFunc(out, func(a, b Cause) int { return b.Runs - a.Runs })
	return out
}

// writeCauses writes the causes of more than one finding, each once with
// its count of runs and an example run.
func writeCauses(w io.Writer, r *Report) {
	causes := r.Causes()
	if len(causes) == len(r.Findings) {
		return // no cause repeats: the findings say it all
	}
	fmt.Fprintf(w, "causes (%d, most runs first):\n", len(causes))
	for i, c := range causes {
		fmt.Fprintf(w, "  #%d %-9s %s, %s, e.g. %s: %s\n", i+1, c.verdict(), c.Rule, runCount(c.Runs), c.Run, c.Sentence())
	}
}
