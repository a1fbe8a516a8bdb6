package reports

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseShard(t *testing.T) {
	if s, err := ParseShard("2/4"); err != nil || s != (ShardSpec{2, 4}) || s.String() != "2/4" {
		t.Errorf("2/4: %v, %v", s, err)
	}
	for _, bad := range []string{"", "2", "0/4", "5/4", "1/0", "a/b", "1/4/2", "-1/4"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted it", bad)
		}
	}
}

// goldenWeights are the runs of the real goldens, weighed by line count
// (conform's fallback weight).
func goldenWeights(t *testing.T) ([]string, map[string]float64) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot(t), "goldens", "*", "*.golden"))
	if err != nil || len(files) < 100 {
		t.Fatalf("%d goldens: %v", len(files), err)
	}
	w := map[string]float64{}
	var ids []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		id := filepath.Base(filepath.Dir(f)) + "/" + strings.TrimSuffix(filepath.Base(f), ".golden")
		ids = append(ids, id)
		w[id] = float64(bytes.Count(b, []byte("\n")))
	}
	return ids, w
}

// TestPartition: every run lands in exactly one shard, the split does not
// depend on the order of the ids, and no shard is heavier than the
// lightest by more than the heaviest run.
func TestPartition(t *testing.T) {
	ids, w := goldenWeights(t)
	weight := func(id string) float64 { return w[id] }
	heaviest := 0.0
	for _, v := range w {
		heaviest = max(heaviest, v)
	}
	reversed := make([]string, len(ids))
	for i, id := range ids {
		reversed[len(ids)-1-i] = id
	}
	for n := 1; n <= 6; n++ {
		shards := Partition(ids, weight, n)
		if !reflect.DeepEqual(shards, Partition(reversed, weight, n)) {
			t.Errorf("n=%d: the split depends on the order of the ids", n)
		}
		seen := map[string]int{}
		lo, hi := -1.0, 0.0
		for k, s := range shards {
			load := 0.0
			for _, id := range s {
				seen[id]++
				load += w[id]
			}
			if k == 0 || load < lo {
				lo = load
			}
			hi = max(hi, load)
		}
		for _, id := range ids {
			if seen[id] != 1 {
				t.Errorf("n=%d: %s is in %d shards", n, id, seen[id])
			}
		}
		if len(seen) != len(ids) {
			t.Errorf("n=%d: %d runs in the shards, want %d", n, len(seen), len(ids))
		}
		if hi-lo > heaviest {
			t.Errorf("n=%d: shard loads from %.0f to %.0f, more apart than the heaviest run (%.0f)", n, lo, hi, heaviest)
		}
	}
}

func TestDurations(t *testing.T) {
	r := fixture(t)
	path := filepath.Join(t.TempDir(), "r.json")
	if err := r.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	d, err := Durations(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"bash-foreground/air": 900, "bash-foreground/plain": 900, "bash-foreground/zed": 900}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("durations %v, want %v (the skipped run left out)", d, want)
	}
}
