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

// Cause is one difference from the goldens as the failed runs share it: the
// same kind of difference on the same lane at the same JSON path, from the
// same old value to the same new one, once the values that differ from run
// to run by nature (numbered placeholders such as <session-1>, request ids)
// are made equal. One change of the adapter that hits 280 runs is one
// cause with 280 runs.
type Cause struct {
	// ID numbers the causes from 1, most runs first; Run.Failure.Causes
	// names them.
	ID int `json:"id"`
	// Kind is the difference's kind (Difference.Kind), or CheckValidate
	// for a validator rule the runs broke (Path is then the rule).
	Kind string `json:"kind"`
	// Tag is the lane and direction of the line ("client agent->editor").
	Tag string `json:"tag,omitempty"`
	// Path is the JSON path ("" for a whole line).
	Path string `json:"path,omitempty"`
	// Old and New are the golden's value and the run's, normalized.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
	// Runs counts the failed runs with this cause; Example is one of them
	// ("<scenario>/<profile>"), the first in report order.
	Runs    int    `json:"runs"`
	Example string `json:"example"`
}

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

// causeOf is the cause of one difference, without its id and counts.
func causeOf(d Difference) Cause {
	kind := cmp.Or(d.Kind, "changed")
	return Cause{Kind: kind, Tag: d.Tag, Path: normalize(d.Path), Old: normalize(d.Expected), New: normalize(d.Actual)}
}

func (c Cause) key() string {
	return strings.Join([]string{c.Kind, c.Tag, c.Path, c.Old, c.New}, "\x00")
}

// causesOf are the causes of one failed run, each once, in the order its
// differences come (its validator rules for check validate).
func causesOf(f *Failure) []Cause {
	var out []Cause
	seen := map[string]bool{}
	add := func(c Cause) {
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
		add(causeOf(d))
	}
	if f.Check == CheckValidate {
		for _, rule := range f.Rules {
			add(Cause{Kind: CheckValidate, Path: rule})
		}
	}
	return out
}

// Group sets r.Causes from the failed runs (status fail) and names in each
// its causes (Failure.Causes): each cause once, with the number of runs
// it hits and the first of them, most runs first (at a tie, in the order
// they first appear); past MaxCauses, the rest are only counted.
func (r *Report) Group() {
	byKey := map[string]*Cause{}
	var order []*Cause
	perRun := map[int][]string{}
	for i, run := range r.Runs {
		if run.Status != StatusFail || run.Failure == nil {
			continue
		}
		for _, c := range causesOf(run.Failure) {
			k := c.key()
			perRun[i] = append(perRun[i], k)
			if byKey[k] == nil {
				c.Example = run.ID()
				byKey[k] = &c
				order = append(order, &c)
			}
			byKey[k].Runs++
		}
	}
	slices.SortStableFunc(order, func(a, b *Cause) int { return b.Runs - a.Runs })
	r.Causes, r.MoreCauses = nil, 0
	for i, c := range order {
		if i >= MaxCauses {
			r.MoreCauses++
			continue
		}
		c.ID = i + 1
		r.Causes = append(r.Causes, *c)
	}
	for i, keys := range perRun {
		f := r.Runs[i].Failure
		f.Causes = nil
		for _, k := range keys {
			if id := byKey[k].ID; id > 0 {
				f.Causes = append(f.Causes, id)
			}
		}
		slices.Sort(f.Causes)
	}
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

// String is the cause in one line: what changed where, values clipped.
func (c Cause) String() string {
	where := strings.TrimSpace(c.Tag + " " + c.Path)
	switch {
	case c.Kind == CheckValidate:
		return "validator rule " + c.Path
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

func movedTo(c Cause) string {
	if c.Kind == "moved" {
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
		fmt.Fprintf(w, "  #%d %s, e.g. %s: %s\n", c.ID, runs, c.Example, c)
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
	c := Cause{Kind: cmp.Or(d.Kind, "changed"), Tag: d.Tag, Path: d.Path, Old: d.Expected, New: d.Actual}
	return c.String()
}
