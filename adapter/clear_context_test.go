package adapter

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/airwire/airwire/adapter/claude"
)

// resultFrame is the frame of a CLI line.
func resultFrame(t *testing.T, line json.RawMessage) *claude.Frame {
	t.Helper()
	f, err := claude.DecodeFrame(append([]byte(nil), line...))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// cassetteResults returns the result frames the CLI printed in a recorded
// run (goldens/<scenario>/<profile>.cassette).
func cassetteResults(t *testing.T, scenario, profile string) []*claude.Frame {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot(t), "goldens", scenario, profile+".cassette"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*claude.Frame
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e struct {
			Dir string          `json:"dir"`
			Msg json.RawMessage `json:"msg"`
		}
		var head struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Dir == "cli" && json.Unmarshal(e.Msg, &head) == nil && head.Type == "result" {
			out = append(out, resultFrame(t, e.Msg))
		}
	}
	return out
}

// Only the diagnostic that ends the cycle a clear-context answer
// interrupted starts the fresh context: the first result of the recorded
// clear-context run is it; its fresh context's result, the results of a
// plain approval and the diagnostic of an interrupt of a turn without
// tool use are not.
func TestExitPlanInterrupted(t *testing.T) {
	results := cassetteResults(t, "exit-plan-clear-context", "air")
	if len(results) != 2 {
		t.Fatalf("%d results in the clear-context cassette, want 2", len(results))
	}
	if !exitPlanInterrupted(results[0]) {
		t.Errorf("the interrupted cycle's diagnostic was not recognized: %.300s", results[0].Raw)
	}
	if exitPlanInterrupted(results[1]) {
		t.Error("the fresh context's result was taken for the interruption")
	}
	for _, r := range cassetteResults(t, "exit-plan-approve", "air") {
		if exitPlanInterrupted(r) {
			t.Errorf("an approval's result was taken for the interruption: %.300s", r.Raw)
		}
	}
	other := resultFrame(t, json.RawMessage(`{"type":"result","subtype":"error_during_execution","is_error":true,"errors":["[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=end_turn"]}`))
	if exitPlanInterrupted(other) {
		t.Error("a diagnostic without stop_reason=tool_use was taken for the interruption")
	}
}
