package history

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkList lists, as a plain client's first page, the transcripts
// that the agentbench session/list benchmark generated (its cache under
// the temporary directory), in process, for profiling:
// go test -run '^$' -bench List -cpuprofile cpu.out. It skips when that
// cache is not there.
func BenchmarkList(b *testing.B) {
	root := filepath.Join(os.TempDir(), "airwire-agentbench-sessions-v1-10000")
	if _, err := os.Stat(filepath.Join(root, "complete")); err != nil {
		b.Skip("no generated transcripts: run make bench first")
	}
	cfg := b.TempDir()
	if err := os.Symlink(filepath.Join(root, "projects"), filepath.Join(cfg, "projects")); err != nil {
		b.Fatal(err)
	}
	cwd := filepath.Join(root, "work")
	for range b.N {
		if p, err := List(cfg, ListParams{Cwd: &cwd}); err != nil || len(p.Sessions) != PageSize {
			b.Fatalf("%d rows, %v", len(p.Sessions), err)
		}
	}
}
