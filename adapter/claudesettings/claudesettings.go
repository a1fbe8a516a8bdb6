// Package claudesettings reads the Claude Code settings that decide how a
// session starts before its CLI runs: the preferred model, the models the
// picker may offer, the effort levels, the default permission mode and
// the modes the settings switch off; and those that keep a session from
// compacting itself when idle. Claude Code reads the same files itself;
// the agent needs their values first, to start the CLI in the right mode
// and to show the right model, effort and mode from the session's first
// answer.
//
// The sources, lowest precedence first: the user's settings
// ($CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json), the
// project's (.claude/settings.json under the session's cwd), the local ones
// (.claude/settings.local.json) and the managed ones (the system path of
// managed-settings.json). A key takes its value from the highest source
// that sets it; a file that is missing or not a JSON object counts as
// empty. As in Claude Code, a project may not raise the default mode to
// acceptEdits, auto or bypassPermissions, nor a local file to auto or
// bypassPermissions: such a default is dropped. The lists of
// availableModels add up over the sources, in order, and modelOverrides
// merge key by key, as do modelSettings and env; deniedModels count only
// from the managed file, the one source Claude Code takes them from.
package claudesettings

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Source names where a setting comes from.
type Source string

// The sources, lowest precedence first.
const (
	User    Source = "user"
	Project Source = "project"
	Local   Source = "local"
	Managed Source = "managed"
)

// Settings are the values the agent reads; "" where no source sets one
// (or sets it to something other than a string).
type Settings struct {
	// Model is `model`: the model a new session runs.
	Model string
	// DefaultMode is `permissions.defaultMode`, as written; HasDefaultMode
	// says a source sets it, to a string or not.
	DefaultMode    string
	HasDefaultMode bool
	// AvailableModels is `availableModels`, the picker's allowlist: nil
	// when no source sets a list, the entries of every list otherwise.
	AvailableModels []string
	// ModelOverrides is `modelOverrides`: the model id a picker entry is
	// sent to the CLI as.
	ModelOverrides map[string]string
	// DeniedModels is the managed settings' `deniedModels`.
	DeniedModels []string
	// Effort is `effortLevel` and `modelSettings`' per-model levels.
	Effort Effort
	// IdleCompactionOff and AutoCompactOff are `idleCompaction` and
	// `autoCompactEnabled` set to false.
	IdleCompactionOff, AutoCompactOff bool
	// Env is the `env` block (its string values), which Claude Code lays
	// over its environment.
	Env map[string]string
	// DisableBypass is `permissions.disableBypassPermissionsMode`.
	DisableBypass string
	// DisableAuto is the top-level `disableAutoMode`; DisableAutoMode is
	// `permissions.disableAutoMode`. Claude Code reads both.
	DisableAuto, DisableAutoMode string
	// APIKeyHelper is `apiKeyHelper`, the command Claude Code runs for its
	// API key; ManagedAPIKeyHelper is the managed settings' own, which
	// outranks a session's --settings (APIKeyHelperUnder).
	APIKeyHelper, ManagedAPIKeyHelper string
}

// APIKeyHelperUnder is the apiKeyHelper a CLI started with the session's
// own settings (flag, the --settings JSON) runs: the managed settings'
// one, else the session's, else the files'.
func (s Settings) APIKeyHelperUnder(flag string) string {
	if s.ManagedAPIKeyHelper != "" {
		return s.ManagedAPIKeyHelper
	}
	var f struct {
		Helper any `json:"apiKeyHelper"`
	}
	if json.Unmarshal([]byte(flag), &f) == nil {
		if h, ok := f.Helper.(string); ok && h != "" {
			return h
		}
	}
	return s.APIKeyHelper
}

// AutoDisabled reports whether the settings switch Auto mode off.
func (s Settings) AutoDisabled() bool {
	return s.DisableAuto == "disable" || s.DisableAutoMode == "disable"
}

// BypassDisabled reports whether the settings switch Bypass permissions off.
func (s Settings) BypassDisabled() bool { return s.DisableBypass == "disable" }

// file is one source's settings, the keys the agent reads.
type file struct {
	source          Source
	Model           any `json:"model"`
	DisableAuto     any `json:"disableAutoMode"`
	AvailableModels any `json:"availableModels"`
	ModelOverrides  any `json:"modelOverrides"`
	DeniedModels    any `json:"deniedModels"`
	IdleCompaction  any `json:"idleCompaction"`
	AutoCompact     any `json:"autoCompactEnabled"`
	Env             any `json:"env"`
	APIKeyHelper    any `json:"apiKeyHelper"`
	effortFile
	Permissions struct {
		DefaultMode   any `json:"defaultMode"`
		DisableBypass any `json:"disableBypassPermissionsMode"`
		DisableAuto   any `json:"disableAutoMode"`
	} `json:"permissions"`
}

// Read reads the settings of a session in cwd; configDir is the Claude
// configuration directory ($CLAUDE_CONFIG_DIR, else ~/.claude).
func Read(configDir, cwd string) Settings {
	paths := []struct {
		source Source
		path   string
	}{
		{User, filepath.Join(configDir, "settings.json")},
		{Project, filepath.Join(cwd, ".claude", "settings.json")},
		{Local, filepath.Join(cwd, ".claude", "settings.local.json")},
		{Managed, ManagedPath(runtime.GOOS)},
	}
	files := make([]file, 0, len(paths))
	for _, p := range paths {
		f := file{source: p.source}
		if b, err := os.ReadFile(p.path); err == nil && json.Unmarshal(b, &f) != nil {
			f = file{source: p.source}
		}
		files = append(files, f)
	}
	return merge(files)
}

// merge takes each key from the highest source in files (lowest first)
// that sets it, then drops a default mode its source may not set.
func merge(files []file) Settings {
	var s Settings
	modeFrom := Source("")
	for _, f := range files {
		set(&s.Model, f.Model)
		if set(&s.DefaultMode, f.Permissions.DefaultMode) {
			modeFrom, s.HasDefaultMode = f.source, true
		}
		set(&s.DisableBypass, f.Permissions.DisableBypass)
		set(&s.DisableAuto, f.DisableAuto)
		set(&s.DisableAutoMode, f.Permissions.DisableAuto)
		if list, ok := f.AvailableModels.([]any); ok {
			s.AvailableModels = append(orEmpty(s.AvailableModels), stringsOf(list)...)
		}
		s.ModelOverrides = overlay(s.ModelOverrides, f.ModelOverrides)
		s.Effort = s.Effort.merge(f.effortFile)
		setOff(&s.IdleCompactionOff, f.IdleCompaction)
		setOff(&s.AutoCompactOff, f.AutoCompact)
		s.Env = overlay(s.Env, f.Env)
		if list, ok := f.DeniedModels.([]any); ok && f.source == Managed {
			s.DeniedModels = stringsOf(list)
		}
		set(&s.APIKeyHelper, f.APIKeyHelper)
		if f.source == Managed {
			set(&s.ManagedAPIKeyHelper, f.APIKeyHelper)
		}
	}
	if escalates(s.DefaultMode, modeFrom) {
		s.DefaultMode, s.HasDefaultMode = "", false
	}
	return s
}

// setOff records a boolean setting: false switches off, true on; other
// values leave the lower sources' word.
func setOff(off *bool, v any) {
	if b, ok := v.(bool); ok {
		*off = !b
	}
}

// orEmpty is list, or an empty list for nil: a list that a source sets,
// even to [], is an allowlist.
func orEmpty(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// stringsOf is the strings of a JSON list; other entries are left out.
func stringsOf(list []any) []string {
	var out []string
	for _, v := range list {
		if str, ok := v.(string); ok {
			out = append(out, str)
		}
	}
	return out
}

// overlay sets dst's keys from v, a JSON object of strings; a value that
// is not a string is left out.
func overlay(dst map[string]string, v any) map[string]string {
	obj, ok := v.(map[string]any)
	if !ok {
		return dst
	}
	for k, val := range obj {
		if str, ok := val.(string); ok {
			if dst == nil {
				dst = map[string]string{}
			}
			dst[k] = str
		}
	}
	return dst
}

// set stores v in *dst when a source sets it (any JSON value but null); a
// value that is not a string is set as "": it hides the lower ones, and
// the agent ignores it.
func set(dst *string, v any) bool {
	if v == nil {
		return false
	}
	str, _ := v.(string)
	*dst = str
	return true
}

// escalates reports whether mode, set by source, is a default Claude Code
// does not take from there: a committed project file may not start
// sessions in acceptEdits, auto or bypassPermissions; a local file may not
// in auto or bypassPermissions.
func escalates(mode string, source Source) bool {
	switch mode {
	case "auto", "bypassPermissions":
		return source == Project || source == Local
	case "acceptEdits":
		return source == Project
	}
	return false
}

// settingsMode is the mode a spelling of permissions.defaultMode names,
// case aside: the SDK's ids, the legacy shorthands Claude Code accepts,
// and "manual", the name Claude Code gives the default mode; "" for none.
func settingsMode(spelling string) string {
	switch strings.ToLower(strings.TrimSpace(spelling)) {
	case "auto":
		return "auto"
	case "default", "manual":
		return "default"
	case "acceptedits":
		return "acceptEdits"
	case "dontask":
		return "dontAsk"
	case "plan":
		return "plan"
	case "bypasspermissions", "bypass":
		return "bypassPermissions"
	}
	return ""
}

// StartMode is the mode a session asks its CLI to start in, as the
// reference resolves it (its resolveInitialPermissionMode): explicit, the
// mode of a live session started again, when given; else resumed, the
// mode its transcript ended in, when the session offers it; else
// DefaultMode in any of its spellings (an unknown one, or
// bypassPermissions where allowBypass is false, is "default"; so is one
// the session does not offer, for a stored session); else "auto" unless
// the settings disable it, and "default" then. builtIn says nobody chose
// the mode. A mode the session does not offer (dontAsk) is clamped once
// the CLI runs.
func (s Settings) StartMode(explicit, resumed string, allowBypass bool) (mode string, builtIn bool) {
	offered := func(mode string) bool {
		switch mode {
		case "default", "acceptEdits", "plan":
			return true
		case "auto":
			return !s.AutoDisabled()
		}
		return mode == "bypassPermissions" && allowBypass
	}
	switch {
	case explicit != "":
		return resolveMode(explicit, allowBypass), false
	case resumed != "" && offered(settingsMode(resumed)):
		return settingsMode(resumed), false
	case !s.HasDefaultMode && offered("auto"):
		return "auto", true
	case !s.HasDefaultMode:
		return "default", true
	}
	mode = resolveMode(s.DefaultMode, allowBypass)
	if resumed != "" && !offered(mode) {
		return "default", false
	}
	return mode, false
}

// resolveMode is the mode a spelling names; "default" for an unknown
// one, and for bypassPermissions when the session may not run it.
func resolveMode(spelling string, allowBypass bool) string {
	mode := settingsMode(spelling)
	if mode == "" || (mode == "bypassPermissions" && !allowBypass) {
		return "default"
	}
	return mode
}

// ManagedPath is where Claude Code reads managed settings on goos.
func ManagedPath(goos string) string {
	switch goos {
	case "darwin":
		return "/Library/Application Support/ClaudeCode/managed-settings.json"
	case "windows":
		return `C:\Program Files\ClaudeCode\managed-settings.json`
	}
	return "/etc/claude-code/managed-settings.json"
}
