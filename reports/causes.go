package reports

import (
	"cmp"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Cause is one change as the failed runs share it: the same kind of
// difference on the same lane, in the same method's message, at the same
// JSON path, from the same old value to the same new one, once what
// differs from run to run by nature is made equal (numbered placeholders
// such as <session-1>, request ids, CLI process numbers, the index of an
// argv option, where a moved line went). Differences that the compared
// runs only ever show together, in two runs or more, are one cause too:
// the first is the cause's, the others are listed in Also. One change of
// the adapter that hits 280 runs is one cause with 280 runs.
type Cause struct {
	// ID numbers the causes from 1, most runs first; Run.Failure.Causes
	// names them.
	ID int `json:"id"`
	Change
	// Also are the other differences the compared runs of this cause
	// always show with it, up to maxAlso.
	Also []Change `json:"also,omitempty"`
	// Runs counts the failed runs with this cause; Example is one of them
	// ("<scenario>/<profile>"), the first in report order.
	Runs    int    `json:"runs"`
	Example string `json:"example"`
}

// Change is what a cause says changed.
type Change struct {
	// Kind is the difference's kind (Difference.Kind); CheckValidate for a
	// validator rule the runs broke (Path is then the rule); CheckRun,
	// CheckLoad or CheckCassette for a failure of that check that names no
	// difference (Old is then its message, normalized).
	Kind string `json:"kind"`
	// Tag is the lane and direction of the line ("client agent->editor"),
	// a CLI process number made N ("cli:N spawn").
	Tag string `json:"tag,omitempty"`
	// Method is the JSON-RPC method of the message, or of the request a
	// response answers (Difference.Method).
	Method string `json:"method,omitempty"`
	// Path is the JSON path ("" for a whole line), an argv option's index
	// replaced by its flag ($.argv[--permission-mode]).
	Path string `json:"path,omitempty"`
	// Old and New are the golden's value and the run's, normalized.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
}

// maxAlso bounds Cause.Also.
const maxAlso = 10

// The patterns normalize replaces, compiled on first use (no package init
// code): a numbered placeholder of the canonical transcripts (<session-1>,
// <req-12>) and a JSON-RPC id, which differ between runs for the same
// cause.
var (
	normOnce          sync.Once
	numberedRE, rpcRE *regexp.Regexp
)

// Normalize makes the parts of a value that differ between runs by nature
// equal: numbered placeholders (<session-1> is <session-N>) and JSON-RPC
// ids ("id":7 is "id":N).
func Normalize(s string) string { return normalize(s) }

// normalize makes the run-specific parts of a value equal.
func normalize(s string) string {
	normOnce.Do(func() {
		numberedRE = regexp.MustCompile(`<([a-z][a-z-]*?)-[0-9]+>`)
		rpcRE = regexp.MustCompile(`"id":[0-9]+`)
	})
	s = numberedRE.ReplaceAllString(s, "<$1-N>")
	return rpcRE.ReplaceAllString(s, `"id":N`)
}

// changeOf is the change of one difference, keyed (causekey.go).
func changeOf(d Difference) Change {
	kind := cmp.Or(d.Kind, "changed")
	old, new := normalize(d.Expected), normalize(keyMoved(kind, d.Actual))
	return Change{Kind: kind, Tag: keyTag(d.Tag), Method: d.Method, Path: keyPath(normalize(d.Path), old, new), Old: old, New: new}
}

func (c Change) key() string {
	return strings.Join([]string{c.Kind, c.Tag, c.Method, c.Path, c.Old, c.New}, "\x00")
}

// changesOf are the changes of one failed run, each once, in the order its
// differences come (its validator rules for check validate; what its
// failure says for checks run, load and cassette).
func changesOf(run Run) []Change {
	f := run.Failure
	var out []Change
	seen := map[string]bool{}
	add := func(c Change) {
		if !seen[c.key()] {
			seen[c.key()] = true
			out = append(out, c)
		}
	}
	diffs := f.Differences
	if len(diffs) == 0 && f.Difference != nil {
		diffs = []Difference{*f.Difference}
	}
	for _, d := range diffs {
		add(changeOf(d))
	}
	switch f.Check {
	case CheckValidate:
		for _, rule := range f.Rules {
			add(Change{Kind: CheckValidate, Path: rule})
		}
	case CheckRun, CheckLoad, CheckCassette:
		for _, c := range failureChanges(run) {
			add(c)
		}
	}
	return out
}

// group is one cause being counted: its changes, and the failed runs
// (indexes into Report.Runs) that have it, those compared with their
// golden apart.
type group struct {
	cause           Cause
	compared, other []int
	// first is the first run with the cause, its example.
	first int
}

// Group sets r.Causes from the failed runs (status fail) and names in each
// its causes (Failure.Causes): each cause once, with the number of runs
// it hits and the first of them, most runs first (at a tie, in the order
// they first appear); past MaxCauses, the rest are only counted.
func (r *Report) Group() {
	byKey := map[string]*group{}
	var order []*group
	for i, run := range r.Runs {
		if run.Status != StatusFail || run.Failure == nil {
			continue
		}
		for _, c := range changesOf(run) {
			g := byKey[c.key()]
			if g == nil {
				g = &group{cause: Cause{Change: c}, first: i}
				byKey[c.key()] = g
				order = append(order, g)
			}
			if run.Failure.Check == CheckGolden {
				g.compared = append(g.compared, i)
			} else {
				g.other = append(g.other, i)
			}
		}
	}
	order = together(order)
	slices.SortStableFunc(order, func(a, b *group) int { return b.cause.Runs - a.cause.Runs })
	r.Causes, r.MoreCauses = nil, 0
	ids := map[int][]int{}
	for i, g := range order {
		if i >= MaxCauses {
			r.MoreCauses++
			continue
		}
		g.cause.ID, g.cause.Example = i+1, r.Runs[g.first].ID()
		r.Causes = append(r.Causes, g.cause)
		for _, run := range slices.Concat(g.compared, g.other) {
			ids[run] = append(ids[run], g.cause.ID)
		}
	}
	for i := range r.Runs {
		if f := r.Runs[i].Failure; f != nil && r.Runs[i].Status == StatusFail {
			f.Causes = ids[i]
			slices.Sort(f.Causes)
		}
	}
}

// together folds the groups that the compared runs only ever show
// together (the same compared runs, two or more) into the one of them with
// the most runs (at a tie, the first), the others' changes into its Also,
// and sets each group's Runs. Runs that were not compared (a cassette that
// does not apply) count with the groups they name.
func together(order []*group) []*group {
	bySet := map[string]*group{}
	var out []*group
	for _, g := range order {
		set := fmt.Sprint(g.compared)
		lead := bySet[set]
		if len(g.compared) < 2 || lead == nil {
			if len(g.compared) >= 2 {
				bySet[set] = g
			}
			out = append(out, g)
			continue
		}
		if len(g.other) > len(lead.other) { // g has more runs: it leads
			lead.cause.Also = append([]Change{lead.cause.Change}, lead.cause.Also...)
			lead.cause.Change = g.cause.Change
		} else {
			lead.cause.Also = append(lead.cause.Also, g.cause.Change)
		}
		lead.cause.Also = lead.cause.Also[:min(len(lead.cause.Also), maxAlso)]
		lead.other = slices.Compact(slices.Sorted(slices.Values(slices.Concat(lead.other, g.other))))
		lead.first = min(lead.first, g.first)
	}
	for _, g := range out {
		g.cause.Runs = len(g.compared) + len(g.other)
	}
	return out
}

// MaxCauses is how many causes a report lists, most runs first
// (Report.MoreCauses counts the others).
const MaxCauses = 100

// diffWindow is how many bytes of a difference's values a report keeps
// on each side of where they differ (ClipPair).
const diffWindow = 64

// ClipPair clips an expected and an actual value to diffWindow bytes on
// each side of where they first differ, marking what was cut, so that a
// report of hundreds of runs with long values stays small.
func ClipPair(want, got string) (string, string) {
	at := 0
	for at < len(want) && at < len(got) && want[at] == got[at] {
		at++
	}
	return clipAt(want, at), clipAt(got, at)
}

func clipAt(s string, at int) string {
	if len(s) <= 2*diffWindow+20 {
		return s
	}
	from, to := max(min(at, len(s))-diffWindow, 0), min(max(at, 0)+diffWindow, len(s))
	for from > 0 && !utf8.RuneStart(s[from]) {
		from--
	}
	for to < len(s) && !utf8.RuneStart(s[to]) {
		to++
	}
	out := s[from:to]
	if from > 0 {
		out = fmt.Sprintf("…(%d bytes)", from) + out
	}
	if to < len(s) {
		out += fmt.Sprintf("…(%d more bytes)", len(s)-to)
	}
	return out
}

// shortLen is how many bytes of a value a one-line cause shows.
const shortLen = 80

// short clips s to shortLen bytes for a one-line view.
func short(s string) string {
	if len(s) <= shortLen {
		return s
	}
	cut := shortLen
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// String is the cause in one line: what changed where, values clipped,
// and how many other differences always come with it.
func (c Cause) String() string {
	if len(c.Also) == 0 {
		return c.Change.String()
	}
	return fmt.Sprintf("%s (and %s always with it)", c.Change, plural(len(c.Also), "more difference"))
}

// String is the change in one line: what changed where, values clipped.
func (c Change) String() string {
	where := strings.Join(slices.DeleteFunc([]string{c.Tag, c.Method, c.Path}, func(s string) bool { return s == "" }), " ")
	switch {
	case c.Kind == CheckValidate:
		return "validator rule " + c.Path
	case c.Kind == CheckRun || c.Kind == CheckLoad:
		return fmt.Sprintf("%s failed: %s", c.Kind, short(c.Old))
	case c.Kind == CheckCassette:
		return strings.TrimSpace(fmt.Sprintf("cassette does not apply: %s %s", c.Tag, short(c.Old)))
	case c.Kind == "changed":
		return fmt.Sprintf("%s: %s → %s", where, short(c.Old), short(c.New))
	case c.Kind == "extra" && c.Path == "":
		return fmt.Sprintf("extra line: %s", short(c.New))
	case c.Kind == "extra":
		return fmt.Sprintf("%s: extra %s", where, short(c.New))
	case c.Path == "":
		return fmt.Sprintf("%s line: %s", c.Kind, short(c.Old))
	}
	return fmt.Sprintf("%s: %s %s%s", where, c.Kind, short(c.Old), movedTo(c))
}

func movedTo(c Change) string {
	if c.Kind == "moved" && c.New != "" {
		return " " + c.New
	}
	return ""
}

// WriteCauses writes the causes of the failed runs, most runs first, each
// with its count of runs and one example run.
func (r *Report) WriteCauses(w io.Writer) {
	if len(r.Causes) == 0 {
		return
	}
	fmt.Fprintf(w, "causes (%d, most runs first):\n", len(r.Causes)+r.MoreCauses)
	for _, c := range r.Causes {
		runs := "1 run"
		if c.Runs != 1 {
			runs = fmt.Sprintf("%d runs", c.Runs)
		}
		fmt.Fprintf(w, "  #%d %s, e.g. %s: %s\n", c.ID, runs, c.Example, c.Change)
		for _, a := range c.Also {
			fmt.Fprintf(w, "      with %s\n", a)
		}
	}
	if r.MoreCauses > 0 {
		fmt.Fprintf(w, "  … and %d more causes, not listed\n", r.MoreCauses)
	}
}

// CauseList names a failed run's causes ("causes #1, #3"; "" for none).
func CauseList(f *Failure) string {
	if f == nil || len(f.Causes) == 0 {
		return ""
	}
	ids := make([]string, len(f.Causes))
	for i, id := range f.Causes {
		ids[i] = fmt.Sprintf("#%d", id)
	}
	word := "causes "
	if len(ids) == 1 {
		word = "cause "
	}
	return word + strings.Join(ids, ", ")
}

// DifferenceLine is one difference in one line: its kind, lane, path and
// values, clipped.
func DifferenceLine(d Difference) string {
	c := Change{Kind: cmp.Or(d.Kind, "changed"), Tag: d.Tag, Method: d.Method, Path: d.Path, Old: d.Expected, New: d.Actual}
	return c.String()
}
