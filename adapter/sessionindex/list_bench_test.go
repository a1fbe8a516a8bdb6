package sessionindex

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkList lists the transcripts that the agentbench session/list
// benchmark generated (its cache under the temporary directory), in
// process, for profiling: go test -run '^$' -bench List -cpuprofile cpu.out.
// It skips when that cache is not there.
func BenchmarkList(b *testing.B) {
	root := filepath.Join(os.TempDir(), "airwire-agentbench-sessions-v1-10000")
	if !exists(filepath.Join(root, "complete")) {
		b.Skip("no generated transcripts: run make bench first")
	}
	cfg := b.TempDir()
	if err := os.Symlink(filepath.Join(root, "projects"), filepath.Join(cfg, "projects")); err != nil {
		b.Fatal(err)
	}
	req, err := ParseListRequest(listOf(filepath.Join(root, "work"), "", nil))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("cold", func(b *testing.B) {
		for range b.N {
			svc := NewService(cfg, nil, nil)
			p := svc.List(req)
			svc.Close()
			if len(p.Sessions) != DefaultLimit {
				b.Fatalf("%d rows", len(p.Sessions))
			}
		}
	})
	b.Run("read", func(b *testing.B) { // every transcript read once
		for range b.N {
			ix := NewIndex(cfg)
			cands := ix.candidates(scopeDirs(cfg, []string{filepath.Join(root, "work")}))[:2000]
			ix.prefetch(cands, len(cands))
			ix.Close()
		}
	})
	svc := NewService(cfg, nil, nil)
	defer svc.Close()
	svc.List(req)
	b.Run("warm", func(b *testing.B) {
		for range b.N {
			if p := svc.List(req); len(p.Sessions) != DefaultLimit {
				b.Fatalf("%d rows", len(p.Sessions))
			}
		}
	})
}
