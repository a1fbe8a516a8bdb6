package jsonwalk

// MapStrings is a deep copy of v, a decoded JSON or YAML value (maps,
// slices, strings, numbers, booleans), with f applied to every string in
// it: a scenario's placeholders, a mock model's captured values. Map keys
// stay as they are; a nil map stays nil.
func MapStrings(v any, f func(string) string) any {
	switch t := v.(type) {
	case string:
		return f(t)
	case map[string]any:
		if t == nil {
			return t
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = MapStrings(e, f)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = MapStrings(e, f)
		}
		return out
	case []map[string]any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = MapStrings(e, f)
		}
		return out
	}
	return v
}
