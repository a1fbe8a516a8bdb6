package sessionindex

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestHeldSessionIdleAfterAFinishedTurn: a session an SDK CLI holds is
// `idle` after a finished turn (contract, List response, state: "any other
// held session: `idle` after a finished turn"), also when the turn started
// a background shell that is still open (goldens/DEVIATIONS.md entry 22).
func TestHeldSessionIdleAfterAFinishedTurn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	open := `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_bg"}]},"toolUseResult":{"backgroundTaskId":"bk1"}}` + "\n" +
		`{"type":"assistant","message":{"stop_reason":"end_turn","content":[{"type":"text","text":"started"}]}}` + "\n"
	if err := os.WriteFile(path, []byte(open), 0o600); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	r := row{sessionID: "s", path: path, mtimeMs: now.UnixMilli(), facts: facts{turnState: "finished"}}
	held := &liveRecord{SessionID: "s", Kind: "sdk", Entrypoint: "sdk-ts", Status: "busy"}
	if state, _ := activity(r, Own{}, false, held, now); state != "idle" {
		t.Errorf("held session after a finished turn with an open task: state %q, want idle", state)
	}
	r.facts.turnState = "unfinished"
	if state, _ := activity(r, Own{}, false, held, now); state != "running" {
		t.Errorf("held session with an unfinished recent turn: state %q, want running", state)
	}
}
