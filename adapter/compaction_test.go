package adapter

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/cassette"
)

// replayCompaction feeds a cassette's CLI frames (and the PostCompact
// hook inputs) through a compaction lifecycle the way the translator does,
// and returns the updates it makes, ids renamed as the goldens name them.
func replayCompaction(t *testing.T, scenario, profile string, updates bool) []string {
	t.Helper()
	c, err := cassette.Load(filepath.Join(repoRoot(t), "goldens", scenario, profile+".cassette"))
	if err != nil {
		t.Fatal(err)
	}
	var lc compaction
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
					Subtype string          `json:"subtype"`
					Input   json.RawMessage `json:"input"`
				} `json:"request"`
			}
			_ = json.Unmarshal(e.Msg, &h)
			var got []map[string]any
			switch {
			case h.Type == "system" && h.Subtype == "status":
				got = lc.statusFrame(e.Msg)
			case h.Type == "system" && h.Subtype == "compact_boundary":
				got = lc.boundaryFrame(e.Msg)
			case h.Type == "stream_event":
				got = lc.streamFrame(e.Msg)
			case h.Type == "control_request" && h.Request.Subtype == "hook_callback":
				lc.hookInput(h.Request.Input)
			case h.Type == "result":
				got = lc.reset()
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
				ids[id] = sprintf("<uuid-%d>", len(ids)+1)
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
	for _, l := range goldenLines(t, scenario, profile, "client agent->editor") {
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
	c := compaction{updates: true}
	c.start("a")
	c.recordSummary("<analysis>\nthinking\n</analysis>\n<summary>\nS\n</summary>\n")
	if got := c.reset(); len(got) != 1 || got[0]["status"] != "cancelled" {
		t.Fatalf("an open compaction_update ends cancelled at the turn boundary: %v", got)
	}
	if got := c.finish("a", "completed", nil, false); len(got) != 1 || got[0]["summary"] != nil {
		t.Fatalf("a terminal-only compaction opens already terminal, without the old summary: %v", got)
	}
	if c.finish("a", "completed", nil, false) != nil {
		t.Fatal("a repeated terminal status without facts is dropped")
	}
	legacy := compaction{}
	legacy.finish("b", "failed", compactionFacts{"error": "boom"}, false)
	if legacy.consumeDuplicateError("other") || !legacy.consumeDuplicateError(" boom\n") || legacy.consumeDuplicateError("boom") {
		t.Fatal("exactly one copy of the failed compaction's error is dropped")
	}
	if got := legacy.reset(); got != nil {
		t.Fatalf("the legacy tool call is left as it was at the boundary: %v", got)
	}
	stopped := compaction{updates: true}
	stopped.start("c")
	stopped.interrupt()
	if stopped.start("d") != nil || stopped.finish("d", "completed", nil, false) != nil {
		t.Fatal("after a cancel, frames of the abandoned work are ignored")
	}
	stopped.resume()
	if stopped.start("e") == nil {
		t.Fatal("a new turn accepts compaction frames again")
	}
}

func TestCompactionSummaryText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"<summary>Inline.</summary>", "Inline."},
		{"<analysis>\nmentions <summary> here\n</analysis>\n<summary>\nThe summary.\n</summary>\n", "The summary."},
		{"<summary>\nOuter quotes </summary> inline.\n</summary>", "Outer quotes </summary> inline."},
		{"This session is being continued from a previous conversation that ran out of context.\n\nSummary:\nKept.\n\nIf you need specific details from before compaction, read it.", "Kept."},
		{"This session is being continued from a previous conversation, in an unknown frame", ""},
		{"  ", ""},
	}
	for _, c := range cases {
		got, ok := compactionSummaryText(c.in)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("compactionSummaryText(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}
