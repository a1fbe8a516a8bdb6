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

// TestGoalIsAIROnly: the goal extension applies only to an AIR client
// (contract, Goal), so a plain or a Zed client's `_session/goal` is an
// unknown method (-32601), while an AIR client's reaches the goal's own
// checks (an unsupported action is invalidParams). goldens/DEVIATIONS.md
// entry 23: the reference answers the plain and Zed clients too.
func TestGoalIsAIROnly(t *testing.T) {
	clients := []struct {
		name, caps string
		code       float64
	}{
		{"plain", `{}`, -32601},
		{"zed", `{"_meta":{"terminal-auth":true}}`, -32601},
		{"air", `{"_meta":{"jetbrains":{"air":{"version":1,"capabilities":[]}}}}`, -32602},
	}
	for _, c := range clients {
		t.Run(c.name, func(t *testing.T) {
			e := startAgent(t, "ok")
			e.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":` + c.caps + `}}`)
			e.reply(0)
			e.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + t.TempDir() + `","mcpServers":[]}}`)
			res, _ := e.reply(1)["result"].(map[string]any)
			sid, _ := res["sessionId"].(string)
			if sid == "" {
				t.Fatal("session/new failed")
			}
			e.send(`{"jsonrpc":"2.0","id":2,"method":"_session/goal","params":{"sessionId":"` + sid + `","action":"pause"}}`)
			r := e.reply(2)
			errObj, _ := r["error"].(map[string]any)
			if errObj == nil || errObj["code"] != c.code {
				t.Fatalf("_session/goal from a %s client = %v, want error %v", c.name, r, c.code)
			}
		})
	}
}
