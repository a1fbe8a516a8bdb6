package conform

import (
	"fmt"
	"reflect"
)

// CompareIdentity is the Compare of a declaration whose values are random
// on both sides (a uuid each run makes anew, numbered by first appearance
// in the canonical transcript): they are not compared as values but by
// their identity pattern, which selected places share one value. The
// declaration masks them only when the golden's pattern and the actual's
// are the same (the same number of values, each place holding a value on
// both sides, and the same places sharing one), so a value that goes
// missing, is reused where the golden has a new one, or is new where the
// golden reuses one still fails the run.
const CompareIdentity = "identity"

// identityHolds reports whether the values at d's paths over the golden's
// selected lines gs and the actual's as share one identity pattern.
func identityHolds(d *Deviation, gt *transcript, gs []int, at *transcript, as []int) bool {
	if len(gs) != len(as) {
		return false
	}
	for _, steps := range d.steps {
		var gv, av [][]any
		for k := range gs {
			gv = append(gv, valuesAt(gt.value(gs[k]), steps))
			av = append(av, valuesAt(at.value(as[k]), steps))
		}
		if !samePattern(gv, av) {
			return false
		}
	}
	return true
}

// samePattern compares two lists of per-line values by identity: the
// same count on each line, and the k-th value of each side first seen at
// the same position.
func samePattern(g, a [][]any) bool {
	gp, ap := identities(), identities()
	for i := range g {
		if len(g[i]) != len(a[i]) {
			return false
		}
		for j := range g[i] {
			if gp(g[i][j]) != ap(a[i][j]) {
				return false
			}
		}
	}
	return true
}

// identities numbers values by first appearance.
func identities() func(any) int {
	var seen []any
	return func(v any) int {
		for i, s := range seen {
			if reflect.DeepEqual(s, v) {
				return i
			}
		}
		seen = append(seen, v)
		return len(seen) - 1
	}
}

// checkCompare reports a Compare that is not known.
func (d *Deviation) checkCompare() error {
	if d.Compare != "" && d.Compare != CompareIdentity {
		return fmt.Errorf("compare %q: want %q or nothing (values)", d.Compare, CompareIdentity)
	}
	return nil
}
