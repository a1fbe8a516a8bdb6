package conform

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// step is one segment of a JSON path: an object key, an array index,
// every element of an array, or the element of an array equal to a value.
type step struct {
	key     string
	index   int // -1: every element ([*]); used when isKey and isValue are false
	isKey   bool
	isValue bool
	value   any    // the element [=value] names, decoded as lines are
	filter  []cond // [?...]: the elements that meet every condition
}

// cond is one condition of a [?...] step on an element: the value at a
// path of keys within it is absent (!a.b) or equals a JSON value (a.b=V).
type cond struct {
	path   []step
	absent bool
	value  any
}

// takes reports whether step s visits element i, x, of an array: every
// element for [*], the one of [N], those that meet the conditions of [?...].
func (s step) takes(i int, x any) bool {
	if s.filter != nil {
		for _, c := range s.filter {
			vals := valuesAt(x, c.path)
			if c.absent != (len(vals) == 0) || !c.absent && !reflect.DeepEqual(vals[0], c.value) {
				return false
			}
		}
		return true
	}
	return s.index < 0 || s.index == i
}

// parsePath reads the path form that golden mismatches print: "$", then
// .name (a letter or _ first, then letters, digits, _), ["any key"] (a JSON
// string), [N] or [*]; [?C&C...] for the elements of an array that meet
// each condition C, either !k.k (the element holds nothing there) or
// k.k=V (it holds the JSON value V there), judged on the golden's element
// where a mask walks both sides; and [=V], V a JSON value, for the element
// of an array that equals V, as the last step only (an element by value
// is whole).
// A path names at least one step.
func parsePath(p string) ([]step, error) {
	if !strings.HasPrefix(p, "$") || len(p) == 1 {
		return nil, fmt.Errorf("path %q: want $ and at least one step", p)
	}
	var out []step
	for rest := p[1:]; rest != ""; {
		s, n, err := nextStep(rest)
		if err != nil {
			return nil, fmt.Errorf("path %q: %v", p, err)
		}
		if s.isValue && n < len(rest) {
			return nil, fmt.Errorf("path %q: an element by value [=...] ends the path", p)
		}
		out = append(out, s)
		rest = rest[n:]
	}
	return out, nil
}

// nextStep reads the step at the start of s and its length.
func nextStep(s string) (step, int, error) {
	switch {
	case s[0] == '.':
		n := 1
		for n < len(s) && isKeyRune(rune(s[n]), n == 1) {
			n++
		}
		if n == 1 {
			return step{}, 0, fmt.Errorf("empty key at %q", s)
		}
		return step{key: s[1:n], isKey: true}, n, nil
	case strings.HasPrefix(s, "[*]"):
		return step{index: -1}, 3, nil
	case strings.HasPrefix(s, "[="):
		return valueStep(s)
	case strings.HasPrefix(s, "[?"):
		return filterStep(s)
	case strings.HasPrefix(s, `["`):
		var key string
		dec := json.NewDecoder(strings.NewReader(s[1:]))
		if err := dec.Decode(&key); err != nil {
			return step{}, 0, fmt.Errorf("bad quoted key at %q", s)
		}
		n := 1 + int(dec.InputOffset())
		if n >= len(s) || s[n] != ']' {
			return step{}, 0, fmt.Errorf("no ] after the quoted key at %q", s)
		}
		return step{key: key, isKey: true}, n + 1, nil
	case s[0] == '[':
		end := strings.IndexByte(s, ']')
		i, err := strconv.Atoi(s[1:max(end, 1)])
		if end < 0 || err != nil || i < 0 {
			return step{}, 0, fmt.Errorf("bad index at %q", s)
		}
		return step{index: i}, end + 1, nil
	}
	return step{}, 0, fmt.Errorf("want . or [ at %q", s)
}

// valueStep reads a [=V] step at the start of s.
func valueStep(s string) (step, int, error) {
	dec := json.NewDecoder(strings.NewReader(s[2:]))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return step{}, 0, fmt.Errorf("bad element value at %q", s)
	}
	n := 2 + int(dec.InputOffset())
	if n >= len(s) || s[n] != ']' {
		return step{}, 0, fmt.Errorf("no ] after the element value at %q", s)
	}
	return step{isValue: true, value: v}, n + 1, nil
}

// filterStep reads a [?C&C...] step at the start of s.
func filterStep(s string) (step, int, error) {
	var out []cond
	n := 2
	for {
		var c cond
		if n < len(s) && s[n] == '!' {
			c.absent = true
			n++
		}
		end := n
		for end < len(s) && (isKeyRune(rune(s[end]), false) || s[end] == '.') {
			end++
		}
		path, err := parsePath("$." + s[n:end])
		if err != nil || n == end {
			return step{}, 0, fmt.Errorf("bad condition at %q", s[n:])
		}
		c.path, n = path, end
		if !c.absent {
			if n >= len(s) || s[n] != '=' {
				return step{}, 0, fmt.Errorf("want =V or a leading ! in the condition at %q", s)
			}
			v, used, err := decodeValue(s[n+1:])
			if err != nil {
				return step{}, 0, fmt.Errorf("bad condition value at %q", s[n:])
			}
			c.value, n = v, n+1+used
		}
		out = append(out, c)
		switch {
		case n < len(s) && s[n] == '&':
			n++
		case n < len(s) && s[n] == ']':
			return step{filter: out}, n + 1, nil
		default:
			return step{}, 0, fmt.Errorf("no ] after the conditions at %q", s)
		}
	}
}

// decodeValue decodes the JSON value at the start of s as lines are
// decoded, and says how many bytes it took.
func decodeValue(s string) (any, int, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, int(dec.InputOffset()), err
}

func isKeyRune(r rune, first bool) bool {
	return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || !first && r >= '0' && r <= '9'
}

// keyPath appends key to a printed path the way golden mismatches do.
func keyPath(at, key string) string {
	simple := key != ""
	for i, r := range key {
		if !isKeyRune(r, i == 0) {
			simple = false
			break
		}
	}
	if simple {
		return at + "." + key
	}
	b, _ := json.Marshal(key)
	return at + "[" + string(b) + "]"
}

// maskPath returns a with the value at steps set to g's (absent where g
// has none), calling hit with the concrete path of each value it changed.
// [*] visits the indices both arrays have. An object on the way that only
// g has is created in a, holding only the masked values (so that one key
// of it can be masked); any other container missing or of another type on
// either side ends the walk.
func maskPath(g, a any, steps []step, at string, hit func(string)) any {
	if len(steps) == 0 {
		if !reflect.DeepEqual(g, a) {
			hit(at)
			return g
		}
		return a
	}
	s, rest := steps[0], steps[1:]
	if s.isKey {
		gm, ok1 := g.(map[string]any)
		am, ok2 := a.(map[string]any)
		if !ok1 || !ok2 {
			return a
		}
		gv, inG := gm[s.key]
		av, inA := am[s.key]
		p := keyPath(at, s.key)
		switch {
		case inG && inA:
			am[s.key] = maskPath(gv, av, rest, p, hit)
		case len(rest) > 0 && inG:
			// an object only the golden has is made to hold the masked
			// values only; any other key of it still differs
			if _, isObj := gv.(map[string]any); isObj {
				n := 0
				made := maskPath(gv, map[string]any{}, rest, p, func(p string) { n++; hit(p) })
				if n > 0 {
					am[s.key] = made
				}
			}
		case len(rest) > 0:
			// a container only the actual side has: nothing to mask
		case inG:
			am[s.key] = gv
			hit(p)
		case inA:
			delete(am, s.key)
			hit(p)
		}
		return a
	}
	gs, ok1 := g.([]any)
	as, ok2 := a.([]any)
	if !ok1 || !ok2 {
		return a
	}
	if s.isValue {
		return maskElement(gs, as, s.value, at, hit)
	}
	for i := range min(len(gs), len(as)) {
		if s.takes(i, gs[i]) {
			as[i] = maskPath(gs[i], as[i], rest, fmt.Sprintf("%s[%d]", at, i), hit)
		}
	}
	return a
}

// maskElement gives the array a the golden's presence of the element v:
// where only a has it, every copy goes; where only g has it, it goes in
// right after the nearest element before it in g that a has (first, when a
// has none of them). Where both or neither have it, a stays.
func maskElement(g, a []any, v any, at string, hit func(string)) any {
	gi, ai := indexOf(g, v), indexOf(a, v)
	switch {
	case gi < 0 && ai >= 0:
		out := make([]any, 0, len(a))
		for _, x := range a {
			if !reflect.DeepEqual(x, v) {
				out = append(out, x)
			}
		}
		a = out
	case gi >= 0 && ai < 0:
		pos := 0
		for j := gi - 1; j >= 0; j-- {
			if k := indexOf(a, g[j]); k >= 0 {
				pos = k + 1
				break
			}
		}
		a = append(a[:pos:pos], append([]any{v}, a[pos:]...)...)
	default:
		return a
	}
	b, _ := json.Marshal(v)
	hit(at + "[=" + string(b) + "]")
	return a
}

func indexOf(arr []any, v any) int {
	for i, x := range arr {
		if reflect.DeepEqual(x, v) {
			return i
		}
	}
	return -1
}

// hasPath reports whether v holds a value at steps.
func hasPath(v any, steps []step) bool {
	if len(steps) == 0 {
		return true
	}
	s, rest := steps[0], steps[1:]
	if s.isKey {
		m, ok := v.(map[string]any)
		x, in := m[s.key]
		return ok && in && hasPath(x, rest)
	}
	arr, _ := v.([]any)
	if s.isValue {
		return indexOf(arr, s.value) >= 0
	}
	for i, x := range arr {
		if s.takes(i, x) && hasPath(x, rest) {
			return true
		}
	}
	return false
}

// valuesAt lists the values v holds at steps, in document order (every
// element for [*]); a path v does not hold adds nothing.
func valuesAt(v any, steps []step) []any {
	if len(steps) == 0 {
		return []any{v}
	}
	s, rest := steps[0], steps[1:]
	if s.isKey {
		m, _ := v.(map[string]any)
		x, in := m[s.key]
		if !in {
			return nil
		}
		return valuesAt(x, rest)
	}
	arr, _ := v.([]any)
	if s.isValue {
		if i := indexOf(arr, s.value); i >= 0 {
			return []any{arr[i]}
		}
		return nil
	}
	var out []any
	for i, x := range arr {
		if s.takes(i, x) {
			out = append(out, valuesAt(x, rest)...)
		}
	}
	return out
}
