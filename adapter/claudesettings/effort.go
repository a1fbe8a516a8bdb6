package claudesettings

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
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
	// entry has none is there with "". FlagEffort and Read build it.
	PerModel map[string]string
	// order is PerModel's keys as the settings give them, lowest source
	// first: of two spellings of one model, the first decides (as in the
	// reference, which walks the merged object's keys in order).
	order []string
}

// effortFile is what a settings source says of effort.
type effortFile struct {
	Level         any           `json:"effortLevel"`
	ModelSettings modelSettings `json:"modelSettings"`
}

// modelSettings is a `modelSettings` object's entries in file order.
type modelSettings []modelEntry

// modelEntry is one `modelSettings` key and its value as written.
type modelEntry struct {
	key string
	raw json.RawMessage
}

// UnmarshalJSON reads the object's entries in order; what is not an
// object reads as none.
func (m *modelSettings) UnmarshalJSON(b []byte) error {
	*m = nil
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		t, err := dec.Token()
		key, _ := t.(string)
		var raw json.RawMessage
		if err != nil || dec.Decode(&raw) != nil {
			*m = nil
			return nil
		}
		*m = append(*m, modelEntry{key, raw})
	}
	return nil
}

// set gives key level, keeping its place when e has it already.
func (e *Effort) set(key, level string) {
	if e.PerModel == nil {
		e.PerModel = map[string]string{}
	}
	if _, ok := e.PerModel[key]; !ok {
		e.order = append(e.order, key)
	}
	e.PerModel[key] = level
}

// merge lays f over e: its effortLevel replaces e's, its model entries
// replace e's entries of the same key; an entry without a level keeps
// the level e has for it.
func (e Effort) merge(f effortFile) Effort {
	if f.Level != nil {
		e.Level, _ = f.Level.(string)
	}
	e.PerModel, e.order = maps.Clone(e.PerModel), slices.Clone(e.order)
	for _, entry := range f.ModelSettings {
		var v struct {
			Level any `json:"effortLevel"`
		}
		if json.Unmarshal(entry.raw, &v) != nil {
			continue
		}
		if v.Level == nil {
			if _, ok := e.PerModel[entry.key]; ok {
				continue
			}
		}
		level, _ := v.Level.(string)
		e.set(entry.key, level)
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
// model in any spelling; e's other entries stay, before over's.
func (e Effort) Over(over Effort) Effort {
	out := Effort{Level: e.Level}
	if over.Level != "" {
		out.Level = over.Level
	}
	for _, key := range e.order {
		if _, shadowed := over.lookup(key); !shadowed {
			out.set(key, e.PerModel[key])
		}
	}
	for _, key := range over.order {
		out.set(key, over.PerModel[key])
	}
	return out
}

// lookup is the first entry whose key is key in its canonical spelling.
func (e Effort) lookup(key string) (string, bool) {
	want := canonicalKey(key)
	for _, k := range e.order {
		if canonicalKey(k) == want {
			return e.PerModel[k], true
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
