package parallel

import (
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
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
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("GOMAXPROCS after For = %d, want 1 restored", got)
	}
}

// An operator's $GOMAXPROCS stands.
func TestForKeepsAnExplicitGOMAXPROCS(t *testing.T) {
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
	t.Setenv("GOGC", "")
	defer debug.SetGCPercent(debug.SetGCPercent(50))
	end := Bulk()
	during := debug.SetGCPercent(bulkGCPercent) // reads it, changing nothing when right
	end()
	after := debug.SetGCPercent(50)
	if during != bulkGCPercent || after != 50 {
		t.Errorf("GOGC during a bulk phase %d, after %d; want %d, then 50", during, after, bulkGCPercent)
	}
	t.Setenv("GOGC", "50")
	end = Bulk()
	during = debug.SetGCPercent(50)
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
