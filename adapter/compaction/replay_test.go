package compaction

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/conform/scenario"
)

// The summary row of compaction-load-summary replays as the golden's
// compaction_update for each profile (AIR gets the contextCompaction
// `_meta`), keyed by the row's uuid; without the compaction capability,
// or for another message, nothing is swapped.
func TestReplayedCompactionsMatchTheGolden(t *testing.T) {
	sc, err := scenario.Load(filepath.Join(repoRoot(t), "scenarios", "compaction-load-summary.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var summary history.Message
	for _, r := range sc.Transcript.Rows {
		if r.Raw != nil && r.Raw["isCompactSummary"] == true {
			msg, _ := json.Marshal(r.Raw["message"])
			summary = history.Message{Type: "user", UUID: "<uuid-2>", CompactSummary: true, Message: msg}
		}
	}
	for _, profile := range []string{"plain", "zed", "air"} {
		var init struct {
			Params struct {
				ClientCapabilities json.RawMessage `json:"clientCapabilities"`
			} `json:"params"`
		}
		var want json.RawMessage
		for _, l := range goldentest.Tagged(t, "compaction-load-summary", profile, "client editor->agent") {
			if strings.Contains(l, `"method":"initialize"`) {
				_ = json.Unmarshal([]byte(l), &init)
			}
		}
		for _, l := range goldentest.Tagged(t, "compaction-load-summary", profile, "client agent->editor") {
			var n struct {
				Params struct {
					Update json.RawMessage `json:"update"`
				} `json:"params"`
			}
			if strings.Contains(l, `"compaction_update"`) && json.Unmarshal([]byte(l), &n) == nil {
				want = n.Params.Update
			}
		}
		client := caps.Parse(init.Params.ClientCapabilities)
		got, ok := Replay(client)(summary)
		if !ok || !sameJSON(t, got, want) {
			t.Errorf("%s: replay = %s, %v; the golden has %s", profile, got, ok, want)
		}
		if _, ok := Replay(client)(history.Message{Type: "user", UUID: "u", Message: summary.Message}); ok {
			t.Errorf("%s: a message that is no compaction summary was swapped", profile)
		}
		client.Compaction = false
		if Replay(client) != nil {
			t.Errorf("%s: without the capability the summary is swapped", profile)
		}
	}
}

func sameJSON(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
