// Package parallel runs independent pieces of work on every core of the
// machine, also in a process that otherwise runs on fewer.
//
// `airwire agent` runs on one P (cmd/agent: it spares the scheduler's
// cross-thread wake-ups while it streams a turn). A session listing is
// the exception: it stats every transcript of a project and reads
// hundreds of them, work that is independent file by file and that one P
// runs one system call at a time. For widens GOMAXPROCS to the number of
// CPUs for as long as a call runs (any number of calls at once share one
// widening) and restores it after the last one, unless $GOMAXPROCS was
// set: then the operator's choice stands.
package parallel

import (
	"os"
	"runtime"
	"sync"
	"sync/atomic"
)

// minWorkers is the least number of goroutines For runs: file system
// calls block, so more goroutines than cores keep the cores busy.
const minWorkers = 4

var widening struct {
	sync.Mutex
	users int
	saved int // the GOMAXPROCS to restore; 0 when it was not changed
}

// widen raises GOMAXPROCS to the number of CPUs and returns the func that
// undoes it.
func widen() func() {
	widening.Lock()
	defer widening.Unlock()
	if widening.users == 0 && os.Getenv("GOMAXPROCS") == "" {
		if cur, n := runtime.GOMAXPROCS(0), runtime.NumCPU(); cur < n {
			widening.saved = cur
			runtime.GOMAXPROCS(n)
		}
	}
	widening.users++
	return func() {
		widening.Lock()
		defer widening.Unlock()
		if widening.users--; widening.users == 0 && widening.saved > 0 {
			runtime.GOMAXPROCS(widening.saved)
			widening.saved = 0
		}
	}
}

// For calls f(i) for every i in [0, n), on several goroutines, and returns
// when every call has returned. The calls must be independent.
func For(n int, f func(i int)) {
	if n <= 0 {
		return
	}
	workers := min(n, max(minWorkers, runtime.NumCPU()))
	if workers == 1 {
		f(0)
		return
	}
	defer widen()()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		}()
	}
	wg.Wait()
}
