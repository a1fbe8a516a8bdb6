package claudesettings

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The user's file under CLAUDE_CONFIG_DIR, the project's and the local
// one: each key from the highest that sets it; a file that is not JSON
// counts as empty.
func TestReadTakesEachKeyFromTheHighestSource(t *testing.T) {
	dir := t.TempDir()
	config, cwd := filepath.Join(dir, "config"), filepath.Join(dir, "work")
	write(t, filepath.Join(config, "settings.json"), `{"model": "opus", "disableAutoMode": "disable",
		"permissions": {"defaultMode": "plan", "disableBypassPermissionsMode": "disable"}}`)
	write(t, filepath.Join(cwd, ".claude", "settings.json"), `{"model": "sonnet", "permissions": {"disableAutoMode": "allow"}}`)
	write(t, filepath.Join(cwd, ".claude", "settings.local.json"), `{"permissions": {"defaultMode": "acceptEdits"}}`)
	got := Read(config, cwd)
	want := Settings{Model: "sonnet", DefaultMode: "acceptEdits", DisableBypass: "disable", DisableAuto: "disable", DisableAutoMode: "allow"}
	if got != want {
		t.Errorf("Read = %+v, want %+v", got, want)
	}
	if !got.AutoDisabled() || !got.BypassDisabled() {
		t.Error("the disable switches do not read as set")
	}

	write(t, filepath.Join(cwd, ".claude", "settings.local.json"), `{"permissions": `)
	if got := Read(config, cwd); got.DefaultMode != "plan" {
		t.Errorf("a broken local file: defaultMode %q, want the user's plan", got.DefaultMode)
	}
	if got := Read(config, filepath.Join(dir, "elsewhere")); got.Model != "opus" {
		t.Errorf("another project: model %q, want the user's", got.Model)
	}
}

// A default mode that raises permissions is not taken from a committed
// project file (acceptEdits, auto, bypassPermissions) nor from a local
// one (auto, bypassPermissions); the user's and the managed files may
// set any.
func TestMergeDropsAnEscalatingDefaultFromTheProject(t *testing.T) {
	for _, tc := range []struct {
		source Source
		mode   string
		kept   bool
	}{
		{Project, "acceptEdits", false}, {Project, "auto", false}, {Project, "bypassPermissions", false},
		{Project, "plan", true}, {Project, "default", true},
		{Local, "acceptEdits", true}, {Local, "auto", false}, {Local, "bypassPermissions", false},
		{User, "bypassPermissions", true}, {Managed, "auto", true},
	} {
		f := file{source: tc.source}
		f.Permissions.DefaultMode = tc.mode
		got := merge([]file{{source: User}, f})
		if (got.DefaultMode == tc.mode) != tc.kept {
			t.Errorf("%s sets %s: defaultMode %q, kept %v", tc.source, tc.mode, got.DefaultMode, tc.kept)
		}
	}
	// The rule looks at the source that set the effective value: a local
	// acceptEdits over a project bypass stands.
	var project, local file
	project.source, local.source = Project, Local
	_ = json.Unmarshal([]byte(`{"permissions":{"defaultMode":"bypassPermissions"}}`), &project)
	_ = json.Unmarshal([]byte(`{"permissions":{"defaultMode":"acceptEdits"}}`), &local)
	if got := merge([]file{project, local}); got.DefaultMode != "acceptEdits" {
		t.Errorf("local over project: %q", got.DefaultMode)
	}
}

// A value that is not a string hides the lower ones and reads as unset.
func TestANonStringValueReadsAsUnset(t *testing.T) {
	var user, project file
	user.source, project.source = User, Project
	_ = json.Unmarshal([]byte(`{"model":"opus"}`), &user)
	_ = json.Unmarshal([]byte(`{"model":42}`), &project)
	if got := merge([]file{user, project}); got.Model != "" {
		t.Errorf("model %q, want none", got.Model)
	}
}

func TestManagedPath(t *testing.T) {
	for goos, want := range map[string]string{
		"linux":   "/etc/claude-code/managed-settings.json",
		"darwin":  "/Library/Application Support/ClaudeCode/managed-settings.json",
		"windows": `C:\Program Files\ClaudeCode\managed-settings.json`,
	} {
		if got := ManagedPath(goos); got != want {
			t.Errorf("%s: %s", goos, got)
		}
	}
}

func TestStartMode(t *testing.T) {
	for _, tc := range []struct {
		s       Settings
		bypass  bool
		mode    string
		builtIn bool
	}{
		{Settings{}, true, "auto", true},
		{Settings{DisableAutoMode: "disable"}, true, "default", true},
		{Settings{DefaultMode: "Manual"}, true, "default", false},
		{Settings{DefaultMode: "acceptedits"}, true, "acceptEdits", false},
		{Settings{DefaultMode: " BYPASS "}, true, "bypassPermissions", false},
		{Settings{DefaultMode: "bypassPermissions"}, false, "default", false},
		{Settings{DefaultMode: "dontAsk"}, true, "dontAsk", false}, // accepted, then clamped: not offered
		{Settings{DefaultMode: "yolo"}, true, "default", false},
	} {
		mode, builtIn := tc.s.StartMode(tc.bypass)
		if mode != tc.mode || builtIn != tc.builtIn {
			t.Errorf("%+v.StartMode(bypass %v) = %s, %v; want %s, %v", tc.s, tc.bypass, mode, builtIn, tc.mode, tc.builtIn)
		}
	}
}
