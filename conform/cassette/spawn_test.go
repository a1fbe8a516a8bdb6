package cassette

import (
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// The spawn counter hands each of many concurrent spawns its own number,
// 1 to n, through the file lock (flock on Unix, LockFileEx on Windows):
// without the lock two spawns read the same count.
func TestSpawnCounterNumbersConcurrentSpawnsOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "spawns.count")
	const n = 40
	got := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			k, err := SpawnCounter(path)()
			if err != nil {
				t.Error(err)
			}
			got[i] = k
		})
	}
	wg.Wait()
	slices.Sort(got)
	for i, k := range got {
		if k != i+1 {
			t.Fatalf("spawn numbers %v, want 1 to %d once each", got, n)
		}
	}
}
