package poll

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestUntilReturnsOnceDone(t *testing.T) {
	var calls atomic.Int32
	ok := Until(time.Minute, time.Millisecond, func() bool { return calls.Add(1) == 3 })
	if !ok || calls.Load() != 3 {
		t.Fatalf("Until = %v after %d calls, want true after 3", ok, calls.Load())
	}
}

func TestUntilGivesUpAtMax(t *testing.T) {
	var calls atomic.Int32
	start := time.Now()
	ok := Until(30*time.Millisecond, 5*time.Millisecond, func() bool { calls.Add(1); return false })
	if ok {
		t.Fatal("Until = true for a condition that never holds")
	}
	if waited := time.Since(start); waited < 30*time.Millisecond {
		t.Fatalf("gave up after %v, before max", waited)
	}
	if calls.Load() < 2 {
		t.Fatalf("done called %d times, want it polled", calls.Load())
	}
}

func TestUntilAsksAtOnce(t *testing.T) {
	calls := 0
	if !Until(0, time.Hour, func() bool { calls++; return true }) || calls != 1 {
		t.Fatalf("a condition that holds at once: calls = %d", calls)
	}
}
