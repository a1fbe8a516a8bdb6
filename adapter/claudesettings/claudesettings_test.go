package claudesettings

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
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
	want := Settings{Model: "sonnet", DefaultMode: "acceptEdits", HasDefaultMode: true, DisableBypass: "disable", DisableAuto: "disable", DisableAutoMode: "allow"}
	if !reflect.DeepEqual(got, want) {
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

// A value that is not a string hides the lower ones and reads as unset;
// a default mode that is not a string is set, to no mode.
func TestANonStringValueReadsAsUnset(t *testing.T) {
	var user, project file
	user.source, project.source = User, Project
	_ = json.Unmarshal([]byte(`{"model":"opus","permissions":{"defaultMode":"plan"}}`), &user)
	_ = json.Unmarshal([]byte(`{"model":42,"permissions":{"defaultMode":true}}`), &project)
	got := merge([]file{user, project})
	if got.Model != "" || got.DefaultMode != "" || !got.HasDefaultMode {
		t.Errorf("model %q, default mode %q (set %v); want none, none (set)", got.Model, got.DefaultMode, got.HasDefaultMode)
	}
	if mode, builtIn := got.StartMode("", "", true); mode != "default" || builtIn {
		t.Errorf("a non-string default mode starts in %s (built-in %v), want default, chosen", mode, builtIn)
	}
}

// The allowlists add up over the sources in order, overrides merge key by
// key (the higher source winning), and denied models count only from the
// managed file; entries that are not strings are left out, and a list set
// to [] is an allowlist of nothing.
func TestModelLists(t *testing.T) {
	files := make([]file, 4)
	for i, text := range []string{
		`{"availableModels": ["opus", 7], "modelOverrides": {"opus": "a", "haiku": "b"}, "deniedModels": ["opus"]}`,
		`{"availableModels": ["sonnet", "opus"], "modelOverrides": {"opus": "c", "fable": 1}}`,
		`{"availableModels": "haiku", "modelOverrides": ["x"]}`,
		`{"deniedModels": ["fable", null], "availableModels": []}`,
	} {
		files[i].source = []Source{User, Project, Local, Managed}[i]
		if err := json.Unmarshal([]byte(text), &files[i]); err != nil {
			t.Fatal(err)
		}
	}
	got := merge(files)
	if want := []string{"opus", "sonnet", "opus"}; !reflect.DeepEqual(got.AvailableModels, want) {
		t.Errorf("availableModels %q, want %q", got.AvailableModels, want)
	}
	if want := map[string]string{"opus": "c", "haiku": "b"}; !reflect.DeepEqual(got.ModelOverrides, want) {
		t.Errorf("modelOverrides %v, want %v", got.ModelOverrides, want)
	}
	if want := []string{"fable"}; !reflect.DeepEqual(got.DeniedModels, want) {
		t.Errorf("deniedModels %q, want %q", got.DeniedModels, want)
	}
	if got := merge(files[:1]).AvailableModels; got == nil {
		t.Error("one list: no allowlist")
	}
	if got := merge([]file{{source: User}}).AvailableModels; got != nil {
		t.Errorf("no list: allowlist %q", got)
	}
	var empty file
	_ = json.Unmarshal([]byte(`{"availableModels": []}`), &empty)
	if got := merge([]file{empty}).AvailableModels; got == nil || len(got) != 0 {
		t.Errorf("an empty list: %#v, want an empty allowlist", got)
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
		s                 Settings
		explicit, resumed string
		bypass            bool
		mode              string
		builtIn           bool
	}{
		{Settings{}, "", "", true, "auto", true},
		{Settings{DisableAutoMode: "disable"}, "", "", true, "default", true},
		{Settings{DefaultMode: "Manual", HasDefaultMode: true}, "", "", true, "default", false},
		{Settings{DefaultMode: "acceptedits", HasDefaultMode: true}, "", "", true, "acceptEdits", false},
		{Settings{DefaultMode: " BYPASS ", HasDefaultMode: true}, "", "", true, "bypassPermissions", false},
		{Settings{DefaultMode: "bypassPermissions", HasDefaultMode: true}, "", "", false, "default", false},
		{Settings{DefaultMode: "dontAsk", HasDefaultMode: true}, "", "", true, "dontAsk", false}, // accepted, then clamped: not offered
		{Settings{DefaultMode: "yolo", HasDefaultMode: true}, "", "", true, "default", false},
		// a live session started again keeps its mode, which counts as chosen
		{Settings{}, "auto", "plan", true, "auto", false},
		{Settings{}, "bypassPermissions", "", false, "default", false},
		// a stored session continues in its transcript's mode, chosen
		{Settings{}, "", "auto", true, "auto", false},
		{Settings{DefaultMode: "plan", HasDefaultMode: true}, "", "acceptEdits", true, "acceptEdits", false},
		// ... unless the session does not offer it: then the settings decide
		{Settings{}, "", "bypassPermissions", false, "auto", true},
		{Settings{DisableAuto: "disable"}, "", "auto", true, "default", true},
		{Settings{DefaultMode: "plan", HasDefaultMode: true}, "", "dontAsk", true, "plan", false},
		{Settings{DefaultMode: "auto", HasDefaultMode: true, DisableAuto: "disable"}, "", "auto", true, "default", false},
		{Settings{DefaultMode: "auto", HasDefaultMode: true, DisableAuto: "disable"}, "", "", true, "auto", false},
	} {
		mode, builtIn := tc.s.StartMode(tc.explicit, tc.resumed, tc.bypass)
		if mode != tc.mode || builtIn != tc.builtIn {
			t.Errorf("%+v.StartMode(%q, %q, bypass %v) = %s, %v; want %s, %v", tc.s, tc.explicit, tc.resumed, tc.bypass, mode, builtIn, tc.mode, tc.builtIn)
		}
	}
}

// The apiKeyHelper a session's CLI runs: the managed settings' one, else
// the session's own --settings', else the highest file's.
func TestAPIKeyHelper(t *testing.T) {
	files := make([]file, 4)
	for i, text := range []string{`{"apiKeyHelper": "user"}`, `{"apiKeyHelper": "project"}`, `{}`, `{}`} {
		files[i].source = []Source{User, Project, Local, Managed}[i]
		if err := json.Unmarshal([]byte(text), &files[i]); err != nil {
			t.Fatal(err)
		}
	}
	st := merge(files)
	for flag, want := range map[string]string{"": "project", `{"hooks": {}}`: "project", `{"apiKeyHelper": "flag"}`: "flag",
		`{"apiKeyHelper": 3}`: "project", "not json": "project"} {
		if got := st.APIKeyHelperUnder(flag); got != want {
			t.Errorf("files, flag %q: %q, want %q", flag, got, want)
		}
	}
	if err := json.Unmarshal([]byte(`{"apiKeyHelper": "managed"}`), &files[3]); err != nil {
		t.Fatal(err)
	}
	if got := merge(files).APIKeyHelperUnder(`{"apiKeyHelper": "flag"}`); got != "managed" {
		t.Errorf("managed: %q, want managed over the session's", got)
	}
}
