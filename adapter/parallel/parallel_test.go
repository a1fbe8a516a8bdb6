package parallel

import (
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestForCallsEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 1000} {
		var calls = make([]atomic.Int32, n)
		For(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Fatalf("n=%d: f(%d) called %d times", n, i, c)
			}
		}
	}
}

// For widens GOMAXPROCS to the CPUs while it runs, and restores it after
// the last of several overlapping calls.
func TestForWidensAndRestoresGOMAXPROCS(t *testing.T) {
	idle(t)
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU: nothing to widen to")
	}
	t.Setenv("GOMAXPROCS", "")
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	inner, started := make(chan struct{}), make(chan struct{})
	var during, duringInner int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		For(2, func(i int) {
			if i == 0 {
				close(started)
				<-inner
			}
		})
	}()
	<-started
	For(2, func(i int) {
		if i == 0 {
			during = runtime.GOMAXPROCS(0)
		}
	})
	duringInner = runtime.GOMAXPROCS(0) // the first call still runs
	close(inner)
	wg.Wait()
	if during != runtime.NumCPU() {
		t.Errorf("GOMAXPROCS during For = %d, want %d", during, runtime.NumCPU())
	}
	if duringInner != runtime.NumCPU() {
		t.Errorf("GOMAXPROCS while another For still ran = %d, want %d", duringInner, runtime.NumCPU())
	}
	if got := runtime.GOMAXPROCS(0); got != runtime.NumCPU() {
		t.Errorf("GOMAXPROCS right after For = %d, want %d until the linger ends", got, runtime.NumCPU())
	}
	if !settles(func() bool { return runtime.GOMAXPROCS(0) == 1 }) {
		t.Errorf("GOMAXPROCS after the linger = %d, want 1 restored", runtime.GOMAXPROCS(0))
	}
}

// An operator's $GOMAXPROCS stands.
func TestForKeepsAnExplicitGOMAXPROCS(t *testing.T) {
	idle(t)
	t.Setenv("GOMAXPROCS", "1")
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var during int
	For(2, func(i int) {
		if i == 0 {
			during = runtime.GOMAXPROCS(0)
		}
	})
	if during != 1 {
		t.Errorf("GOMAXPROCS during For = %d with $GOMAXPROCS=1", during)
	}
}

// A bulk phase relaxes the collection target and restores it; an
// operator's $GOGC stands.
func TestBulkRelaxesAndRestoresGOGC(t *testing.T) {
	idle(t)
	t.Setenv("GOGC", "")
	defer debug.SetGCPercent(debug.SetGCPercent(50))
	end := Bulk()
	during := gcPercent()
	end()
	if during != bulkGCPercent {
		t.Errorf("GOGC during a bulk phase %d, want %d", during, bulkGCPercent)
	}
	if !settles(func() bool { return gcPercent() == 50 }) {
		t.Errorf("GOGC after a bulk phase %d, want 50 restored", gcPercent())
	}
	t.Setenv("GOGC", "50")
	end = Bulk()
	during = gcPercent()
	end()
	if during != 50 {
		t.Errorf("GOGC during a bulk phase with $GOGC=50: %d", during)
	}
}

func TestStreamCallsEachValueOnce(t *testing.T) {
	const n = 1000
	var calls [n]atomic.Int32
	Stream(func(send func(int)) {
		for i := range n {
			send(i)
		}
	}, func(i int) { calls[i].Add(1) })
	for i := range calls {
		if c := calls[i].Load(); c != 1 {
			t.Fatalf("f(%d) called %d times", i, c)
		}
	}
	Stream(func(func(int)) {}, func(int) { t.Error("f called with nothing sent") })
}

// A phase that starts while the last one's settings linger keeps them, and
// its end restores what was there before either.
func TestBulkInTheLingerKeepsTheFirstSettings(t *testing.T) {
	idle(t)
	t.Setenv("GOGC", "")
	defer debug.SetGCPercent(debug.SetGCPercent(50))
	Bulk()()
	end := Bulk() // within the linger of the first
	if got := gcPercent(); got != bulkGCPercent {
		t.Errorf("GOGC in the second phase %d, want %d", got, bulkGCPercent)
	}
	end()
	if !settles(func() bool { return gcPercent() == 50 }) {
		t.Errorf("GOGC after both phases %d, want 50", gcPercent())
	}
}

// gcPercent reads GOGC (setting it to what it is under bulk's lock, so
// that no restore runs in between).
func gcPercent() int {
	bulk.Lock()
	defer bulk.Unlock()
	v := debug.SetGCPercent(100)
	debug.SetGCPercent(v)
	return v
}

// settles reports whether cond holds within a second (the linger is 100 ms).
func settles(cond func() bool) bool {
	for range 100 {
		if cond() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cond()
}

// idle waits for the linger of an earlier test's phase to end.
func idle(t *testing.T) {
	t.Helper()
	if !settles(func() bool { bulk.Lock(); defer bulk.Unlock(); return !bulk.relaxed && bulk.users == 0 }) {
		t.Fatal("a bulk phase is still on")
	}
}
