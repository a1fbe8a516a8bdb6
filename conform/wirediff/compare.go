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

// pathStep is one key or index of a JSON path, or the element of an
// array whose "id" is id (its JSON).
type pathStep struct {
	key   string
	index int // -1 for a key or an id
	id    string
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
	oldIDs, newIDs := elementIDs(old), elementIDs(new)
	if oldIDs != nil && newIDs != nil {
		c.byID(path, old, new, oldIDs, newIDs)
		return
	}
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

// elementIDs returns the JSON of each element's "id" when every element is
// an object with a distinct scalar id (configOptions, ...), else nil.
func elementIDs(a []any) []string {
	ids := make([]string, len(a))
	seen := map[string]bool{}
	for i, e := range a {
		obj, ok := e.(map[string]any)
		if !ok || obj["id"] == nil || jsonKind(obj["id"]) == "object" || jsonKind(obj["id"]) == "array" {
			return nil
		}
		ids[i] = encode(obj["id"])
		if seen[ids[i]] {
			return nil
		}
		seen[ids[i]] = true
	}
	return ids
}

// byID compares two arrays of elements with ids element by element of the
// same id, so an element inserted before others is one element added, not
// every following one changed. A changed order of the elements both have
// is one change of the array, its ids in old and new order.
func (c *comparer) byID(path []pathStep, old, new []any, oldIDs, newIDs []string) {
	at := func(ids []string) map[string]int {
		m := make(map[string]int, len(ids))
		for i, id := range ids {
			m[id] = i
		}
		return m
	}
	oldAt, newAt := at(oldIDs), at(newIDs)
	var oldOrder, newOrder []string
	for i, id := range oldIDs {
		p := append(slices.Clone(path), pathStep{index: -1, id: id})
		if j, ok := newAt[id]; ok {
			oldOrder = append(oldOrder, id)
			c.walk(p, old[i], new[j])
		} else {
			c.add(p, kindRule(p, WireFieldRemoved, AIRFieldRemoved), old[i], absent)
		}
	}
	for j, id := range newIDs {
		p := append(slices.Clone(path), pathStep{index: -1, id: id})
		if _, ok := oldAt[id]; ok {
			newOrder = append(newOrder, id)
		} else {
			c.add(p, c.elementAddedRule(p), absent, new[j])
		}
	}
	if !slices.Equal(oldOrder, newOrder) {
		c.out = append(c.out, change{rule: kindRule(path, WireValueChanged, AIRValueChanged), path: formatPath(path) + "[*].id",
			old: "[" + strings.Join(oldOrder, ",") + "]", new: "[" + strings.Join(newOrder, ",") + "]"})
	}
}

// elementAddedRule classifies a new element with an id: a client lists
// such elements by id and one it does not know is an option more, not a
// change of the others.
func (c *comparer) elementAddedRule(path []pathStep) string {
	if underMeta(path) {
		return c.addedRule(path, true)
	}
	return OptionAdded
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
		case s.id != "":
			fmt.Fprintf(&b, "[id=%s]", s.id)
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
