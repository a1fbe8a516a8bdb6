package wirediff

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// EnumKeys are the keys whose string values are enumerations a client
// switches on: a changed value is WIRE_ENUM_VALUE_CHANGED.
var EnumKeys = []string{"sessionUpdate", "stopReason", "kind", "optionId", "status", "type", "outcome",
	"category", "action", "recoveryPolicy", "currentModeId", "modeId", "method", "role", "priority"}

// TextKeys are the keys whose string values are display text: a changed
// value is COSMETIC_TEXT_CHANGED.
var TextKeys = []string{"title", "description", "label", "message", "text"}

// change is one difference inside a paired message.
type change struct {
	rule, path, old, new string
}

// pathStep is one key or index of a JSON path.
type pathStep struct {
	key   string
	index int // -1 for a key
}

// comparer walks two JSON values of one message.
type comparer struct {
	airClient bool
	out       []change
}

func (c *comparer) walk(path []pathStep, old, new any) {
	ko, kn := jsonKind(old), jsonKind(new)
	switch {
	case ko != kn:
		c.add(path, kindRule(path, WireTypeChanged, AIRTypeChanged), old, new)
	case ko == "object":
		c.object(path, old.(map[string]any), new.(map[string]any))
	case ko == "array":
		c.array(path, old.([]any), new.([]any))
	case encode(old) != encode(new):
		c.add(path, scalarRule(path), old, new)
	}
}

func (c *comparer) object(path []pathStep, old, new map[string]any) {
	keys := make([]string, 0, len(old)+len(new))
	for k := range old {
		keys = append(keys, k)
	}
	for k := range new {
		if _, ok := old[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := append(slices.Clone(path), pathStep{key: k, index: -1})
		o, inOld := old[k]
		n, inNew := new[k]
		switch {
		case k == "_meta" && inOld != inNew:
			// A whole _meta appears or goes: its keys are what changed.
			c.walk(p, orEmpty(o), orEmpty(n))
		case !inNew:
			c.add(p, kindRule(p, WireFieldRemoved, AIRFieldRemoved), o, absent)
		case !inOld:
			c.add(p, c.addedRule(p, false), absent, n)
		default:
			c.walk(p, o, n)
		}
	}
}

func (c *comparer) array(path []pathStep, old, new []any) {
	for i := 0; i < max(len(old), len(new)); i++ {
		p := append(slices.Clone(path), pathStep{index: i})
		switch {
		case i >= len(new):
			c.add(p, kindRule(p, WireFieldRemoved, AIRFieldRemoved), old[i], absent)
		case i >= len(old):
			c.add(p, c.addedRule(p, true), absent, new[i])
		default:
			c.walk(p, old[i], new[i])
		}
	}
}

// orEmpty is v, or an empty object when v is nil (absent).
func orEmpty(v any) any {
	if v == nil {
		return map[string]any{}
	}
	return v
}

// addedRule classifies a new key or item: under _meta.jetbrains to a
// client without AIR it is breaking, elsewhere under _meta additive,
// outside _meta breaking.
func (c *comparer) addedRule(path []pathStep, item bool) string {
	switch {
	case underAIR(path) && !c.airClient:
		return WireAIRKeyToNonAIR
	case underMeta(path):
		return MetaKeyAdded
	case item:
		return WireItemAdded
	}
	return WireKeyOutsideMeta
}

func (c *comparer) add(path []pathStep, rule string, old, new any) {
	c.out = append(c.out, change{rule: rule, path: formatPath(path), old: encodeOr(old), new: encodeOr(new)})
}

// scalarRule classifies a changed string, number or boolean by its key.
func scalarRule(path []pathStep) string {
	key := ""
	if len(path) > 0 {
		key = path[len(path)-1].key
	}
	switch {
	case slices.Contains(EnumKeys, key):
		return kindRule(path, WireEnumValueChanged, AIREnumValueChanged)
	case slices.Contains(TextKeys, key):
		return TextChanged
	}
	return kindRule(path, WireValueChanged, AIRValueChanged)
}

// kindRule picks the AIR rule under _meta.jetbrains, else the WIRE one.
func kindRule(path []pathStep, wire, air string) string {
	if underAIR(path) {
		return air
	}
	return wire
}

func underMeta(path []pathStep) bool {
	return slices.ContainsFunc(path[:max(len(path)-1, 0)], func(s pathStep) bool { return s.key == "_meta" })
}

// underAIR reports whether path is _meta.jetbrains or below it.
func underAIR(path []pathStep) bool {
	for i := 0; i+1 < len(path); i++ {
		if path[i].key == "_meta" && path[i+1].key == "jetbrains" {
			return true
		}
	}
	return false
}

func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case json.Number, float64:
		return "number"
	case bool:
		return "boolean"
	}
	return "null"
}

// formatPath writes a JSON path as $.a.b[0]["odd key"].
func formatPath(path []pathStep) string {
	var b strings.Builder
	b.WriteString("$")
	for _, s := range path {
		switch {
		case s.index >= 0:
			fmt.Fprintf(&b, "[%d]", s.index)
		case plainKey(s.key):
			b.WriteString("." + s.key)
		default:
			fmt.Fprintf(&b, "[%s]", encode(s.key))
		}
	}
	return b.String()
}

func plainKey(k string) bool {
	for i, r := range k {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return k != ""
}

// encode writes v as JSON without HTML escaping, so placeholders such as
// <session-1> read as in the golden.
func encode(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// absent stands for the side of a change where the value does not exist.
type absentValue struct{}

var absent any = absentValue{}

// encodeOr encodes v, "" when it is absent.
func encodeOr(v any) string {
	if v == absent {
		return ""
	}
	return encode(v)
}
