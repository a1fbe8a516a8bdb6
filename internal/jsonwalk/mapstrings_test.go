package jsonwalk

import (
	"reflect"
	"strings"
	"testing"
)

func TestMapStrings(t *testing.T) {
	in := map[string]any{
		"a": "x{{v}}", "n": 1.5, "b": true, "nil": nil,
		"list": []any{"{{v}}", map[string]any{"k{{v}}": "{{v}}"}},
		"maps": []map[string]any{{"m": "{{v}}"}},
		"none": map[string]any(nil),
	}
	got := MapStrings(in, func(s string) string { return strings.ReplaceAll(s, "{{v}}", "V") })
	want := map[string]any{
		"a": "xV", "n": 1.5, "b": true, "nil": nil,
		"list": []any{"V", map[string]any{"k{{v}}": "V"}},
		"maps": []any{map[string]any{"m": "V"}},
		"none": map[string]any(nil),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("MapStrings = %#v\nwant %#v", got, want)
	}
	if in["a"] != "x{{v}}" {
		t.Error("the input was changed")
	}
}
