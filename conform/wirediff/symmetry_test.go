package wirediff

import (
	"math/rand"
	"path/filepath"
	"strings"
	"testing"
)

// TestSymmetricCounts: diff A B and diff B A count the same findings, each
// kind mirrored (missing ↔ extra, removed ↔ added), on real goldens with
// messages deleted, swapped, repeated and changed, CLI lanes included, and
// on a message that sends _meta.jetbrains to a plain client.
func TestSymmetricCounts(t *testing.T) {
	set, err := Load(filepath.Join("..", "..", "goldens"))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	for _, k := range set.Keys()[:40] {
		var lines []string
		for _, m := range set[k].Messages {
			lines = append(lines, m.Tag+" "+m.Raw)
		}
		for trial := 0; trial < 3; trial++ {
			checkMirror(t, k, run(t, lines...), run(t, mutate(rng, lines)...))
		}
	}
	leak := strings.Replace(toolCall, `"kind"`, `"_meta":{"jetbrains":{"air":{"x":1}}},"kind"`, 1)
	checkMirror(t, "leak", run(t, initPlain, prompt, endTurn), run(t, initPlain, prompt, leak, endTurn))
}

// mutate deletes, swaps, repeats or changes three lines.
func mutate(rng *rand.Rand, lines []string) []string {
	mut := append([]string(nil), lines...)
	for n := 0; n < 3 && len(mut) > 2; n++ {
		i := rng.Intn(len(mut))
		switch rng.Intn(4) {
		case 0:
			mut = append(mut[:i], mut[i+1:]...)
		case 1:
			j := rng.Intn(len(mut))
			mut[i], mut[j] = mut[j], mut[i]
		case 2:
			mut = append(mut[:i], append([]string{mut[rng.Intn(len(mut))]}, mut[i:]...)...)
		case 3:
			mut[i] = strings.Replace(strings.Replace(mut[i], `"default"`, `"auto"`, 1), `"text"`, `"image"`, 1)
		}
	}
	return mut
}

func checkMirror(t *testing.T, name string, a, b Set) {
	t.Helper()
	ab, ba := Diff(a, b, nil), Diff(b, a, nil)
	mirrored := map[string]string{"missing": "extra", "extra": "missing", "removed": "added", "added": "removed"}
	count := func(r *Report, flip bool) map[string]int {
		n := map[string]int{}
		for _, f := range r.Findings {
			c := f.Change
			if m, ok := mirrored[c]; ok && flip {
				c = m
			}
			n[c]++
		}
		return n
	}
	got, want := count(ba, true), count(ab, false)
	if len(ab.Findings) != len(ba.Findings) || len(got) != len(want) {
		t.Errorf("%s: A→B %v, B→A mirrored %v", name, want, got)
		return
	}
	for c, n := range want {
		if got[c] != n {
			t.Errorf("%s: A→B %v, B→A mirrored %v", name, want, got)
			return
		}
	}
}
