package sessionconfig

import "testing"

// The CLI's 2.1.318 list, with a custom model the settings named.
var cliModels = []Model{
	{SupportsAutoMode: true, Value: "default", ResolvedModel: "claude-opus-5-5", DisplayName: "Default (recommended)", Description: "Use the default model (currently Opus 5.5)"},
	{SupportsAutoMode: true, Value: "opus", ResolvedModel: "claude-opus-5-5", DisplayName: "Opus", Description: "Opus 5.5 · Best for everyday, complex tasks"},
	{SupportsAutoMode: true, Value: "opus[1m]", ResolvedModel: "claude-opus-5-5[1m]", DisplayName: "Opus (1M context)", Description: "Opus 5.5 with 1M context"},
	{SupportsAutoMode: true, Value: "sonnet", ResolvedModel: "claude-sonnet-5-5", DisplayName: "Sonnet", Description: "Sonnet 5.5 · Efficient for routine tasks"},
	{SupportsAutoMode: true, Value: "haiku", ResolvedModel: "claude-haiku-5-5", DisplayName: "Haiku", Description: "Haiku 5.5 · Fastest for quick answers"},
	{Value: "claude-3-5-haiku-20241022", ResolvedModel: "claude-3-5-haiku-20241022", DisplayName: "Claude 3.5 Haiku", Description: "Custom model"},
}

func TestResolveModel(t *testing.T) {
	for _, tc := range []struct{ pref, want string }{
		{"sonnet", "sonnet"},                       // the value
		{" Sonnet ", "sonnet"},                     // the display name, trimmed
		{"opus-1m", "opus[1m]"},                    // the canonical spelling of a context hint
		{"claude-sonnet-5-5", "sonnet"},            // the resolved id
		{"claude-opus-5-5", "opus"},                // a concrete row before default
		{"claude-opus-5-5[1m]", "opus[1m]"},        // the resolved id with its hint
		{"3.5 haiku", "claude-3-5-haiku-20241022"}, // contained in the display name
		{"opusplan", "opus"},                       // words: opusplan is Opus
		{"the best sonnet", "sonnet"},              // words: only those that tell models apart
		{"sonnet 4.5", ""},                         // another version
		{"opus [1m]", "opus[1m]"},                  // the hint scores three
		{"[1m]", "opus[1m]"},                       // contained in the value, with the same hint
		{"claude [1m]", ""},                        // words: a hint alone names nothing
		{"default", "default"},
		{"gpt-5", ""},
		{"", ""},
	} {
		got, ok := ResolveModel(cliModels, tc.pref)
		if got.Value != tc.want || ok != (tc.want != "") {
			t.Errorf("ResolveModel(%q) = %q, %v; want %q", tc.pref, got.Value, ok, tc.want)
		}
	}
}

// Opening switches to the preferred model unless the CLI's own list holds
// it spelled exactly (a fresh CLI lands there by itself), always on a
// resume, and syncs a starting mode the session clamped.
func TestOpening(t *testing.T) {
	in := Init{Models: cliModels}
	o := Options{Mode: "auto", BuiltInDefault: true, AllowAuto: true, CLIModels: cliModels}
	for _, tc := range []struct {
		pref              string
		resumed           bool
		setModel, setMode string
	}{
		{"", false, "", ""},
		{"sonnet", false, "", ""},
		{"claude-sonnet-5-5", false, `{"model":"sonnet","subtype":"set_model"}`, ""},
		{"sonnet", true, `{"model":"sonnet","subtype":"set_model"}`, ""},
		{"gpt-5", false, "", ""},
		// A model without Auto: the built-in default starts in Manual.
		{"claude-3-5-haiku-20241022", false, "", `{"mode":"default","subtype":"set_permission_mode"}`},
	} {
		o.Model, o.Resumed = tc.pref, tc.resumed
		setModel, setMode := Opening(in, o)
		if string(setModel) != tc.setModel || string(setMode) != tc.setMode {
			t.Errorf("Opening(%q, resumed %v) = %s, %s; want %s, %s", tc.pref, tc.resumed, setModel, setMode, tc.setModel, tc.setMode)
		}
	}
	// A value a gateway narrowed the list to, but not in the CLI's own.
	o.Model, o.Resumed, o.CLIModels = "opus", false, cliModels[3:]
	if setModel, _ := Opening(in, o); setModel == nil {
		t.Error("a value the CLI's own list lacks needs a set_model")
	}
	// A dontAsk default is accepted, then not offered: Manual.
	o.Model, o.Mode, o.BuiltInDefault = "", "dontAsk", false
	if _, setMode := Opening(in, o); string(setMode) != `{"mode":"default","subtype":"set_permission_mode"}` {
		t.Errorf("dontAsk: %s", setMode)
	}
}
