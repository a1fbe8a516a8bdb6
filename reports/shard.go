package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ShardSpec is one part of a split run set: Index of Total, 1-based.
type ShardSpec struct {
	Index int `json:"index"`
	Total int `json:"total"`
}

func (s ShardSpec) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Total) }

// ParseShard reads "i/n" with 1 ≤ i ≤ n.
func ParseShard(s string) (ShardSpec, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return ShardSpec{}, fmt.Errorf("shard %q: want i/n with 1 <= i <= n, e.g. 2/4", s)
	}
	return ShardSpec{Index: i, Total: n}, nil
}

// Partition splits ids into n shards of about equal total weight: the
// heaviest id first (ties by id) goes onto the lightest shard (ties: the
// lowest index). The result depends only on ids, weight and n, so every
// shard of a CI matrix computes the same split; each id is in exactly one
// shard, and each shard lists its ids sorted.
func Partition(ids []string, weight func(id string) float64, n int) [][]string {
	type item struct {
		id string
		w  float64
	}
	items := make([]item, len(ids))
	for i, id := range ids {
		items[i] = item{id, weight(id)}
	}
	slices.SortFunc(items, func(a, b item) int {
		if c := cmp.Compare(b.w, a.w); c != 0 {
			return c
		}
		return strings.Compare(a.id, b.id)
	})
	shards := make([][]string, n)
	load := make([]float64, n)
	for _, it := range items {
		k := 0
		for j := range load {
			if load[j] < load[k] {
				k = j
			}
		}
		shards[k] = append(shards[k], it.id)
		load[k] += it.w
	}
	for _, s := range shards {
		slices.Sort(s)
	}
	return shards
}

// Durations returns the duration in milliseconds of each run ("<scenario>/
// <profile>") of an earlier JSON report, merged or not: the weights of
// Partition. Skipped runs are left out. The report's transcripts are not
// read: its JSON file alone will do.
func Durations(path string) (map[string]float64, error) {
	r, err := read(path)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for _, run := range r.Runs {
		if run.Status != StatusSkip {
			out[run.ID()] = float64(run.DurationMS)
		}
	}
	return out, nil
}
