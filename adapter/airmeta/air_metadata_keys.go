package airmeta

import (
	"encoding/json"
	"maps"
)

// Namespace keys and the extension version (contract: "AIR metadata
// keys": "Every payload goes into `_meta.jetbrains.air`, next to
// `version: 1`").
const (
	JetBrainsKey = "jetbrains"
	AIRKey       = "air"
	VersionKey   = "version"
	Version      = 1
)

// Merge returns a copy of meta with `jetbrains.air.<key> = payload` and
// `jetbrains.air.version = 1` set. The other keys of meta, of `jetbrains`
// and of `jetbrains.air` stay as they are ("The adapter merges a payload
// into an existing `_meta` and keeps the other namespaces"). A nil meta
// starts empty. The maps of meta are not changed.
func Merge(meta map[string]any, key string, payload any) map[string]any {
	out := maps.Clone(meta)
	if out == nil {
		out = map[string]any{}
	}
	jb := cloneObject(out[JetBrainsKey])
	air := cloneObject(jb[AIRKey])
	air[VersionKey] = Version
	air[key] = payload
	jb[AIRKey] = air
	out[JetBrainsKey] = jb
	return out
}

// MergeJSON is Merge on a JSON `_meta` object (absent, null or not an
// object reads as empty). The result keeps the key order of encoding/json
// (sorted), which is what every line of the wire shows after
// normalisation.
func MergeJSON(meta json.RawMessage, key string, payload any) json.RawMessage {
	var m map[string]any
	if len(meta) > 0 {
		_ = json.Unmarshal(meta, &m)
	}
	return encode(Merge(m, key, payload))
}

// Payload returns the raw value of `jetbrains.air.<key>` in a JSON
// `_meta` (nil when absent).
func Payload(meta json.RawMessage, key string) json.RawMessage {
	var m struct {
		JetBrains struct {
			AIR map[string]json.RawMessage `json:"air"`
		} `json:"jetbrains"`
	}
	if json.Unmarshal(meta, &m) != nil {
		return nil
	}
	return m.JetBrains.AIR[key]
}

// cloneObject returns a shallow copy of v when it is an object (a
// map[string]any or a JSON object), else an empty map.
func cloneObject(v any) map[string]any {
	switch o := v.(type) {
	case map[string]any:
		return maps.Clone(o)
	case json.RawMessage:
		var m map[string]any
		if json.Unmarshal(o, &m) == nil && m != nil {
			return m
		}
	}
	return map[string]any{}
}

// encode marshals v without HTML escaping, as every agent message is.
func encode(v any) json.RawMessage {
	b, err := marshalNoEscape(v)
	if err != nil {
		return json.RawMessage("{}")
	}
	return b
}
