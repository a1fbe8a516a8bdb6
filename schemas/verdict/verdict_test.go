package verdict

import (
	"testing"

	"github.com/xeipuuv/gojsonschema"
)

func TestPointer(t *testing.T) {
	if got := Pointer("a/b", "m~n", "0"); got != "/a~1b/m~0n/0" {
		t.Fatalf("Pointer = %s", got)
	}
	if got := Pointer(); got != "" {
		t.Fatalf("root = %q", got)
	}
}

func TestFromResult(t *testing.T) {
	schema := gojsonschema.NewStringLoader(`{"type":"object","required":["x"],"additionalProperties":false,
		"properties":{"x":{"type":"object","properties":{"a.b/c":{"type":"integer"}}},"y":{}}}`)
	tests := map[string]struct{ doc, want string }{
		"missing property names it":      {`{}`, "required@/x"},
		"extra property names it":        {`{"x":{},"z":1}`, "additional_property_not_allowed@/z"},
		"keys with dots and slashes":     {`{"x":{"a.b/c":"s"}}`, "invalid_type@/x/a.b~1c"},
		"root type error has no pointer": {`[]`, "invalid_type@"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			r, err := gojsonschema.Validate(schema, gojsonschema.NewStringLoader(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range FromResult(r) {
				got = append(got, v.Rule())
				if v.Rule() == tt.want {
					return
				}
			}
			t.Fatalf("want %s, got %v", tt.want, got)
		})
	}
}
