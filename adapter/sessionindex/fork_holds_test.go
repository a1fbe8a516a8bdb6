package sessionindex

import (
	"slices"
	"testing"
)

func TestForkHolds(t *testing.T) {
	var h forkHolds
	const src, fork, other = "src", "fork", "other"
	if h.holds(fork, false, src) {
		t.Fatal("a row is held with no fork in flight")
	}
	h.started(src)
	h.started(src) // a second fork of the same source
	if !h.holds(other, false, src) || h.holds(other, true, src) {
		t.Error("before the copy's id is known, an unsent row forked from the source waits, a sent one does not")
	}
	h.created(src, fork)
	if !h.holds(fork, true, "") {
		t.Error("the copy of a fork in flight does not wait")
	}
	if freed, ok := h.answered(src); ok || freed != nil {
		t.Errorf("the first of two forks answered freed %v", freed)
	}
	if !h.holds(fork, true, "") {
		t.Error("the copy went out while a fork of its source was still in flight")
	}
	freed, ok := h.answered(src)
	if !ok || !slices.Equal(freed, []string{fork}) {
		t.Errorf("the last fork answered freed %v, %v", freed, ok)
	}
	if h.holds(fork, true, "") || h.holds(other, false, src) {
		t.Error("rows still wait after the last fork answered")
	}
	if _, ok := h.answered(src); ok {
		t.Error("an answer with no fork in flight freed rows")
	}
}
