package sessionconfig

import (
	"encoding/json"
	"strings"
	"testing"
)

const autoNotice = `{"description":"The selected model does not support Auto mode; using Accept edits instead.","sessionUpdate":"notice","severity":"warning","title":"Auto mode unavailable"}`

// autoModels: opus runs Auto mode, haiku does not.
var autoModels = Init{Models: []Model{{Value: "opus", SupportsAutoMode: true}, {Value: "haiku"}}}

func committed(t *testing.T, plan func() (Plan, error)) string {
	t.Helper()
	p, err := plan()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, u := range p.Commit().Updates {
		b.Write(u)
		b.WriteByte('\n')
	}
	return b.String()
}

func lines(raw []json.RawMessage) string {
	var b strings.Builder
	for _, u := range raw {
		b.Write(u)
		b.WriteByte('\n')
	}
	return b.String()
}

// Setting Auto on a model without it says why, before the mode update,
// the first time only; a model switch that leaves Auto says it after the
// mode update.
func TestAutoModeUnavailableNotice(t *testing.T) {
	s := New(autoModels, Settings{}, Options{Mode: "default", AllowAuto: true, Notices: true, Model: "haiku"})
	got := committed(t, func() (Plan, error) { return s.SetMode("auto") })
	if !strings.HasPrefix(got, autoNotice+"\n"+`{"currentModeId":"acceptEdits","sessionUpdate":"current_mode_update"}`) {
		t.Fatalf("set Auto on haiku:\n%s", got)
	}
	if again := committed(t, func() (Plan, error) { return s.SetConfigOption("mode", json.RawMessage(`"auto"`)) }); strings.Contains(again, "notice") {
		t.Errorf("said twice:\n%s", again)
	}
	if committed(t, func() (Plan, error) { return s.SetMode("acceptEdits") }) == "" || s.fallback.said != true {
		t.Fatal("no mode change")
	}

	s = New(autoModels, Settings{}, Options{Mode: "auto", AllowAuto: true, Notices: false})
	got = committed(t, func() (Plan, error) { return s.SetConfigOption("model", json.RawMessage(`"haiku"`)) })
	want := `{"currentModeId":"acceptEdits","sessionUpdate":"current_mode_update"}` + "\n" +
		`{"content":{"text":"**Auto mode unavailable:** the selected model does not support Auto mode; using Accept edits instead.","type":"text"},"sessionUpdate":"agent_message_chunk"}` + "\n"
	if got != want {
		t.Errorf("a model switch that leaves Auto, no notices:\n%s\nwant\n%s", got, want)
	}
	if got := committed(t, func() (Plan, error) { return s.SetConfigOption("model", json.RawMessage(`"opus"`)) }); strings.Contains(got, "notice") || strings.Contains(got, "Auto mode") {
		t.Errorf("a switch to a model with Auto: %s", got)
	}
}

// A session that starts in Accept edits instead of a chosen Auto says so
// before its first prompt, once; a built-in Auto default that starts in
// Manual says nothing.
func TestAutoModeFallbackAtStart(t *testing.T) {
	s := New(autoModels, Settings{}, Options{Mode: "auto", AllowAuto: true, Notices: true, Model: "haiku"})
	if got := lines(s.AutoFallback().Pending()); got != autoNotice+"\n" {
		t.Fatalf("first prompt: %s", got)
	}
	if got := lines(s.AutoFallback().Pending()); got != "" {
		t.Errorf("second prompt: %s", got)
	}
	if got := committed(t, func() (Plan, error) { return s.SetMode("auto") }); strings.Contains(got, "notice") {
		t.Errorf("said again: %s", got)
	}
	builtIn := New(autoModels, Settings{}, Options{Mode: "auto", AllowAuto: true, BuiltInDefault: true, Notices: true, Model: "haiku"})
	if got := lines(builtIn.AutoFallback().Pending()); got != "" || builtIn.Mode() != "default" {
		t.Errorf("built-in default: mode %s, %s", builtIn.Mode(), got)
	}
	ok := New(autoModels, Settings{}, Options{Mode: "auto", AllowAuto: true, Notices: true})
	if got := lines(ok.AutoFallback().Pending()); got != "" || ok.CurrentModel().AutoUnavailable() {
		t.Errorf("a model with Auto: %s", got)
	}
}
