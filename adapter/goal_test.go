package adapter

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/goldentest"
)

// The _session/goal requests of goal-set-clear-idle: the valid ones run
// the /goal command the golden sends the CLI, the others fail with the
// golden's invalidParams messages (contract "Goal", "Control request").
func TestGoalRequestsMatchTheGolden(t *testing.T) {
	client := goldentest.Read(t, goldentest.Path(t, "goal-set-clear-idle", "air"))
	cli := strings.Join(goldentest.Tagged(t, "goal-set-clear-idle", "air", "cli:1 agent->cli"), "\n")
	checked := 0
	for i, l := range client {
		js := string(l.Msg)
		if l.Tag != "client editor->agent" || !strings.Contains(js, `"_session/goal"`) {
			continue
		}
		var req struct {
			ID     int             `json:"id"`
			Params json.RawMessage `json:"params"`
		}
		_ = json.Unmarshal([]byte(js), &req)
		command, _, err := goalCommand(req.Params)
		resp := ""
		for _, r := range client[i+1:] {
			if strings.Contains(string(r.Msg), `"id":`+itoa(req.ID)+`,`) && r.Tag == goldentest.AgentTag {
				resp = string(r.Msg)
				break
			}
		}
		if err != nil {
			b, _ := json.Marshal(err)
			if !strings.Contains(resp, string(b)) {
				t.Errorf("request %d: error %s, golden %s", req.ID, b, resp)
			}
		} else if !strings.Contains(cli, `"text":"`+command+`"`) {
			t.Errorf("request %d: command %q not sent in the golden", req.ID, command)
		}
		checked++
	}
	if checked != 4 {
		t.Fatalf("%d goal requests checked, want 4", checked)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// The goal golden's active_goal messages map to its snapshots: the
// neutral fields only, lastReason null when absent ("Claude mapping").
func TestGoalSnapshotMatchesTheGolden(t *testing.T) {
	var got []string
	for _, f := range []string{
		`{"type":"active_goal","value":{"condition":"make the tests pass","iterations":0,"set_at":1767225600000,"tokens_at_start":1000}}`,
		`{"type":"active_goal","value":{"condition":"make the tests pass","iterations":1,"set_at":1767225600000,"tokens_at_start":1000,"last_reason":"Two tests still fail"}}`,
	} {
		snap, ok := goalSnapshot(resultFrame(t, json.RawMessage(f)))
		if !ok {
			t.Fatal(f)
		}
		b, _ := json.Marshal(snap)
		got = append(got, string(b))
	}
	golden := strings.Join(goldentest.Tagged(t, "goal", "air", "client agent->editor"), "\n")
	for _, g := range got {
		if !strings.Contains(golden, `"goal":`+g) {
			t.Errorf("snapshot %s not in the golden", g)
		}
	}
	if snap, ok := goalSnapshot(resultFrame(t, json.RawMessage(`{"type":"active_goal","value":null}`))); !ok || snap != nil {
		t.Errorf("a cleared goal is null: %v", snap)
	}
}
