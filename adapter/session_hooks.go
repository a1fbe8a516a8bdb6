package adapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Contract "Session hooks": any client (no capability) may put settings,
// hooks included, into `_meta.claudeCode.options.settings` of
// `session/new` and `session/load`. They go to the flag settings tier of
// that session's CLI only (`--settings`, the SDK's `settings` option);
// other sessions and the settings files do not change, and Claude Code
// runs the hooks of every tier.

type settingsMeta struct {
	ClaudeCode struct {
		Options struct {
			Settings json.RawMessage `json:"settings"`
		} `json:"options"`
	} `json:"claudeCode"`
}

// sessionSettings returns the session's flag settings as JSON text ("" for
// none): the settings object given in _meta, or the JSON file a string
// names, relative to the session's cwd as the SDK reads it.
func sessionSettings(meta json.RawMessage, cwd string) (string, error) {
	var m settingsMeta
	if len(meta) == 0 || json.Unmarshal(meta, &m) != nil {
		return "", nil
	}
	raw := m.ClaudeCode.Options.Settings
	var file string
	if json.Unmarshal(raw, &file) == nil {
		if !filepath.IsAbs(file) {
			file = filepath.Join(cwd, file)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("_meta.claudeCode.options.settings: %w", err)
		}
		raw = b
	}
	var obj map[string]json.RawMessage
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if json.Unmarshal(raw, &obj) != nil {
		return "", fmt.Errorf("_meta.claudeCode.options.settings is not a JSON object")
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return "", err
	}
	return b.String(), nil
}
