package jsonwalk

// MapStrings is a deep copy of v, a decoded JSON or YAML value (maps,
// slices, strings, numbers, booleans), with f applied to every string in
// it: a scenario's placeholders, a mock model's captured values. Map keys
// stay as they are; a nil map stays nil.
func MapStrings(v any, f func(string) string) any {
	return MapKeyedStrings(v, func(_, s string) string { return f(s) })
}

// MapKeyedStrings is MapStrings with each string's key: the key of the
// object member that holds it, or of the nearest one around the array
// that does ("" at the top).
func MapKeyedStrings(v any, f func(key, s string) string) any { return mapKeyed(v, "", f) }

func mapKeyed(v any, key string, f func(key, s string) string) any {
	switch t := v.(type) {
	case string:
		return f(key, t)
	case map[string]any:
		if t == nil {
			return t
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = mapKeyed(e, k, f)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = mapKeyed(e, key, f)
		}
		return out
	case []map[string]any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = mapKeyed(e, key, f)
		}
		return out
	}
	return v
}
