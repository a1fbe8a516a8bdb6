package permission

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// object is a JSON object that keeps its keys in order, so that an input
// echoed back to Claude (updatedInput, updatedPermissions) or spread into a
// new object keeps the key order of the CLI's frame, as a JavaScript object
// does.
type object struct {
	keys []string
	vals map[string]json.RawMessage
}

// parseObject decodes raw as a JSON object. A repeated key keeps its first
// position and its last value, as JSON.parse does.
func parseObject(raw json.RawMessage) (*object, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	o := &object{vals: map[string]json.RawMessage{}}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return nil, false
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return nil, false
		}
		o.set(key, v)
	}
	return o, true
}

// newObject returns an empty object.
func newObject() *object { return &object{vals: map[string]json.RawMessage{}} }

// set replaces the value of key in place, or appends key (object spread).
func (o *object) set(key string, v json.RawMessage) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

// get returns the value of key, nil when absent.
func (o *object) get(key string) json.RawMessage { return o.vals[key] }

// MarshalJSON writes the keys in order.
func (o *object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(marshal(k))
		b.WriteByte(':')
		b.Write(o.vals[k])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal encodes v without HTML escaping (JSON.stringify does not escape
// <, > or &). It panics on a value that cannot be encoded: every value this
// package encodes is its own.
func marshal(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("permission: encode: " + err.Error())
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// stringOf returns the JSON string in raw, and whether raw is one.
func stringOf(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// truthy reports whether raw is a JavaScript truthy value.
func truthy(raw json.RawMessage) bool {
	switch {
	case len(raw) == 0:
		return false
	case raw[0] == '"':
		s, _ := stringOf(raw)
		return s != ""
	case raw[0] == '{' || raw[0] == '[':
		return true
	}
	switch string(raw) {
	case "true":
		return true
	case "false", "null":
		return false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return err == nil && f != 0
}

// arrayOf decodes raw as a JSON array of raw values.
func arrayOf(raw json.RawMessage) ([]json.RawMessage, bool) {
	var a []json.RawMessage
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &a) != nil {
		return nil, false
	}
	return a, true
}
