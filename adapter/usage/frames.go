package usage

import (
	"math"

	"github.com/airwire/airwire/adapter/claude"
)

// counts is one API usage object, nulls read as 0.
type counts struct {
	Input      int
	Output     int
	CacheRead  int
	CacheWrite int
}

func (c counts) total() int { return c.Input + c.Output + c.CacheRead + c.CacheWrite }

// wireCounts is the API's usage object; every field may be null or absent.
type wireCounts struct {
	Input      *float64 `json:"input_tokens"`
	Output     *float64 `json:"output_tokens"`
	CacheRead  *float64 `json:"cache_read_input_tokens"`
	CacheWrite *float64 `json:"cache_creation_input_tokens"`
}

func count(p *float64, fallback int) int {
	if p == nil || math.IsNaN(*p) || math.IsInf(*p, 0) {
		return fallback
	}
	return int(*p)
}

func (w wireCounts) snapshot() counts {
	return counts{count(w.Input, 0), count(w.Output, 0), count(w.CacheRead, 0), count(w.CacheWrite, 0)}
}

// delta applies a message_delta: cumulative counts, the nullable ones
// falling back to the previous snapshot.
func (w wireCounts) delta(prev counts) counts {
	return counts{count(w.Input, prev.Input), count(w.Output, 0), count(w.CacheRead, prev.CacheRead), count(w.CacheWrite, prev.CacheWrite)}
}

// synthetic is the model of CLI-local banners, which are not model output.
const synthetic = "<synthetic>"

// wire is the counts of a frame's usage object (nil when it has none).
func wire(u *claude.Usage) wireCounts {
	if u == nil {
		return wireCounts{}
	}
	return wireCounts{u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens}
}

// Frame reads one CLI stdout frame (stream_event, assistant, result,
// rate_limit_event, system/compact_boundary; others are ignored) and
// returns the usage_update the reference sends for it, if any. Frames of
// subagents (a parent_tool_use_id) never change the turn's usage.
// autonomous marks a result of a cycle Claude Code started on its own
// (its cost is reported but stays out of the turn's tally).
func (t *Tracker) Frame(f *claude.Frame, autonomous bool) (Update, bool) {
	switch {
	case f.Type == "stream_event" && f.Parent == nil:
		return t.streamEvent(&f.Event)
	case f.Type == "assistant" && f.Parent == nil:
		t.assistant(f.Message.Model, wire(f.Message.Usage))
	case f.Type == "result":
		return t.result(f, autonomous)
	case f.Type == "rate_limit_event" && t.total != nil:
		return t.update(*t.total, nil, map[string]any{"_claude/rateLimit": f.RateLimitInfo}), true
	case f.Type == "system" && f.Subtype == "compact_boundary":
		used := 0
		if f.CompactMetadata != nil {
			used = count(f.CompactMetadata.PostTokens, 0)
		}
		t.last, t.total = nil, &used
		return t.update(used, nil, nil), true
	}
	return nil, false
}

func (t *Tracker) streamEvent(ev *claude.Event) (Update, bool) {
	switch ev.Type {
	case "message_start":
		c := wire(ev.Message.Usage).snapshot()
		t.last = &c
		if m := ev.Message.Model; m != "" && m != synthetic {
			t.model = m
			if !t.window.Authoritative && t.window.Size == DefaultWindow {
				t.window.Size = GuessWindow(m).Size
			}
		}
	case "message_delta":
		prev := counts{}
		if t.last != nil {
			prev = *t.last
		}
		c := wire(ev.Usage).delta(prev)
		t.last = &c
	default:
		return nil, false
	}
	used := t.last.total()
	if t.total != nil && *t.total == used {
		return nil, false
	}
	t.total = &used
	return t.update(used, nil, nil), true
}

func (t *Tracker) assistant(model string, usage wireCounts) {
	if model == synthetic {
		return
	}
	c := usage.snapshot()
	used := c.total()
	t.last, t.total = &c, &used
	if model != "" {
		t.model = model
	}
}
