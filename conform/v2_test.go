package conform_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/internal/testroot"
	"github.com/airwire/airwire/schemas/acp"
	"github.com/airwire/airwire/schemas/validate"
)

// v2Scenario is testdata/text-turn with a prompt step that requires the
// stop reason: under a v2 profile that reason is in the turn's idle
// state_update, not in the prompt's answer.
func v2Scenario(t *testing.T) *scenario.Scenario {
	t.Helper()
	scs, err := scenario.LoadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range scs {
		if sc.Name == "text-turn" {
			sc.Client.Steps[0].Prompt.StopReason = "end_turn"
			return sc
		}
	}
	t.Fatal("no testdata/text-turn.yaml")
	return nil
}

// TestV2PromptStepEndsWithItsTurn drives the reference adapter as a v2
// client: initialize negotiates protocolVersion 2, the prompt's answer is
// its messageId, and the step ends at the idle state_update that carries
// the stop reason it requires.
func TestV2PromptStepEndsWithItsTurn(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns the reference adapter")
	}
	agent := reference(t)
	dir, err := os.MkdirTemp("", "aw-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	res, err := conform.Run(context.Background(), conform.Options{Airwire: testroot.Binary(t), Agent: agent, Scenario: v2Scenario(t), Profile: "plain-v2", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var initV2, messageID, idleEnd bool
	for _, e := range res.Entries {
		if e.Lane != journal.LaneClient || e.Kind != journal.KindMsg {
			continue
		}
		var m struct {
			Method string `json:"method"`
			Params struct {
				ProtocolVersion int `json:"protocolVersion"`
				Update          struct {
					SessionUpdate, State, StopReason string
				} `json:"update"`
			} `json:"params"`
			Result struct {
				ProtocolVersion int    `json:"protocolVersion"`
				MessageID       string `json:"messageId"`
			} `json:"result"`
		}
		if json.Unmarshal(e.Msg, &m) != nil {
			continue
		}
		initV2 = initV2 || m.Result.ProtocolVersion == 2
		messageID = messageID || m.Result.MessageID != ""
		idleEnd = idleEnd || m.Params.Update.SessionUpdate == "state_update" && m.Params.Update.State == "idle" && m.Params.Update.StopReason == "end_turn"
	}
	if !initV2 || !messageID || !idleEnd {
		t.Fatalf("protocolVersion 2 answered: %v, a prompt answered with its messageId: %v, an idle end_turn: %v", initV2, messageID, idleEnd)
	}
	// The journal validates against the v2 schema (airwire validate).
	a, set, err := validate.Load()
	if err != nil {
		deps.Unavailable(t, "no ACP schema: %v", err)
	}
	if _, err := os.Stat(filepath.Join(acp.V2Dir(filepath.Dir(a.File)), acp.UnstableFile)); err != nil {
		deps.Unavailable(t, "the ACP v2 schema is not installed (make deps): %v", err)
	}
	rep, err := validate.Journal(res.Journal, validate.New(a, set))
	if err != nil {
		t.Fatal(err)
	}
	if rep.HasErrors() || rep.Stats.Messages < 10 {
		t.Errorf("%d messages, findings %v", rep.Stats.Messages, rep.Findings)
	}
}

// TestV2ProfileAgainstAV1Agent: an agent that answers a v2 initialize
// with protocolVersion 1 (airwire's own agent told to serve v1 alone)
// fails the run at once, saying so, rather than at a later step or a time
// limit.
func TestV2ProfileAgainstAV1Agent(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns airwire agent")
	}
	bin := testroot.Binary(t)
	dir, err := os.MkdirTemp("", "aw-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	start := time.Now()
	_, err = conform.Run(context.Background(), conform.Options{Airwire: bin, Agent: []string{"env", "AIRWIRE_ACP_PROTOCOL=v1", bin, "agent"}, Scenario: v2Scenario(t), Profile: "plain-v2", Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "the agent answered initialize with protocolVersion 1; the profile plain-v2 needs 2") {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > conform.DefaultWaitTimeout/2 {
		t.Errorf("the run took %s to fail", d)
	}
}
