package toolcall

import (
	"encoding/json"
	"strconv"
)

// Input is a tool input object read key by key. A value that is not an
// object reads as an empty Input.
type Input map[string]json.RawMessage

// parseInput reads a tool input.
func parseInput(raw json.RawMessage) Input {
	var in Input
	if json.Unmarshal(raw, &in) != nil {
		return nil
	}
	return in
}

// str is the string under key, or "" when it is absent or not a string.
func (in Input) str(key string) string {
	s, _ := in.strOK(key)
	return s
}

// strOK is the string under key and whether it is a string.
func (in Input) strOK(key string) (string, bool) {
	var s string
	if raw, ok := in[key]; !ok || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// num is the number under key and whether it is a number.
func (in Input) num(key string) (float64, bool) {
	var f float64
	if raw, ok := in[key]; !ok || json.Unmarshal(raw, &f) != nil {
		return 0, false
	}
	return f, true
}

// present reports whether key holds a value other than null.
func (in Input) present(key string) bool {
	raw, ok := in[key]
	return ok && string(raw) != "null"
}

// truthy reports whether the value under key is truthy as JavaScript reads it.
func (in Input) truthy(key string) bool {
	raw, ok := in[key]
	if !ok {
		return false
	}
	switch string(raw) {
	case "null", "false", `""`, "0":
		return false
	}
	if f, ok := in.num(key); ok {
		return f != 0
	}
	return true
}

// text is the value under key as JavaScript's String() writes it into a
// template string.
func (in Input) text(key string) string {
	raw := in[key]
	if s, ok := in.strOK(key); ok {
		return s
	}
	if f, ok := in.num(key); ok {
		return jsNumber(f)
	}
	return string(raw)
}

// jsNumber formats a number as JavaScript does for integers and plain decimals.
func jsNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
