package scenario

import "strings"

// ClientCapabilities returns the initialize clientCapabilities of profile p
// with the scenario's change applied (change may be nil):
//
//   - plain: fs read/write, terminal, elicitation.form;
//   - zed: plain + auth.terminal + _meta.terminal_output + _meta["terminal-auth"];
//   - air: plain + _meta.terminal_output + _meta.terminal_output_delta +
//     _meta.jetbrains.air {version:1, capabilities: AirCapabilities}.
func ClientCapabilities(p Profile, change *CapabilityChange) map[string]any {
	caps := map[string]any{
		"fs":          map[string]any{"readTextFile": true, "writeTextFile": true},
		"terminal":    true,
		"elicitation": map[string]any{"form": map[string]any{}},
	}
	switch p {
	case ProfileZed:
		caps["auth"] = map[string]any{"terminal": true}
		caps["_meta"] = map[string]any{"terminal_output": true, "terminal-auth": true}
	case ProfileAir:
		air := append([]any(nil), toAny(AirCapabilities)...)
		caps["_meta"] = map[string]any{"terminal_output": true, "terminal_output_delta": true,
			"jetbrains": map[string]any{"air": map[string]any{"version": 1, "capabilities": air}}}
	}
	if change == nil {
		return caps
	}
	if change.Merge != nil {
		caps = deepMerge(caps, change.Merge)
	}
	for _, path := range change.Remove {
		removePath(caps, strings.Split(path, "."))
	}
	if p == ProfileAir {
		meta, _ := caps["_meta"].(map[string]any)
		jb, _ := meta["jetbrains"].(map[string]any)
		air, _ := jb["air"].(map[string]any)
		if air != nil {
			list, _ := air["capabilities"].([]any)
			drop := map[string]bool{}
			for _, n := range change.WithoutAir {
				drop[n] = true
			}
			var out []any
			for _, n := range list {
				if s, _ := n.(string); !drop[s] {
					out = append(out, n)
				}
			}
			for _, n := range change.AddAir {
				out = append(out, n)
			}
			if out == nil {
				out = []any{}
			}
			air["capabilities"] = out
		}
	}
	return caps
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// deepMerge merges src into a copy of dst: objects merge, anything else
// replaces.
func deepMerge(dst, src map[string]any) map[string]any {
	out := make(map[string]any, len(dst))
	for k, v := range dst {
		out[k] = v
	}
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := out[k].(map[string]any); ok {
				out[k] = deepMerge(dm, sm)
				continue
			}
		}
		out[k] = v
	}
	return out
}

func removePath(m map[string]any, path []string) {
	if len(path) == 0 || m == nil {
		return
	}
	if len(path) == 1 {
		delete(m, path[0])
		return
	}
	next, _ := m[path[0]].(map[string]any)
	removePath(next, path[1:])
}
