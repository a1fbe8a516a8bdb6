package adapter

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/airwire/airwire/adapter/claudesettings"
)

// A model switch seeds the effort selector from the settings files as
// they are at the switch: a file written while the session runs counts,
// as the reference's watcher of the files has it.
func TestEffortReadsTheSettingsFilesAsTheyAreNow(t *testing.T) {
	configDir, cwd := t.TempDir(), t.TempDir()
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(cwd, ".claude", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("settings.json", `{"effortLevel": "low"}`)
	read := func() claudesettings.Settings { return claudesettings.Read(configDir, cwd) }
	p := sessionPrefs{settings: read(), read: read}
	effort := p.effort(`{"modelSettings": {"claude-opus-5-5": {"effortLevel": "max"}}}`)

	if got := effort().For("claude-haiku-5-5"); got != "low" {
		t.Fatalf("before the change: Haiku's level is %q, want low", got)
	}
	write("settings.local.json", `{"modelSettings": {"claude-haiku-5-5": {"effortLevel": "high"}}}`)
	if got := effort().For("claude-haiku-5-5"); got != "high" {
		t.Errorf("after the local file set Haiku high: %q, want high", got)
	}
	if got := effort().For("claude-opus-5-5"); got != "max" {
		t.Errorf("the session's own settings stay over the files: Opus is %q, want max", got)
	}
}
