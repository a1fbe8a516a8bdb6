package golden

import (
	"fmt"
	"iter"
)

// MaxDiffs is how many differences a MismatchError lists (Diffs); past it,
// More says that more were found.
const MaxDiffs = 20

// Diff is one difference between a golden and the actual transcript: a
// value that changed at a JSON path of one message, or a whole message (or
// array element) that is missing, extra or moved.
type Diff struct {
	// Kind is Changed, Missing, Extra or Moved.
	Kind string
	// Line is the 1-based golden line (for Extra, the golden line the
	// extra one comes before); GotLine the actual transcript's.
	Line, GotLine int
	// Tag is the line's lane and direction ("client agent->editor").
	Tag string
	// Path is the JSON path of the value ("" for a whole line).
	Path string
	// Want and Got are the values at Path or the whole lines, clipped to
	// Window bytes around where they differ; "(absent)" for what a side
	// lacks, "(at …)" for where a moved line or element is.
	Want, Got string
}

// collector gathers the differences of one comparison, up to MaxDiffs.
type collector struct {
	diffs []Diff
	more  bool
}

func (c *collector) full() bool { return len(c.diffs) >= MaxDiffs }

func (c *collector) add(d Diff) {
	if c.full() {
		c.more = true
		return
	}
	at := DiffAt(d.Want, d.Got)
	d.Want, d.Got = Clip(d.Want, at), Clip(d.Got, at)
	c.diffs = append(c.diffs, d)
}

// allDiffs lists every difference of an alignment of the golden lines wl
// and the actual lines gl, hunk by hunk, up to MaxDiffs.
func allDiffs(ops []op, wl, gl []string) ([]Diff, bool) {
	c := &collector{}
	delAt, insAt := unmatched(ops, wl, gl)
	for i, j := range hunks(ops) {
		c.lineHunk(ops[i:j], wl, gl, delAt, insAt)
	}
	return c.diffs, c.more
}

// hunks yields the changed regions ops[i:j] of an alignment, in order.
func hunks(ops []op) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i := 0; i < len(ops); {
			if ops[i].kind == same {
				i++
				continue
			}
			j := i
			for j < len(ops) && ops[j].kind != same {
				j++
			}
			if !yield(i, j) {
				return
			}
			i = j
		}
	}
}

// unmatched maps the text of every unmatched line to its first position on
// its side.
func unmatched(ops []op, want, got []string) (delAt, insAt map[string]int) {
	delAt, insAt = map[string]int{}, map[string]int{}
	for _, o := range ops {
		switch o.kind {
		case del:
			if _, ok := delAt[want[o.w]]; !ok {
				delAt[want[o.w]] = o.w
			}
		case ins:
			if _, ok := insAt[got[o.g]]; !ok {
				insAt[got[o.g]] = o.g
			}
		}
	}
	return delAt, insAt
}

// lineHunk lists the differences of one changed region: a golden line found
// elsewhere is moved (said once, from the golden side), a golden line
// paired with an actual line of the same message (lineKey) is compared
// value by value, the other golden lines are missing and the other actual
// lines extra.
func (c *collector) lineHunk(h []op, wl, gl []string, delAt, insAt map[string]int) {
	used := map[int]bool{}
	for _, o := range h {
		if o.kind != del {
			continue
		}
		text := wl[o.w]
		if at, ok := insAt[text]; ok {
			c.add(Diff{Kind: Moved, Line: o.w + 1, GotLine: at + 1, Tag: tagOf(text), Want: text, Got: fmt.Sprintf("(at line %d)", at+1)})
			continue
		}
		k := pairOf(h, gl, lineKey(text), used)
		if i := 1 - index(h, o); k < 0 && len(h) == 2 && h[i].kind == ins && !moved(delAt, gl[h[i].g]) {
			k = i // one line replaced by one other is a change, as for the first difference
		}
		if k >= 0 {
			used[k] = true
			c.changedLine(o.w, h[k].g, text, gl[h[k].g])
			continue
		}
		c.add(Diff{Kind: Missing, Line: o.w + 1, GotLine: o.g + 1, Tag: tagOf(text), Want: text, Got: "(absent)"})
	}
	for k, o := range h {
		if o.kind != ins || used[k] {
			continue
		}
		if moved(delAt, gl[o.g]) {
			continue
		}
		c.add(Diff{Kind: Extra, Line: o.w + 1, GotLine: o.g + 1, Tag: tagOf(gl[o.g]), Want: "(absent)", Got: gl[o.g]})
	}
}

// index is the position of o in h (only called on a hunk of two).
func index(h []op, o op) int {
	if len(h) > 1 && h[1] == o {
		return 1
	}
	return 0
}

// moved says an actual line is a golden line found elsewhere.
func moved(delAt map[string]int, line string) bool {
	_, ok := delAt[line]
	return ok
}

// pairOf is the index in h of the first unused actual line whose key is
// key (-1: none).
func pairOf(h []op, gl []string, key string, used map[int]bool) int {
	for k, o := range h {
		if o.kind == ins && !used[k] && lineKey(gl[o.g]) == key {
			return k
		}
	}
	return -1
}

// changedLine lists the differing values of golden line w and actual line
// g, the same message: every JSON path where they differ, or the whole
// lines when either is not JSON.
func (c *collector) changedLine(w, g int, want, got string) {
	wt, wj := splitLine(want)
	at, aj := splitLine(got)
	if wt != at || wj == nil || aj == nil {
		c.add(Diff{Kind: Changed, Line: w + 1, GotLine: g + 1, Want: want, Got: got})
		return
	}
	base := Diff{Line: w + 1, GotLine: g + 1, Tag: wt}
	c.values(base, "$", wj, aj)
}

func tagOf(line string) string {
	t, _ := splitLine(line)
	return t
}

// values adds every difference between two decoded JSON values under path
// at, objects key by key (sorted), arrays element by element along a
// longest common subsequence.
func (c *collector) values(base Diff, at string, want, got any) {
	if c.more {
		return
	}
	switch wv := want.(type) {
	case map[string]any:
		if gv, ok := got.(map[string]any); ok {
			c.object(base, at, wv, gv)
			return
		}
	case []any:
		if gv, ok := got.([]any); ok {
			c.array(base, at, wv, gv)
			return
		}
	}
	if a, b := enc(want), enc(got); a != b {
		c.value(base, Changed, at, a, b)
	}
}

func (c *collector) value(base Diff, kind, path, want, got string) {
	base.Kind, base.Path, base.Want, base.Got = kind, path, want, got
	c.add(base)
}

func (c *collector) object(base Diff, at string, wv, gv map[string]any) {
	for _, k := range sortedKeys(wv, gv) {
		a, inW := wv[k]
		b, inG := gv[k]
		p := at + pathKey(k)
		switch {
		case !inW:
			c.value(base, Changed, p, "(absent)", enc(b))
		case !inG:
			c.value(base, Changed, p, enc(a), "(absent)")
		default:
			c.values(base, p, a, b)
		}
	}
}

// array aligns the elements: in each changed region, the k-th golden
// element is compared with the k-th actual one; the rest are missing or
// extra, and an element found elsewhere is moved.
func (c *collector) array(base Diff, at string, wv, gv []any) {
	we, ge := make([]string, len(wv)), make([]string, len(gv))
	for i, v := range wv {
		we[i] = enc(v)
	}
	for i, v := range gv {
		ge[i] = enc(v)
	}
	ops := align(we, ge)
	delAt, insAt := unmatched(ops, we, ge)
	idx := func(i int) string { return fmt.Sprintf("%s[%d]", at, i) }
	var dels, inss []op
	flush := func() {
		var left []op // the golden elements not moved
		for _, d := range dels {
			if g, moved := insAt[we[d.w]]; moved {
				c.value(base, Moved, idx(d.w), we[d.w], "(at "+idx(g)+")")
			} else {
				left = append(left, d)
			}
		}
		k := 0
		for _, i := range inss {
			if _, moved := delAt[ge[i.g]]; moved {
				continue
			}
			if k < len(left) {
				c.values(base, idx(left[k].w), wv[left[k].w], gv[i.g])
			} else {
				c.value(base, Extra, idx(i.g), "(absent)", ge[i.g])
			}
			k++
		}
		for _, d := range left[min(k, len(left)):] {
			c.value(base, Missing, idx(d.w), we[d.w], "(absent)")
		}
		dels, inss = nil, nil
	}
	for _, o := range ops {
		switch o.kind {
		case same:
			flush()
		case del:
			dels = append(dels, o)
		case ins:
			inss = append(inss, o)
		}
	}
	flush()
}
