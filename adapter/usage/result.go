package usage

import "github.com/airwire/airwire/adapter/claude"

// Tally is token counts in ACP's naming.
type Tally struct {
	InputTokens       int `json:"inputTokens"`
	OutputTokens      int `json:"outputTokens"`
	CachedReadTokens  int `json:"cachedReadTokens"`
	CachedWriteTokens int `json:"cachedWriteTokens"`
}

// Total sums the four counters (input excludes the cache counters).
func (a Tally) Total() int {
	return a.InputTokens + a.OutputTokens + a.CachedReadTokens + a.CachedWriteTokens
}

func (a Tally) plus(b Tally) Tally {
	return Tally{a.InputTokens + b.InputTokens, a.OutputTokens + b.OutputTokens,
		a.CachedReadTokens + b.CachedReadTokens, a.CachedWriteTokens + b.CachedWriteTokens}
}

func (a Tally) minus(b Tally) Tally {
	return Tally{a.InputTokens - b.InputTokens, a.OutputTokens - b.OutputTokens,
		a.CachedReadTokens - b.CachedReadTokens, a.CachedWriteTokens - b.CachedWriteTokens}
}

func (a Tally) negative() bool {
	return a.InputTokens < 0 || a.OutputTokens < 0 || a.CachedReadTokens < 0 || a.CachedWriteTokens < 0
}

// modelTally is a tally per model, in first-seen order.
type modelTally struct {
	keys []string
	by   map[string]Tally
}

func (m *modelTally) set(model string, t Tally) {
	if m.by == nil {
		m.by = map[string]Tally{}
	}
	if _, ok := m.by[model]; !ok {
		m.keys = append(m.keys, model)
	}
	m.by[model] = t
}

func (t *Tracker) result(r *claude.Frame, autonomous bool) (Update, bool) {
	resultUsage := wire(r.Usage)
	if !autonomous {
		t.turn = t.turn.plus(tallyOf(resultUsage.snapshot()))
	}
	keys, usages := r.ModelUsage.Keys, r.ModelUsage.By
	match := matchingKey(keys, t.model)
	reading := modelTally{}
	for _, k := range keys {
		u := usages[k]
		reading.set(k, Tally{count(u.Input, 0), count(u.Output, 0), count(u.CacheRead, 0), count(u.CacheWrite, 0)})
	}
	increment := t.increment(reading, resultUsage, match)
	t.reading, t.seeded = reading, true
	if autonomous {
		t.cycle = increment
	} else {
		for _, k := range increment.keys {
			t.byModel.set(k, t.byModel.by[k].plus(increment.by[k]))
		}
	}
	if match != "" {
		if w := usages[match].ContextWindow; w != nil && *w > 0 {
			t.window = Window{Size: int(*w), Authoritative: true}
			t.learned(match, int(*w))
		}
	}
	if t.total == nil {
		return nil, false
	}
	var meta map[string]any
	if r.Origin != nil {
		meta = map[string]any{"_claude/origin": r.Origin.Raw}
	}
	cost := map[string]any{"cost": map[string]any{"amount": cost(r.TotalCostUSD), "currency": "USD"}}
	return t.update(*t.total, cost, meta), true
}

// increment is what this result added to the running modelUsage reading,
// per model; after a resume the result's own usage stands in under the
// turn's model, since the first reading holds the whole history.
func (t *Tracker) increment(reading modelTally, usage wireCounts, match string) modelTally {
	inc := modelTally{}
	if !t.seeded {
		key := match
		if key == "" {
			key = t.model
		}
		if row := tallyOf(usage.snapshot()); key != "" && row.Total() > 0 {
			inc.set(key, row)
		}
		return inc
	}
	for _, k := range reading.keys {
		cur := reading.by[k]
		d := cur
		if base, ok := t.reading.by[k]; ok {
			if d = cur.minus(base); d.negative() {
				d = cur
			}
		}
		if d.Total() > 0 {
			inc.set(k, d)
		}
	}
	return inc
}

func tallyOf(c counts) Tally { return Tally{c.Input, c.Output, c.CacheRead, c.CacheWrite} }

// matchingKey is the modelUsage key sharing the longest prefix with the
// turn's model ("claude-sonnet-5[1m]" for "claude-sonnet-5").
func matchingKey(keys []string, model string) string {
	best, bestLen := "", 0
	if model == "" {
		return ""
	}
	for _, k := range keys {
		n := 0
		for n < len(k) && n < len(model) && k[n] == model[n] {
			n++
		}
		if n > bestLen {
			best, bestLen = k, n
		}
	}
	return best
}

// learned passes a window a result confirmed to the OnWindow callback,
// under the modelUsage key and the turn's own model spelling.
func (t *Tracker) learned(key string, size int) {
	if t.onWindow == nil {
		return
	}
	t.onWindow(key, size)
	if t.model != "" && t.model != key {
		t.onWindow(t.model, size)
	}
}

// cost is a result's total cost, 0 when absent.
func cost(usd *float64) float64 {
	if usd == nil {
		return 0
	}
	return *usd
}
