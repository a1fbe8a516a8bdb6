package conform

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestParseElementByValue: [=V] names the array element equal to the JSON
// value V, and only as a path's last step.
func TestParseElementByValue(t *testing.T) {
	s, err := parsePath(`$.a[="x]y"]`)
	if err != nil || len(s) != 2 || !s[1].isValue || s[1].value != "x]y" {
		t.Fatalf("steps %+v, err %v", s, err)
	}
	if s, err := parsePath(`$.a[=3]`); err != nil || s[1].value != json.Number("3") {
		t.Errorf("a number element: %+v, %v", s, err)
	}
	for _, bad := range []string{`$.a[="x"].b`, `$.a[="x"][0]`, `$.a[=x]`, `$.a[="x"`, `$.a[="x" ]x`, `$.a[=]`} {
		if _, err := parsePath(bad); err == nil {
			t.Errorf("%s parses, want an error", bad)
		}
	}
}

// TestMaskElementByValue: masking [=V] gives the actual array the golden's
// presence of V, in the golden's place, whatever order the paths come in;
// every other element still compares.
func TestMaskElementByValue(t *testing.T) {
	golden := `["s","ci","r","si","sb","sa","sw"]`
	tests := []struct {
		name, actual, want string
		paths              []string
		hits               []string
	}{
		{"missing ones, in order", `["s","r","si","sa"]`, golden,
			[]string{`$[="ci"]`, `$[="sb"]`, `$[="sw"]`}, []string{`$[="ci"]`, `$[="sb"]`, `$[="sw"]`}},
		{"missing ones, reversed", `["s","r","si","sa"]`, golden,
			[]string{`$[="sw"]`, `$[="sb"]`, `$[="ci"]`}, []string{`$[="sw"]`, `$[="sb"]`, `$[="ci"]`}},
		{"missing first element", `["ci","r","si","sb","sa","sw"]`, golden, []string{`$[="s"]`}, []string{`$[="s"]`}},
		{"an extra one goes", `["s","ci","x","r","si","x","sb","sa","sw"]`, golden, []string{`$[="x"]`}, []string{`$[="x"]`}},
		{"present on both sides", golden, golden, []string{`$[="ci"]`}, nil},
		{"absent on both sides", golden, golden, []string{`$[="x"]`}, nil},
		{"another difference stays", `["s","si","sb","sa","sw"]`, `["s","ci","si","sb","sa","sw"]`,
			[]string{`$[="ci"]`}, []string{`$[="ci"]`}},
		{"not an array", `{"ci":1}`, `{"ci":1}`, []string{`$[="ci"]`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, a := decodeJSON(t, golden), decodeJSON(t, tt.actual)
			var hits []string
			for _, p := range tt.paths {
				s, err := parsePath(strings.Replace(p, "$", "$.v", 1))
				if err != nil {
					t.Fatal(err)
				}
				a = maskPath(map[string]any{"v": g}, map[string]any{"v": a}, s, "$", func(p string) {
					hits = append(hits, strings.Replace(p, "$.v", "$", 1))
				}).(map[string]any)["v"]
			}
			if !reflect.DeepEqual(a, decodeJSON(t, tt.want)) || !slices.Equal(hits, tt.hits) {
				t.Errorf("masked %v, hits %q; want %s, hits %q", a, hits, tt.want, tt.hits)
			}
		})
	}
	s, _ := parsePath(`$.v[="ci"]`)
	if !hasPath(map[string]any{"v": decodeJSON(t, golden)}, s) || hasPath(map[string]any{"v": []any{"s"}}, s) {
		t.Error("hasPath: [=V] holds a value where the array has V, only there")
	}
}

func decodeJSON(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestMaskCreatesGoldenObject: a key inside an object only the golden has
// is masked by creating that object with the masked keys only, so a key of
// it that no path names still differs.
func TestMaskCreatesGoldenObject(t *testing.T) {
	g := decodeJSON(t, `{"m":{"j":{"air":{"mcp":{"s":"x"},"version":1}}}}`)
	mask := func(actual string, paths ...string) (any, int) {
		a, n := decodeJSON(t, actual), 0
		for _, p := range paths {
			s, err := parsePath(p)
			if err != nil {
				t.Fatal(err)
			}
			a = maskPath(g, a, s, "$", func(string) { n++ })
		}
		return a, n
	}
	if a, n := mask(`{"m":{}}`, "$.m.j.air.mcp", "$.m.j.air.version"); !reflect.DeepEqual(a, g) || n != 2 {
		t.Errorf("both keys masked: %v (%d hits), want the golden", a, n)
	}
	if a, _ := mask(`{"m":{}}`, "$.m.j.air.mcp"); reflect.DeepEqual(a, g) {
		t.Error("version, which no path names, compares as the golden's")
	}
	if a, n := mask(`{"m":{}}`, "$.m.j.air.other"); n != 0 || !reflect.DeepEqual(a, decodeJSON(t, `{"m":{}}`)) {
		t.Errorf("a path the golden has no value at created %v", a)
	}
	if a, n := mask(`{"m":{"j":{"air":{"mcp":{"s":"x"},"version":1,"extra":1}}}}`, "$.m.j.air.mcp", "$.m.j.air.version"); n != 0 || reflect.DeepEqual(a, g) {
		t.Errorf("an extra key was masked: %v", a)
	}
}

// TestMaskElementsByCondition: [?...] masks the elements whose golden
// element meets every condition and no other: a built-in skill's _meta
// is masked, a real skill's and a plain command's still compare.
func TestMaskElementsByCondition(t *testing.T) {
	path := `$.c[?_meta.kind="skill"&!_meta.skillPath]._meta`
	steps, err := parsePath(path)
	if err != nil || len(steps) != 3 || len(steps[1].filter) != 2 || !steps[1].filter[1].absent {
		t.Fatalf("steps %+v, err %v", steps, err)
	}
	golden := decodeJSON(t, `{"c":[{"n":"a"},{"n":"b","_meta":{"kind":"skill"}},{"n":"c","_meta":{"kind":"skill","skillPath":"/s"}}]}`)
	for _, tt := range []struct{ name, actual, hit string }{
		{"the built-in skill loses its kind", `{"c":[{"n":"a"},{"n":"b"},{"n":"c","_meta":{"kind":"skill","skillPath":"/s"}}]}`, "$.c[1]._meta"},
		{"a real skill that loses its keys still differs", `{"c":[{"n":"a"},{"n":"b"},{"n":"c"}]}`, "$.c[1]._meta"},
		{"a plain command that gains _meta still differs", `{"c":[{"n":"a","_meta":{"kind":"skill"}},{"n":"b"},{"n":"c","_meta":{"kind":"skill","skillPath":"/s"}}]}`, "$.c[1]._meta"},
	} {
		var hits []string
		a := maskPath(golden, decodeJSON(t, tt.actual), steps, "$", func(p string) { hits = append(hits, p) })
		if !slices.Equal(hits, []string{tt.hit}) {
			t.Errorf("%s: hits %v", tt.name, hits)
		}
		same := reflect.DeepEqual(a, golden)
		if want := tt.name == "the built-in skill loses its kind"; same != want {
			t.Errorf("%s: masked actual equals the golden: %v, want %v", tt.name, same, want)
		}
	}
	for _, bad := range []string{`$.c[?]`, `$.c[?a]`, `$.c[?a=]`, `$.c[?!a`, `$.c[?a="x"&]`, `$.c[?!]`} {
		if _, err := parsePath(bad); err == nil {
			t.Errorf("%s parses, want an error", bad)
		}
	}
}
