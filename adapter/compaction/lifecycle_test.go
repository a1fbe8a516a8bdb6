package compaction

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/internal/testroot"
)

// repoRoot is the directory holding go.mod, above the test's directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	return testroot.Root(t)
}

// replayCompaction feeds a cassette's CLI frames (and the PostCompact
// hook inputs) through a compaction lifecycle the way the translator does,
// and returns the updates it makes, ids renamed as the goldens name them.
func replayCompaction(t *testing.T, scenario, profile string, updates bool) []string {
	t.Helper()
	c, err := cassette.Load(filepath.Join(repoRoot(t), "goldens", scenario, profile+".cassette"))
	if err != nil {
		t.Fatal(err)
	}
	var lc Lifecycle
	lc.updates = updates
	var out []string
	ids := map[string]string{}
	for _, p := range c.Processes {
		for _, e := range p.Events {
			if e.Dir != cassette.DirCLI || e.Msg == nil {
				continue
			}
			var h struct {
				Type, Subtype string
				Request       struct {
					Subtype string `json:"subtype"`
				} `json:"request"`
			}
			_ = json.Unmarshal(e.Msg, &h)
			var got []map[string]any
			switch {
			case h.Type == "system" && h.Subtype == "status":
				got = lc.StatusFrame(frameOf(t, e.Msg))
			case h.Type == "system" && h.Subtype == "compact_boundary":
				got = lc.BoundaryFrame(frameOf(t, e.Msg))
			case h.Type == "stream_event":
				got = lc.StreamFrame(frameOf(t, e.Msg))
			case h.Type == "control_request" && h.Request.Subtype == "hook_callback":
				lc.Hook(e.Msg)
			case h.Type == "result":
				got = lc.Reset()
			}
			for _, u := range got {
				out = append(out, canonUpdate(t, u, ids))
			}
		}
	}
	return out
}

// canonUpdate is an update as JSON with its compaction id renamed <uuid-N>,
// as the goldens have it (they keep the duration the CLI reported).
func canonUpdate(t *testing.T, u map[string]any, ids map[string]string) string {
	t.Helper()
	for _, k := range []string{"toolCallId", "compactionId"} {
		if id, ok := u[k].(string); ok {
			if ids[id] == "" {
				ids[id] = fmt.Sprintf("<uuid-%d>", len(ids)+1)
			}
			u[k] = ids[id]
		}
	}
	b, _ := json.Marshal(u)
	var v any
	_ = json.Unmarshal(b, &v)
	b, _ = json.Marshal(v)
	return string(b)
}

// goldenCompactionUpdates are the golden's compaction updates (the tool
// call named compact, or compaction_update).
func goldenCompactionUpdates(t *testing.T, scenario, profile string) []string {
	var out []string
	for _, l := range goldentest.Tagged(t, scenario, profile, "client agent->editor") {
		var m struct {
			Params struct {
				Update json.RawMessage `json:"update"`
			} `json:"params"`
		}
		_ = json.Unmarshal([]byte(l), &m)
		u := string(m.Params.Update)
		if strings.Contains(u, `"toolName":"compact"`) || strings.Contains(u, `"compaction_`) {
			var v any
			_ = json.Unmarshal(m.Params.Update, &v)
			b, _ := json.Marshal(v)
			out = append(out, string(b))
		}
	}
	return out
}

// Every compaction golden: the lifecycle fed the recorded CLI frames makes
// exactly the golden's compaction updates.
func TestCompactionMatchesGoldens(t *testing.T) {
	for _, c := range []struct {
		scenario string
		updates  bool
	}{
		{"compaction-legacy", false},
		{"compaction-failed-legacy", false},
		{"compaction-update", true},
		{"removed-keys", false},
	} {
		for _, profile := range []string{"plain", "zed"} {
			got := replayCompaction(t, c.scenario, profile, c.updates)
			want := goldenCompactionUpdates(t, c.scenario, profile)
			if len(want) == 0 || !reflect.DeepEqual(got, want) {
				t.Errorf("%s/%s:\n got %s\nwant %s", c.scenario, profile, strings.Join(got, "\n     "), strings.Join(want, "\n     "))
			}
		}
	}
}

func TestCompactionLifecycleRules(t *testing.T) {
	c := Lifecycle{updates: true}
	c.start("a")
	c.recordSummary("<analysis>\nthinking\n</analysis>\n<summary>\nS\n</summary>\n")
	if got := c.Reset(); len(got) != 1 || got[0]["status"] != "cancelled" {
		t.Fatalf("an open compaction_update ends cancelled at the turn boundary: %v", got)
	}
	if got := c.finish("a", "completed", nil, false); len(got) != 1 || got[0]["summary"] != nil {
		t.Fatalf("a terminal-only compaction opens already terminal, without the old summary: %v", got)
	}
	if c.finish("a", "completed", nil, false) != nil {
		t.Fatal("a repeated terminal status without facts is dropped")
	}
	legacy := Lifecycle{}
	legacy.finish("b", "failed", compactionFacts{"error": "boom"}, false)
	if legacy.ConsumeDuplicateError("other") || !legacy.ConsumeDuplicateError(" boom\n") || legacy.ConsumeDuplicateError("boom") {
		t.Fatal("exactly one copy of the failed compaction's error is dropped")
	}
	if got := legacy.Reset(); got != nil {
		t.Fatalf("the legacy tool call is left as it was at the boundary: %v", got)
	}
	stopped := Lifecycle{updates: true}
	stopped.start("c")
	stopped.Interrupt()
	if stopped.start("d") != nil || stopped.finish("d", "completed", nil, false) != nil {
		t.Fatal("after a cancel, frames of the abandoned work are ignored")
	}
	stopped.Resume()
	if stopped.start("e") == nil {
		t.Fatal("a new turn accepts compaction frames again")
	}
}

// frameOf is the frame of a CLI line.
func frameOf(t *testing.T, line json.RawMessage) *claude.Frame {
	t.Helper()
	f, err := claude.DecodeFrame(append([]byte(nil), line...))
	if err != nil {
		t.Fatal(err)
	}
	return f
}
