package claudesettings

import (
	"encoding/json"
	"strings"

	"github.com/airwire/airwire/internal/lazyre"
)

// Effort is the effort a session's model runs at by the settings:
// `effortLevel`, and `modelSettings.<model>.effortLevel` for the models
// that have their own.
type Effort struct {
	// Level is `effortLevel` ("" for none, or not a string).
	Level string
	// PerModel is each `modelSettings` key's `effortLevel`; a key whose
	// entry has none is there with "".
	PerModel map[string]string
}

// effortFile is what a settings source says of effort.
type effortFile struct {
	Level         any                        `json:"effortLevel"`
	ModelSettings map[string]json.RawMessage `json:"modelSettings"`
}

// merge lays f over e: its effortLevel replaces e's, its model entries
// replace e's entries of the same key.
func (e Effort) merge(f effortFile) Effort {
	if f.Level != nil {
		e.Level, _ = f.Level.(string)
	}
	for key, raw := range f.ModelSettings {
		var entry struct {
			Level any `json:"effortLevel"`
		}
		if json.Unmarshal(raw, &entry) != nil || entry.Level == nil {
			continue
		}
		if e.PerModel == nil {
			e.PerModel = map[string]string{}
		}
		e.PerModel[key], _ = entry.Level.(string)
	}
	return e
}

// FlagEffort is the effort of the settings a session passes the CLI
// (--settings, JSON text); nothing for text that is not a JSON object.
func FlagEffort(settings string) (Effort, bool) {
	var f effortFile
	if json.Unmarshal([]byte(settings), &f) != nil {
		return Effort{}, false
	}
	return Effort{}.merge(f), true
}

// Over is e under the session's own settings (over): over's effortLevel
// wins when it sets one, and its model entries replace e's of the same
// model in any spelling; e's other entries stay.
func (e Effort) Over(over Effort) Effort {
	out := Effort{Level: e.Level, PerModel: map[string]string{}}
	if over.Level != "" {
		out.Level = over.Level
	}
	for key, level := range e.PerModel {
		if _, shadowed := over.lookup(key); !shadowed {
			out.PerModel[key] = level
		}
	}
	for key, level := range over.PerModel {
		out.PerModel[key] = level
	}
	return out
}

// lookup is the entry whose key is key in its canonical spelling.
func (e Effort) lookup(key string) (string, bool) {
	want := canonicalKey(key)
	for k, level := range e.PerModel {
		if canonicalKey(k) == want {
			return level, true
		}
	}
	return "", false
}

var contextSuffix = lazyre.New(`(?i)-(\d+m)$`)

// canonicalKey is a model key lowercased, a "-1m" hint written "[1m]".
func canonicalKey(s string) string {
	return contextSuffix.ReplaceAllString(strings.ToLower(strings.TrimSpace(s)), "[$1]")
}

// For is the effort a model runs at, named by its resolved id, its picker
// value or the id the client chose, tried in that order, each first as
// written and then in its canonical spelling: the model's own entry, else
// Level. An entry without a level passes to the next name.
func (e Effort) For(names ...string) string {
	for _, name := range names {
		if name == "" {
			continue
		}
		if level := e.PerModel[name]; level != "" {
			return level
		}
		if level, _ := e.lookup(name); level != "" {
			return level
		}
	}
	return e.Level
}
