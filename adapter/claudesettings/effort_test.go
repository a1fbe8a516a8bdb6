package claudesettings

import (
	"path/filepath"
	"testing"
)

// The level a model runs at: its own entry, by its resolved id, its
// picker value or the id the client chose, each as written and then in
// its canonical spelling; else effortLevel.
func TestEffortFor(t *testing.T) {
	e, _ := FlagEffort(`{"effortLevel": "low", "modelSettings": {"claude-haiku-5-5": {"effortLevel": "high"},
		"Opus[1M]": {"effortLevel": "max"}, "sonnet": {}, "fable": {"effortLevel": "medium"}}}`)
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"claude-haiku-5-5", "haiku"}, "high"},
		{[]string{"claude-opus-5-5[1m]", "opus-1m"}, "max"},
		{[]string{"", "OPUS[1m]"}, "max"},
		{[]string{"claude-sonnet-5-5", "sonnet"}, "low"}, // an entry without a level
		{[]string{"claude-fable-5-1", "default", "fable"}, "medium"},
		{[]string{"claude-opus-5-5", "default"}, "low"},
		{nil, "low"},
	} {
		if got := e.For(tc.names...); got != tc.want {
			t.Errorf("For(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
	if got := (Effort{}).For("haiku"); got != "" {
		t.Errorf("no settings: %q", got)
	}
}

// The session's own settings win: their effortLevel, and their entries
// over the files' entries of the same model in any spelling.
func TestEffortOver(t *testing.T) {
	files, _ := FlagEffort(`{"effortLevel": "low", "modelSettings": {"opus-1m": {"effortLevel": "max"}, "haiku": {"effortLevel": "high"}}}`)
	flag, ok := FlagEffort(`{"effortLevel": "medium", "modelSettings": {"opus[1m]": {"effortLevel": "xhigh"}, "x": 1}}`)
	if !ok {
		t.Fatal("settings JSON not read")
	}
	got := files.Over(flag)
	if got.Level != "medium" || got.For("opus[1m]") != "xhigh" || got.For("haiku") != "high" || len(got.PerModel) != 2 {
		t.Errorf("Over = %+v", got)
	}
	if got := files.Over(Effort{}); got.Level != "low" || got.For("haiku") != "high" {
		t.Errorf("over nothing: %+v", got)
	}
	if _, ok := FlagEffort("not json"); ok {
		t.Error("text that is not JSON read as settings")
	}
}

// The files' levels merge: a higher source's effortLevel and model
// entries replace the lower ones, other entries stay.
func TestReadEffort(t *testing.T) {
	dir := t.TempDir()
	config, cwd := filepath.Join(dir, "config"), filepath.Join(dir, "work")
	write(t, filepath.Join(config, "settings.json"), `{"effortLevel": "low", "modelSettings": {"haiku": {"effortLevel": "high"}, "opus": {"effortLevel": "max"}}}`)
	write(t, filepath.Join(cwd, ".claude", "settings.local.json"), `{"effortLevel": "medium", "modelSettings": {"haiku": {"effortLevel": "low"}, "sonnet": {}}}`)
	e := Read(config, cwd).Effort
	if e.Level != "medium" || e.For("haiku") != "low" || e.For("opus") != "max" || e.For("sonnet") != "medium" {
		t.Errorf("Read effort = %+v", e)
	}
}

// Of two spellings of one model, the first in the settings decides, as
// the files and the session's settings give them.
func TestEffortKeepsTheSettingsOrder(t *testing.T) {
	for range 20 { // map order differs from run to run
		e, _ := FlagEffort(`{"modelSettings": {"Haiku": {"effortLevel": "max"}, "HAIKU": {"effortLevel": "low"}}}`)
		if got := e.For("haiku"); got != "max" {
			t.Fatalf("Haiku first, then HAIKU: %q, want max", got)
		}
		later, _ := FlagEffort(`{"modelSettings": {"HAIKU": {}, "opus": {"effortLevel": "high"}, "Opus": {"effortLevel": "low"}}}`)
		merged := e.Over(later)
		if got := merged.For("haiku"); got != "" {
			t.Fatalf("the session's HAIKU without a level shadows the files' entries: %q, want none", got)
		}
		if got := merged.For("OPUS"); got != "high" {
			t.Fatalf("opus, then Opus: %q, want high", got)
		}
	}
}
