package sessionconfig

import (
	"encoding/json"
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
	if s := New(in, Settings{}, o); s.Mode() != "default" || s.SyncModeRequest() == nil {
		t.Errorf("built-in auto: mode %s, sync %s", s.Mode(), s.SyncModeRequest())
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
	if out := p.Commit(); len(out.Updates) != 2 {
		t.Errorf("want current_mode_update then config_option_update, got %d updates", len(out.Updates))
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
