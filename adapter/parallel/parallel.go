// Package parallel runs bulk work: independent pieces on every core of
// the machine, also in a process tuned otherwise.
//
// `airwire agent` runs on one P and collects garbage at +50% of its live
// heap (cmd/agent: fewer cross-thread wake-ups while it streams a turn,
// less memory at rest). A session listing is the exception: it stats
// every transcript of a project and reads hundreds of them, work that is
// independent file by file, that one P runs one system call at a time,
// and whose short-lived garbage (a few MB) made the collector run four
// times in a 50 ms list. While a Bulk phase lasts (any number at once
// share one), GOMAXPROCS is the number of CPUs and the collection target
// +400%; both are restored shortly after the last one ends (linger). An
// operator's $GOMAXPROCS or $GOGC stands.
package parallel

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// bulkGCPercent is the collection target of a bulk phase.
const bulkGCPercent = 400

// minWorkers is the least number of goroutines For runs: file system
// calls block, so more goroutines than cores keep the cores busy.
const minWorkers = 4

// linger is how long the bulk settings outlast the last bulk phase: the
// response a list computed is encoded and written before the collector,
// back at its tighter target, collects the list's garbage, and a list
// that follows at once runs in the same phase.
var linger = 100 * time.Millisecond

var bulk struct {
	sync.Mutex
	users     int
	relaxed   bool // GOMAXPROCS and GOGC are the bulk ones
	procs     int  // the GOMAXPROCS to restore; 0 when it was not changed
	gcPercent int  // the GOGC to restore; 0 when it was not changed
	ended     int  // how many times the last phase ended
}

// Bulk starts a bulk phase and returns the func that ends it.
func Bulk() (end func()) {
	bulk.Lock()
	defer bulk.Unlock()
	if !bulk.relaxed {
		relax()
	}
	bulk.users++
	return func() {
		bulk.Lock()
		defer bulk.Unlock()
		if bulk.users--; bulk.users > 0 {
			return
		}
		bulk.ended++
		ended := bulk.ended
		time.AfterFunc(linger, func() {
			bulk.Lock()
			defer bulk.Unlock()
			if bulk.users == 0 && bulk.ended == ended && bulk.relaxed {
				restore()
			}
		})
	}
}

// relax sets the bulk GOMAXPROCS and GOGC; the caller holds bulk's lock.
func relax() {
	bulk.relaxed = true
	if cur, n := runtime.GOMAXPROCS(0), runtime.NumCPU(); cur < n && os.Getenv("GOMAXPROCS") == "" {
		bulk.procs = cur
		runtime.GOMAXPROCS(n)
	}
	if os.Getenv("GOGC") == "" {
		if prev := debug.SetGCPercent(bulkGCPercent); prev >= 0 && prev < bulkGCPercent {
			bulk.gcPercent = prev
		} else {
			debug.SetGCPercent(prev)
		}
	}
}

// restore puts back what relax changed; the caller holds bulk's lock.
func restore() {
	bulk.relaxed = false
	if bulk.procs > 0 {
		runtime.GOMAXPROCS(bulk.procs)
		bulk.procs = 0
	}
	if bulk.gcPercent > 0 {
		debug.SetGCPercent(bulk.gcPercent)
		bulk.gcPercent = 0
	}
}

// For calls f(i) for every i in [0, n), on several goroutines, in a bulk
// phase, and returns when every call has returned. The calls must be
// independent.
func For(n int, f func(i int)) {
	if n <= 0 {
		return
	}
	workers := min(n, max(minWorkers, runtime.NumCPU()))
	if workers == 1 {
		f(0)
		return
	}
	defer Bulk()()
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

// Stream calls f on every value produce sends, on several goroutines, in a
// bulk phase, while produce goes on making more: reading a directory
// overlaps with stat'ing what it has named so far. While produce runs,
// one goroutine fewer than the Ps calls f, so that produce, which every
// call waits on, is not queued for a P behind them when a read returns;
// then the goroutine of produce calls f too. It returns when produce has
// returned and every call of f has.
func Stream[T any](produce func(send func(T)), f func(T)) {
	defer Bulk()()
	work := make(chan T, streamQueue)
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)-1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range work {
				f(v)
			}
		}()
	}
	produce(func(v T) { work <- v })
	close(work)
	for v := range work {
		f(v)
	}
	wg.Wait()
}

// streamQueue is how many values Stream holds for its workers: produce
// rarely waits for them to take one.
const streamQueue = 256
