package toolcall

import "encoding/json"

// metaFilter removes the `_meta` keys of a `tool_call_update` that an
// earlier report of the same tool call sent with the same value, for an
// AIR client, which merges these keys (contract: "Tool call contract":
// "For an AIR client, the adapter also leaves out the unchanged `_meta`
// keys"). It compares the keys of `claudeCode` and of `jetbrains.air`,
// `is_mcp_tool_call` and `terminal_info`; it never drops
// `terminal_output`, `terminal_output_delta` or `terminal_exit`, whose
// data the client appends. An update left with nothing is dropped.
type metaFilter struct {
	sent map[string]map[string]string
}

// metaFlags are the top-level `_meta` keys compared as a whole.
var metaFlags = []string{"is_mcp_tool_call", "terminal_info"}

// apply filters u in place and reports whether it still carries
// something.
func (f *metaFilter) apply(u *Update) bool {
	if u.SessionUpdate != kindToolCall && u.SessionUpdate != kindToolCallUpdate {
		return true
	}
	if f.sent == nil {
		f.sent = map[string]map[string]string{}
	}
	held, known := f.sent[u.ToolCallID]
	if u.SessionUpdate == kindToolCall || !known {
		held = map[string]string{}
		f.sent[u.ToolCallID] = held
		recordMetaKeys(held, u.Meta, false)
		return true
	}
	if u.Meta == nil {
		return true
	}
	m := recordMetaKeys(held, u.Meta, true)
	u.Meta = m
	probe := *u
	probe.SessionUpdate, probe.ToolCallID = "", ""
	return string(encode(probe)) != `{"sessionUpdate":""}`
}

// recordMetaKeys records the compared keys of m and, with strip, returns
// m without the unchanged ones (nil when nothing is left).
func recordMetaKeys(held map[string]string, m *Meta, strip bool) *Meta {
	if m == nil {
		return nil
	}
	var obj map[string]json.RawMessage
	_ = json.Unmarshal(encode(m), &obj)
	keep := func(key string, v json.RawMessage) bool {
		if strip && held[key] == string(v) {
			return false
		}
		held[key] = string(v)
		return true
	}
	mergeKeys := func(prefix string, raw json.RawMessage) json.RawMessage {
		var sub map[string]json.RawMessage
		if json.Unmarshal(raw, &sub) != nil {
			return raw
		}
		for k, v := range sub {
			if !keep(prefix+k, v) {
				delete(sub, k)
			}
		}
		if len(sub) == 0 {
			return nil
		}
		return encode(sub)
	}
	if cc, ok := obj["claudeCode"]; ok {
		setOrDelete(obj, "claudeCode", mergeKeys("claudeCode.", cc))
	}
	if jb, ok := obj["jetbrains"]; ok {
		var j map[string]json.RawMessage
		if json.Unmarshal(jb, &j) == nil {
			if air, ok := j["air"]; ok {
				setOrDelete(j, "air", mergeKeys("jetbrains.air.", air))
			}
			if len(j) == 0 {
				delete(obj, "jetbrains")
			} else {
				obj["jetbrains"] = encode(j)
			}
		}
	}
	for _, flag := range metaFlags {
		if v, ok := obj[flag]; ok && !keep(flag, v) {
			delete(obj, flag)
		}
	}
	if len(obj) == 0 {
		return nil
	}
	var out Meta
	_ = json.Unmarshal(encode(obj), &out)
	return &out
}

func setOrDelete(obj map[string]json.RawMessage, key string, v json.RawMessage) {
	if v == nil {
		delete(obj, key)
		return
	}
	obj[key] = v
}
