package sessionconfig

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/goldentest"
)

// declaresRecommended reads the golden's initialize request: did the
// client declare the AIR capability recommendedValue?
func declaresRecommended(t *testing.T, path string) bool {
	for _, l := range goldentest.Read(t, path) {
		var m struct {
			Method string `json:"method"`
			Params struct {
				Caps struct {
					Meta struct {
						JetBrains struct {
							AIR struct {
								Capabilities []string `json:"capabilities"`
							} `json:"air"`
						} `json:"jetbrains"`
					} `json:"_meta"`
				} `json:"clientCapabilities"`
			} `json:"params"`
		}
		if l.Tag == "client editor->agent" && json.Unmarshal(l.Msg, &m) == nil && m.Method == "initialize" {
			return slices.Contains(m.Params.Caps.Meta.JetBrains.AIR.Capabilities, "recommendedValue")
		}
	}
	return false
}

// modelAndEffort keeps the model and effort selectors of a configOptions
// list (the other options belong to other sections).
func modelAndEffort(t *testing.T, result json.RawMessage) string {
	var r struct {
		ConfigOptions []json.RawMessage `json:"configOptions"`
	}
	_ = json.Unmarshal(result, &r)
	var keep []string
	for _, o := range r.ConfigOptions {
		if s := goldentest.Canon(t, o); strings.Contains(s, `"id":"model"`) || strings.Contains(s, `"id":"effort"`) {
			keep = append(keep, s)
		}
	}
	return strings.Join(keep, "\n")
}

// firstEffortSync is the golden's apply_flag_settings sent between
// get_settings and the first get_context_usage ("" when none).
func firstEffortSync(t *testing.T, path string) string {
	afterSettings := false
	for _, l := range goldentest.Read(t, path) {
		var m struct {
			Request json.RawMessage `json:"request"`
		}
		var sub struct {
			Subtype string `json:"subtype"`
		}
		if l.Tag != "cli:1 agent->cli" || json.Unmarshal(l.Msg, &m) != nil || json.Unmarshal(m.Request, &sub) != nil {
			continue
		}
		switch sub.Subtype {
		case "get_settings":
			afterSettings = true
		case "apply_flag_settings":
			if afterSettings {
				return goldentest.Canon(t, m.Request)
			}
		case "get_context_usage", "":
			if afterSettings {
				return ""
			}
		}
	}
	return ""
}

// Every AIR golden with a cassette: the model and effort selectors of the
// setup response, and the effort applied at session creation, follow the
// client's recommendedValue declaration (contract "Recommended config
// values": Activation, Model, Effort).
func TestRecommendedValuesMatchAIRGoldens(t *testing.T) {
	seen := map[bool]int{}
	for name, path := range goldentest.Profile(t, "air", true) {
		want := sessionResults(t, path)
		ps := goldentest.LoadCassette(t, path).Processes
		if len(want) == 0 || len(ps) == 0 {
			continue // no session set up in this run
		}
		p := ps[0]
		a := answersOf(t, p)
		if !a.hasInit {
			continue
		}
		t.Run(name, func(t *testing.T) {
			in, o := a.openingOf(p.Argv, transcriptModel(t, name))
			o.Recommended = declaresRecommended(t, path)
			seen[o.Recommended]++
			s := New(in, a.settings, o)
			var sync string
			if r := s.InitialEffortRequest(); r != nil {
				sync = goldentest.Canon(t, r)
			}
			if got, w := modelAndEffort(t, s.Result("")), modelAndEffort(t, want[0]); got != w {
				t.Errorf("selectors\n got %s\nwant %s", got, w)
			}
			if w := firstEffortSync(t, path); sync != w {
				t.Errorf("effort applied at creation: got %q, want %q", sync, w)
			}
		})
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Errorf("runs with and without the capability: %v; both must be covered", seen)
	}
}

// The with-capability golden's model and effort changes: set_model, then
// the shown effort applied (Plan.Sync) before the response, then the
// context refresh; an explicit effort stays current.
func TestRecommendedChangesMatchTheGolden(t *testing.T) {
	path := goldentest.Profile(t, "air", true)["recommended-value-with-capability"]
	a := answersOf(t, goldentest.LoadCassette(t, path).Processes[0])
	o := goldenOptions
	o.Recommended = true
	s := New(a.init, a.settings, o)
	sent := []string{goldentest.Canon(t, s.InitialEffortRequest())}
	lines := goldentest.Read(t, path)
	for i, l := range lines {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ConfigID string          `json:"configId"`
				Value    json.RawMessage `json:"value"`
			} `json:"params"`
		}
		if l.Tag != "client editor->agent" || json.Unmarshal(l.Msg, &req) != nil || req.Method != "session/set_config_option" {
			continue
		}
		plan, err := s.SetConfigOption(req.Params.ConfigID, req.Params.Value)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range append(plan.Requests, plan.Sync) {
			if r != nil {
				sent = append(sent, goldentest.Canon(t, r))
			}
		}
		out := plan.Commit()
		for _, r := range out.After {
			sent = append(sent, goldentest.Canon(t, r))
		}
		_, wantResp := answerOf(t, lines[i+1:], req.ID)
		var resp struct {
			Result json.RawMessage `json:"result"`
		}
		_ = json.Unmarshal([]byte(wantResp), &resp)
		if got, w := modelAndEffort(t, out.Result), modelAndEffort(t, resp.Result); got != w {
			t.Errorf("%s: selectors\n got %s\nwant %s", req.Params.ConfigID, got, w)
		}
	}
	if want := cliRequests(t, lines); !slices.Equal(sent, want) {
		t.Errorf("control requests\n got %v\nwant %v", sent, want)
	}
}

// A failed effort sync keeps the new model and never shows the unapplied
// effort: the last applied level when the new model offers it, else no
// effort selector ("Effort").
func TestRecommendedEffortSyncFailure(t *testing.T) {
	models := []Model{
		{Value: "default", ResolvedModel: "claude-opus-5-5[1m]", DisplayName: "Default", SupportsEffort: true, SupportedEffortLevels: []string{"low", "medium", "high"}},
		{Value: "opus", ResolvedModel: "claude-opus-5-5-1m", DisplayName: "Opus", SupportsEffort: true, SupportedEffortLevels: []string{"low", "medium", "high"}},
		{Value: "mini", ResolvedModel: "claude-mini", DisplayName: "Mini", SupportsEffort: true, SupportedEffortLevels: []string{"fast"}},
	}
	s := New(Init{Models: models}, Settings{}, Options{Mode: "default", Recommended: true})
	if got := modelAndEffort(t, s.Result("")); !strings.Contains(got, `"currentValue":"opus"`) || strings.Contains(got, `"value":"default"`) {
		t.Fatalf("the -1m and [1m] spellings must match and drop the default row: %s", got)
	}
	if r := goldentest.Canon(t, s.InitialEffortRequest()); !strings.Contains(r, `"effortLevel":"medium"`) {
		t.Fatalf("initial effort: %s", r)
	}
	plan, _ := s.SetConfigOption("model", json.RawMessage(`"mini"`))
	if !plan.ModelChange {
		t.Error("a switch to another model is not a ModelChange")
	}
	if r := goldentest.Canon(t, plan.Sync); !strings.Contains(r, `"effortLevel":"fast"`) {
		t.Errorf("a model without medium recommends its first level: %s", r)
	}
	out := plan.CommitUnsynced()
	if got := modelAndEffort(t, out.Result); !strings.Contains(got, `"currentValue":"mini"`) || strings.Contains(got, `"id":"effort"`) {
		t.Errorf("the unapplied effort must not show: %s", got)
	}
	plan, _ = s.SetConfigOption("model", json.RawMessage(`"opus"`))
	out = plan.CommitUnsynced()
	if got := modelAndEffort(t, out.Result); !strings.Contains(got, `"currentValue":"medium"`) {
		t.Errorf("the last applied effort stays current: %s", got)
	}
	if plan, _ = s.SetConfigOption("model", json.RawMessage(`"opus"`)); plan.ModelChange {
		t.Error("choosing the current model again is a ModelChange")
	}
}
