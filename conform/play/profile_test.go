package play

import (
	"context"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/scenario"
)

// TestProfileOf: the profile an editor's initialize declares, read from
// the capabilities each profile of the suite sends.
func TestProfileOf(t *testing.T) {
	for _, p := range scenario.DefaultProfiles() {
		caps, err := scenario.ClientCapabilities(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		init := mustJSON(t, map[string]any{"jsonrpc": "2.0", "id": 0, "method": "initialize",
			"params": map[string]any{"protocolVersion": 1, "clientCapabilities": caps}})
		if got := ProfileOf(init); got != p {
			t.Errorf("%s's initialize: got %s", p, got)
		}
	}
	for _, tt := range []struct {
		in   string
		want scenario.Profile
	}{
		{`{"method":"initialize","params":{"clientCapabilities":{"auth":{"terminal":true}}}}`, scenario.ProfileZed},
		{`{"method":"initialize","params":{"clientCapabilities":{"_meta":{"jetbrains":{"air":null}}}}}`, scenario.ProfilePlain},
		{`not json`, scenario.ProfilePlain},
		{`{"method":"session/new"}`, scenario.ProfilePlain},
	} {
		if got := ProfileOf([]byte(tt.in)); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestProfileFor: an editor that declares exactly what a profile of the
// scenario declares (with the scenario's change) gets that profile, a
// variant too; any other declaration gets the nearest default profile.
func TestProfileFor(t *testing.T) {
	sc := &scenario.Scenario{Name: "s", Profiles: []scenario.Profile{"air", "air-minimal", "air-no-form", "zed", "zed-notices"},
		Capabilities: &scenario.CapabilityChange{WithoutAir: []string{"diffPatch"}}}
	initOf := func(caps map[string]any) []byte {
		return mustJSON(t, map[string]any{"jsonrpc": "2.0", "id": 0, "method": "initialize",
			"params": map[string]any{"protocolVersion": 1, "clientCapabilities": caps}})
	}
	for _, p := range sc.Profiles {
		caps, err := scenario.ClientCapabilities(p, sc.Capabilities)
		if err != nil {
			t.Fatal(err)
		}
		if got := ProfileFor(sc, initOf(caps)); got != p {
			t.Errorf("%s's initialize: got %s", p, got)
		}
		caps["fs"] = map[string]any{}
		want := scenario.ProfileAir
		if strings.HasPrefix(string(p), "zed") {
			want = scenario.ProfileZed
		}
		if got := ProfileFor(sc, initOf(caps)); got != want {
			t.Errorf("%s's initialize with another fs: got %s, want %s", p, got, want)
		}
	}
	// Without the scenario's change the declaration is no profile's exactly.
	caps, _ := scenario.ClientCapabilities("air-no-form", nil)
	if got := ProfileFor(sc, initOf(caps)); got != scenario.ProfileAir {
		t.Errorf("air-no-form without the scenario's change: got %s, want air", got)
	}
}

// TestRunAnswersWhatItCannotPlay: an editor whose profile the scenario was
// not recorded for gets its initialize answered with an error that says
// so, and play returns the same error.
func TestRunAnswersWhatItCannotPlay(t *testing.T) {
	sc := &scenario.Scenario{Name: "only-air", Profiles: []scenario.Profile{scenario.ProfileAir}}
	var out, errOut strings.Builder
	_, err := Run(context.Background(), Options{Airwire: "airwire", Scenario: sc, In: strings.NewReader(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}` + "\n"),
		Out: &out, ErrOut: &errOut})
	if err == nil || !strings.Contains(err.Error(), "not recorded for the profile plain (it has air)") {
		t.Fatalf("err %v", err)
	}
	want := `{"error":{"code":-32603,"message":"the scenario only-air is not recorded for the profile plain (it has air)"},"id":0,"jsonrpc":"2.0"}` + "\n"
	if out.String() != want {
		t.Errorf("the editor got %q", out.String())
	}
}
