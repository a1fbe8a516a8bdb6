// Package testmem measures the heap a piece of code holds, for the tests
// that bound the memory of the journal readers and the proxy.
package testmem

import (
	"runtime"
	"runtime/debug"
	"time"
)

// HeapUse runs f and returns the most heap it held above what was live
// before (peak), sampled every millisecond with the collector kept busy
// (GOGC=10) so the figure is close to the live peak, and the bytes it
// allocated in all (alloc), which bounds what a lazy collector (the default
// GOGC=100) lets pile up.
func HeapUse(f func()) (peak, alloc uint64) {
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, total := ms.HeapAlloc, ms.TotalAlloc
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		var m runtime.MemStats
		var peak uint64
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
			select {
			case <-stop:
				done <- peak
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	f()
	close(stop)
	peak = <-done
	runtime.ReadMemStats(&ms)
	return peak - min(base, peak), ms.TotalAlloc - total
}
