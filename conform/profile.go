package conform

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/airwire/airwire/conform/scenario"
)

// ClientCapabilities returns the clientCapabilities the profile declares in
// initialize, changed by the scenario's capabilities section (nil: none):
//
//	plain  fs read/write, terminal, elicitation.form
//	zed    plain + auth.terminal + _meta.terminal_output + _meta["terminal-auth"]
//	air    plain + _meta.terminal_output + _meta.terminal_output_delta +
//	       _meta.jetbrains.air {version:1, capabilities: scenario.AirCapabilities}
//
// The change is applied in this order: merge (deep), remove (dotted paths),
// withoutAir, addAir. The AIR list edits apply to the air profile only.
func ClientCapabilities(p scenario.Profile, change *scenario.CapabilityChange) (map[string]any, error) {
	caps := map[string]any{
		"fs":          map[string]any{"readTextFile": true, "writeTextFile": true},
		"terminal":    true,
		"elicitation": map[string]any{"form": map[string]any{}},
	}
	switch p {
	case scenario.ProfilePlain:
	case scenario.ProfileZed:
		caps["auth"] = map[string]any{"terminal": true}
		caps["_meta"] = map[string]any{"terminal_output": true, "terminal-auth": true}
	case scenario.ProfileAir:
		airCaps := make([]any, 0, len(scenario.AirCapabilities))
		for _, c := range scenario.AirCapabilities {
			airCaps = append(airCaps, c)
		}
		caps["_meta"] = map[string]any{
			"terminal_output":       true,
			"terminal_output_delta": true,
			"jetbrains":             map[string]any{"air": map[string]any{"version": 1, "capabilities": airCaps}},
		}
	default:
		return nil, fmt.Errorf("unknown profile %q", p)
	}
	if change == nil {
		return caps, nil
	}
	if change.Merge != nil {
		merged, err := deepCopy(change.Merge)
		if err != nil {
			return nil, fmt.Errorf("capabilities.merge: %w", err)
		}
		mergeInto(caps, merged.(map[string]any))
	}
	for _, path := range change.Remove {
		removePath(caps, strings.Split(path, "."))
	}
	if p == scenario.ProfileAir && (len(change.WithoutAir) > 0 || len(change.AddAir) > 0) {
		air := caps["_meta"].(map[string]any)["jetbrains"].(map[string]any)["air"].(map[string]any)
		list, _ := air["capabilities"].([]any)
		drop := map[string]bool{}
		for _, c := range change.WithoutAir {
			drop[c] = true
		}
		kept := list[:0:0]
		for _, c := range list {
			if s, _ := c.(string); !drop[s] {
				kept = append(kept, c)
			}
		}
		for _, c := range change.AddAir {
			kept = append(kept, c)
		}
		air["capabilities"] = kept
	}
	return caps, nil
}

// mergeInto deep-merges src into dst: objects merge, other values replace.
func mergeInto(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				mergeInto(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
}

func removePath(m map[string]any, path []string) {
	if len(path) == 0 {
		return
	}
	if len(path) == 1 {
		delete(m, path[0])
		return
	}
	if sub, ok := m[path[0]].(map[string]any); ok {
		removePath(sub, path[1:])
	}
}

// deepCopy copies a YAML-decoded value into plain JSON types.
func deepCopy(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	return out, json.Unmarshal(b, &out)
}
