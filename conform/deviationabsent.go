package conform

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/airwire/airwire/internal/lazyre"
)

// LeftOut is one golden line an Absent declaration left out in a run.
type LeftOut struct {
	// Entry is the DEVIATIONS.md entry.
	Entry int
	// Line is the 1-based line of the golden file (before anything was
	// left out).
	Line int
}

// LeaveOut returns golden without the lines that the Absent declarations
// of devs for actual's adapter select in it, and every line it left out.
// With a selected line go the lines its declaration's With paths tie to
// it, and with a request left out goes its answer (the response of the
// other direction with its id). The placeholders the canonical transcript
// numbers by first appearance (<uuid-N>, <req-N>, …) are numbered again
// over the lines that are left, as a run without those lines numbers them
// (renumber). As with ApplyDeviations, golden comes back unchanged for the
// goldens' own adapter and for one no declaration names.
func LeaveOut(devs []Deviation, golden, actual []byte) ([]byte, []LeftOut) {
	name := newTranscript(actual).agentName()
	if name == "" || !declares(devs, name) {
		return golden, nil
	}
	gt := newTranscript(golden)
	if name == gt.agentName() {
		return golden, nil
	}
	drop := map[int]int{} // golden line index → entry
	for i := range devs {
		d := &devs[i]
		if d.Agent != name || !d.Absent {
			continue
		}
		for _, l := range gt.tied(d) {
			if _, ok := drop[l]; !ok {
				drop[l] = d.Entry
			}
		}
	}
	if len(drop) == 0 {
		return golden, nil
	}
	var left []LeftOut
	var kept []string
	for i, l := range gt.lines {
		if e, ok := drop[i]; ok {
			left = append(left, LeftOut{Entry: e, Line: i + 1})
			continue
		}
		kept = append(kept, l)
	}
	return []byte(renumber(string(golden), strings.Join(kept, "\n"))), left
}

// tied lists, in order, the lines d selects, the lines that hold at one of
// d's With paths a string that a selected line holds at one of them, and
// the answers to the requests among all those.
func (t *transcript) tied(d *Deviation) []int {
	sel := t.selected(d)
	var keys []any
	for _, i := range sel {
		v := t.value(i)
		for _, w := range d.with {
			for _, x := range valuesAt(v, w) {
				if s, ok := x.(string); ok && s != "" {
					keys = append(keys, x)
				}
			}
		}
	}
	out := map[int]bool{}
	for _, i := range sel {
		out[i] = true
	}
	for i, tag := range t.tags {
		if tag == "" || out[i] || len(keys) == 0 {
			continue
		}
		v := t.value(i)
		for _, w := range d.with {
			if slices.ContainsFunc(valuesAt(v, w), func(x any) bool { return indexOf(keys, x) >= 0 }) {
				out[i] = true
				break
			}
		}
	}
	for i := range out {
		if a := t.answer(i); a >= 0 {
			out[a] = true
		}
	}
	lines := make([]int, 0, len(out))
	for i := range out {
		lines = append(lines, i)
	}
	slices.Sort(lines)
	return lines
}

// answer is the line of the response to the client-lane request at line
// i: the first later line of the other direction with its id (-1 when i
// is no request or has no answer).
func (t *transcript) answer(i int) int {
	other := map[string]string{TagAgentToEditor: TagEditorToAgent, TagEditorToAgent: TagAgentToEditor}[t.tags[i]]
	h := t.head(i)
	if other == "" || h.Method == "" || len(h.ID) == 0 {
		return -1
	}
	for j := i + 1; j < len(t.lines); j++ {
		if t.tags[j] != other {
			continue
		}
		if r := t.head(j); r.Method == "" && bytes.Equal(r.ID, h.ID) && (r.Result != nil || r.Error != nil) {
			return j
		}
	}
	return -1
}

// numberedRE matches the placeholders the normalizer numbers by first
// appearance in the canonical transcript (Normalizer: uuids, request_ids,
// cursors, made ids); <session-N> is numbered by where the session was
// created and is not among them.
var numberedRE = lazyre.New(`<(uuid|req|cursor|agent|task|run)-(\d+)>`)

// renumber numbers the placeholders of kept, what is left of orig, again
// by their first appearance in kept: a placeholder that only the left-out
// lines held no longer takes a number, and the later ones move up. A kind
// whose placeholders orig does not number 1, 2, … in the order they first
// appear keeps its numbers: the rule that numbered them is not known.
func renumber(orig, kept string) string {
	before, after := firstAppearances(orig), firstAppearances(kept)
	next := map[string]string{}
	for kind, seq := range after {
		if !inOrder(before[kind]) {
			continue
		}
		for k, p := range seq {
			next[p] = fmt.Sprintf("<%s-%d>", kind, k+1)
		}
	}
	return numberedRE.ReplaceAllStringFunc(kept, func(p string) string {
		if n, ok := next[p]; ok {
			return n
		}
		return p
	})
}

// firstAppearances lists each kind's placeholders in s in the order they
// first appear.
func firstAppearances(s string) map[string][]string {
	out := map[string][]string{}
	seen := map[string]bool{}
	for _, m := range numberedRE.FindAllStringSubmatch(s, -1) {
		if !seen[m[0]] {
			seen[m[0]] = true
			out[m[1]] = append(out[m[1]], m[0])
		}
	}
	return out
}

// inOrder reports whether seq, the placeholders of one kind in the order
// they first appear, are numbered 1, 2, ….
func inOrder(seq []string) bool {
	for k, p := range seq {
		if !strings.HasSuffix(p, fmt.Sprintf("-%d>", k+1)) {
			return false
		}
	}
	return true
}
