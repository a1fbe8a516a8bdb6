package agentinfo

import (
	"encoding/json"
	"github.com/airwire/airwire/conform/goldentest"
	"slices"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
)

// undeclaredReferenceCaps are the reference's extra AIR names our agent
// does not advertise (goldens/DEVIATIONS.md entries 10 and 11).
var undeclaredReferenceCaps = []string{"customInstructions", "sessionBatchGet", "sessionWorktrees"}

// TestAIRDeclarationMatchesGoldens runs every AIR golden's initialize
// request through Initialize: the result is the recorded one, but for
// agentInfo.name and the names of entries 10 and 11, which the agent list
// leaves out while keeping the reference's order (contract: "Agent
// declaration").
func TestAIRDeclarationMatchesGoldens(t *testing.T) {
	for name, path := range goldentest.Profile(t, "air", false) {
		t.Run(name, func(t *testing.T) {
			req, resp := initializePair(t, goldentest.Read(t, path))
			got := Initialize(caps.Parse(req), Options{Version: "<agent-version>", Launcher: goldenLauncher})
			var want map[string]any
			if err := json.Unmarshal(withOurName(t, resp), &want); err != nil {
				t.Fatal(err)
			}
			air := want["_meta"].(map[string]any)["jetbrains"].(map[string]any)["air"].(map[string]any)
			list := air["capabilities"].([]any)
			air["capabilities"] = slices.DeleteFunc(list, func(v any) bool {
				return slices.Contains(undeclaredReferenceCaps, v.(string))
			})
			b, _ := json.Marshal(want)
			if goldentest.Canon(t, got) != goldentest.Canon(t, json.RawMessage(b)) {
				t.Errorf("initialize result\n got %s\nwant %s", goldentest.Canon(t, got), goldentest.Canon(t, json.RawMessage(b)))
			}
		})
	}
}

// TestNoJetBrainsKeyForOtherClients: a client that is not AIR, also one
// with a malformed or partial jetbrains declaration, gets no
// `_meta.jetbrains` key ("Compatibility rule").
func TestNoJetBrainsKeyForOtherClients(t *testing.T) {
	for name, raw := range map[string]string{
		"plain":        `{}`,
		"other vendor": `{"_meta":{"jetbrains":{"fleet":{}}}}`,
		"air not obj":  `{"_meta":{"jetbrains":{"air":true}}}`,
		"zed":          `{"_meta":{"terminal_output":true}}`,
	} {
		got := Initialize(caps.Parse(json.RawMessage(raw)), Options{})
		var r struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		_ = json.Unmarshal(got, &r)
		if _, ok := r.Meta["jetbrains"]; ok {
			t.Errorf("%s: jetbrains key in %s", name, r.Meta)
		}
		if string(r.Meta["steering"]) != `{"supported":true}` {
			t.Errorf("%s: steering %s", name, r.Meta["steering"])
		}
	}
}

// TestSessionIndexGroup: the sessionIndex group only for a client that
// declared sessionIndex, in a valid declaration; a malformed one still
// gets the agent declaration but no group.
func TestSessionIndexGroup(t *testing.T) {
	cases := []struct {
		raw  string
		want bool
	}{
		{`{"_meta":{"jetbrains":{"air":{"version":1,"capabilities":["sessionIndex"]}}}}`, true},
		{`{"_meta":{"jetbrains":{"air":{"version":1,"capabilities":["diffPatch"]}}}}`, false},
		{`{"_meta":{"jetbrains":{"air":{"version":0,"capabilities":["sessionIndex"]}}}}`, false},
		{`{"_meta":{"jetbrains":{"air":{"version":1.5,"capabilities":["sessionIndex"]}}}}`, false},
		{`{"_meta":{"jetbrains":{"air":{"version":1,"capabilities":"sessionIndex"}}}}`, false},
	}
	for _, c := range cases {
		got := AgentAIRCapabilities(caps.Parse(json.RawMessage(c.raw)))
		if has := slices.Contains(got, "sessionArchive"); has != c.want {
			t.Errorf("%s: sessionArchive listed %v, want %v (%v)", c.raw, has, c.want, got)
		}
		if !slices.Contains(got, caps.DiffPatch) {
			t.Errorf("%s: the agent list must not depend on the client's: %v", c.raw, got)
		}
	}
}

// TestBackgroundSubagentsOnV1Only: an AIR client on ACP v2 is not offered
// backgroundSubagents (v2 answers prompts at insertion and keeps the hold);
// on v1 it is.
func TestBackgroundSubagentsOnV1Only(t *testing.T) {
	c := caps.Parse(json.RawMessage(`{"_meta":{"jetbrains":{"air":{"version":1,"capabilities":["backgroundSubagents"]}}}}`))
	if got := AgentAIRCapabilities(c); !slices.Contains(got, BackgroundSubagents) {
		t.Errorf("v1: %v lacks %s", got, BackgroundSubagents)
	}
	c.V2 = true
	got := AgentAIRCapabilities(c)
	if slices.Contains(got, BackgroundSubagents) {
		t.Errorf("v2: %v lists %s", got, BackgroundSubagents)
	}
	if !slices.Contains(got, caps.DiffPatch) {
		t.Errorf("v2: %v lost the rest of the list", got)
	}
}
