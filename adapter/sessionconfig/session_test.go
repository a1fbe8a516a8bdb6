package sessionconfig

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestVersionedName(t *testing.T) {
	tests := []struct {
		m    Model
		want string
	}{
		{Model{Value: "opus", ResolvedModel: "claude-opus-5-5", DisplayName: "Opus"}, "Opus 5.5"},
		{Model{Value: "default", ResolvedModel: "claude-opus-5-5", DisplayName: "Default (recommended)"}, "Default (recommended)"},
		{Model{Value: "sonnet[1m]", Description: "Sonnet 5 for long sessions", DisplayName: "Sonnet (1M context)"}, "Sonnet 5 (1M context)"},
		{Model{Value: "sonnet[1m]", Description: "Sonnet 5 with 1M context", DisplayName: "Sonnet (1M context)"}, "Sonnet 5"},
		{Model{Value: "opus", ResolvedModel: "claude-opus-4-7", DisplayName: "Opus 4.7"}, "Opus 4.7"},
		{Model{Value: "custom", DisplayName: "My Custom Model"}, "My Custom Model"},
	}
	for _, tt := range tests {
		if got := versionedName(tt.m); got != tt.want {
			t.Errorf("%+v: got %q, want %q", tt.m, got, tt.want)
		}
	}
	names := pickerNames([]Model{{Value: "a", DisplayName: "Same"}, {Value: "b", DisplayName: "Same"}})
	if names[0] != "Same (a)" || names[1] != "Same (b)" {
		t.Errorf("repeated names %v", names)
	}
}

func TestCommandsFilterAndRename(t *testing.T) {
	cmds := []Command{
		{Name: "clear"}, {Name: "mcp"}, {Name: "doctor"}, {Name: "srv:go (MCP)", ArgumentHint: json.RawMessage(`["a","b"]`)},
		{Name: "two words"}, {Name: "x"}, {Name: "x"},
	}
	got := Commands(cmds, []string{"doctor"})
	var names []string
	for _, c := range got {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != "mcp:srv:go,x,mcp,remote-control" {
		t.Errorf("names %v", names)
	}
	if got[0].Input == nil || got[0].Input.Hint != "a b" {
		t.Errorf("list hint %+v", got[0].Input)
	}
}

func TestAutoOnModelWithoutAuto(t *testing.T) {
	in := Init{Models: []Model{{Value: "haiku", DisplayName: "Haiku"}}}
	o := Options{Mode: "auto", AllowAuto: true, BuiltInDefault: true}
	if _, sync := Opening(in, o); New(in, Settings{}, o).Mode() != "default" || string(sync) != `{"mode":"default","subtype":"set_permission_mode"}` {
		t.Errorf("built-in auto: mode %s, sync %s", New(in, Settings{}, o).Mode(), sync)
	}
	o.BuiltInDefault = false
	s := New(in, Settings{}, o)
	if s.Mode() != "acceptEdits" {
		t.Errorf("chosen auto: mode %s, want acceptEdits", s.Mode())
	}
	p, err := s.SetMode("auto")
	if err != nil || string(p.Requests[0]) != `{"mode":"acceptEdits","subtype":"set_permission_mode"}` {
		t.Fatalf("set_mode auto: %v %s", err, p.Requests)
	}
	// Not yet said (the first prompt would have): the Auto mode notice first.
	if out := p.Commit(); len(out.Updates) != 3 || !strings.Contains(string(out.Updates[0]), "Auto mode unavailable") {
		t.Errorf("want the notice, current_mode_update, config_option_update, got %d updates", len(out.Updates))
	}
	if _, err := s.SetMode("bogus"); err == nil || err.Error() != "Invalid params: Invalid Mode: bogus" {
		t.Errorf("bogus mode: %v", err)
	}
	if _, err := s.SetMode("bypassPermissions"); err == nil || !strings.Contains(err.Error(), "not available") {
		t.Errorf("bypass not offered: %v", err)
	}
}

func TestBooleanToggles(t *testing.T) {
	in := Init{Models: []Model{{Value: "opus", DisplayName: "Opus", SupportsFastMode: true, SupportsEffort: true,
		SupportedEffortLevels: []string{"low", "xhigh"}}}, FastModeState: "off", FastModeDisabledReason: "free"}
	yes := true
	s := New(in, Settings{UltracodeAvailable: &yes}, Options{Mode: "default", BooleanOptions: true})
	var opts []configOption
	_ = json.Unmarshal(s.ConfigOptions(), &opts)
	fast := opts[3]
	if fast.ID != "fast" || fast.Type != "boolean" || fast.CurrentValue != false || !strings.HasSuffix(fast.Description, "— not available on the free plan") {
		t.Errorf("fast option %+v", fast)
	}
	if _, err := s.SetConfigOption("fast", json.RawMessage(`"on"`)); err == nil {
		t.Error("a boolean option took a string")
	}
	p, err := s.SetConfigOption("ultracode", json.RawMessage(`true`))
	if err != nil || string(p.Requests[0]) != `{"settings":{"ultracode":true},"subtype":"apply_flag_settings"}` {
		t.Fatalf("ultracode: %v %s", err, p.Requests)
	}
	p.Commit()
	p, _ = s.SetConfigOption("effort", json.RawMessage(`"low"`))
	if string(p.Requests[0]) != `{"settings":{"effortLevel":"low","ultracode":true},"subtype":"apply_flag_settings"}` {
		t.Errorf("effort with ultracode on: %s", p.Requests[0])
	}
}

// Boolean config options: a client that declared them sees Fast mode and
// Ultracode as booleans, one that did not as On/Off selects; each takes
// only a value of its own type, and a value of the other type is refused
// with the reference's -32602 message and its {configId, value} data.
func TestToggleValueTypes(t *testing.T) {
	in := Init{Models: []Model{{Value: "opus", DisplayName: "Opus", SupportsFastMode: true, SupportsEffort: true,
		SupportedEffortLevels: []string{"low", "xhigh"}}}, FastModeState: "off"}
	yes := true
	tests := []struct {
		name     string
		boolean  bool
		id       string
		value    string
		request  string // the apply_flag_settings body, when accepted
		message  string // the refusal, when refused
		data     string
		wantType string
	}{
		{name: "boolean true", boolean: true, id: "fast", value: `true`, wantType: "boolean",
			request: `{"settings":{"fastMode":true},"subtype":"apply_flag_settings"}`},
		{name: "boolean false", boolean: true, id: "ultracode", value: `false`, wantType: "boolean",
			request: `{"settings":{"ultracode":false},"subtype":"apply_flag_settings"}`},
		{name: "select value to a boolean option", boolean: true, id: "ultracode", value: `"off"`, wantType: "boolean",
			message: `Invalid params: Config option ultracode takes a boolean value, but received: "off"`,
			data:    `{"configId":"ultracode","value":"off"}`},
		{name: "null to a boolean option", boolean: true, id: "fast", value: `null`, wantType: "boolean",
			message: `Invalid params: Config option fast takes a boolean value, but received: null`,
			data:    `{"configId":"fast","value":null}`},
		{name: "select on", id: "fast", value: `"on"`, wantType: "select",
			request: `{"settings":{"fastMode":true},"subtype":"apply_flag_settings"}`},
		{name: "boolean to a select option", id: "fast", value: `true`, wantType: "select",
			message: `Invalid params: Config option fast takes a string value, but received: true`,
			data:    `{"configId":"fast","value":true}`},
		{name: "null to a select option", id: "mode", value: `null`, wantType: "select",
			message: `Invalid params: Config option mode takes a string value, but received: null`,
			data:    `{"configId":"mode","value":null}`},
		{name: "unknown select value", id: "ultracode", value: `"maybe"`, wantType: "select",
			message: `Invalid params: Invalid value for config option ultracode: maybe`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(in, Settings{UltracodeAvailable: &yes}, Options{Mode: "default", BooleanOptions: tt.boolean})
			var opts []configOption
			_ = json.Unmarshal(s.ConfigOptions(), &opts)
			for _, o := range opts {
				if o.ID == tt.id && o.Type != tt.wantType {
					t.Errorf("%s is a %s, want a %s", o.ID, o.Type, tt.wantType)
				}
			}
			p, err := s.SetConfigOption(tt.id, json.RawMessage(tt.value))
			if tt.message == "" {
				if err != nil || len(p.Requests) != 1 || string(p.Requests[0]) != tt.request {
					t.Fatalf("got %v %s, want %s", err, p.Requests, tt.request)
				}
				return
			}
			var pe *ParamsError
			if !errors.As(err, &pe) || pe.Code() != -32602 || pe.Error() != tt.message || string(pe.Data) != tt.data {
				t.Errorf("got %#v, want %q with data %s", err, tt.message, tt.data)
			}
		})
	}
}

// The select fallback is a two-value On/Off select whose current value
// is a string.
func TestTogglePresentation(t *testing.T) {
	in := Init{Models: []Model{{Value: "opus", DisplayName: "Opus", SupportsFastMode: true}}, FastModeState: "on"}
	for boolean, want := range map[bool]string{
		true:  `{"category":"model_config","currentValue":true,"description":"Faster responses on supported models","id":"fast","name":"Fast mode","type":"boolean"}`,
		false: `{"category":"model_config","currentValue":"on","description":"Faster responses on supported models","id":"fast","name":"Fast mode","options":[{"name":"On","value":"on"},{"name":"Off","value":"off"}],"type":"select"}`,
	} {
		s := New(in, Settings{}, Options{Mode: "default", BooleanOptions: boolean})
		var opts []json.RawMessage
		_ = json.Unmarshal(s.ConfigOptions(), &opts)
		var got map[string]any
		_ = json.Unmarshal(opts[len(opts)-1], &got)
		if b, _ := json.Marshal(got); string(b) != want {
			t.Errorf("boolean %v: %s\nwant %s", boolean, b, want)
		}
	}
}

// TestFollowModelListsAnUnlistedID: a switch Claude Code made by itself
// resolves a picker row where one matches; an id no row matches becomes the
// current value, listed as a row of its own until a listed model is chosen,
// and keeps Auto (its abilities are unknown), as the reference's
// syncModelAfterExternalSwitch does.
func TestFollowModelListsAnUnlistedID(t *testing.T) {
	in := Init{Models: []Model{
		{Value: "sonnet", DisplayName: "Sonnet", ResolvedModel: "claude-sonnet-5-5", SupportsAutoMode: true},
		{Value: "haiku", DisplayName: "Haiku", ResolvedModel: "claude-haiku-5-5"},
	}}
	o := Options{Mode: "auto", AllowAuto: true, CLIModels: append(in.Models, Model{Value: "claude-mythos-1", SupportsAutoMode: false})}
	s := New(in, Settings{}, o)
	if _, ok := s.FollowModel("claude-sonnet-5-5"); ok {
		t.Fatal("a switch to the current model (by its resolved id) planned a change")
	}
	p, ok := s.FollowModel("claude-mythos-1")
	if !ok {
		t.Fatal("the switch to an unlisted id planned nothing")
	}
	p.Commit()
	if s.Model() != "claude-mythos-1" || s.Mode() != "auto" {
		t.Errorf("model %q mode %q, want claude-mythos-1 and auto", s.Model(), s.Mode())
	}
	if opts := string(s.ConfigOptions()); !strings.Contains(opts, `{"value":"claude-mythos-1","name":"claude-mythos-1"}`) {
		t.Errorf("the unlisted id is not a row of the model option: %s", opts)
	}
	raw, _ := json.Marshal("claude-mythos-1")
	if _, err := s.SetConfigOption("model", raw); err != nil {
		t.Errorf("the client cannot pick the listed current id back: %v", err)
	}
	p, _ = s.FollowModel("claude-haiku-5-5")
	p.Commit()
	if s.Model() != "haiku" || s.Mode() != "acceptEdits" {
		t.Errorf("model %q mode %q, want haiku and acceptEdits (Haiku has no Auto)", s.Model(), s.Mode())
	}
	if strings.Contains(string(s.ConfigOptions()), "claude-mythos-1") {
		t.Error("the unlisted row stayed after a switch to a listed model")
	}
}
