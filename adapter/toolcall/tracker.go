package toolcall

import "encoding/json"

// Tracker remembers what the client holds for each open tool call, so
// that a `tool_call_update` carries only the top-level fields that changed
// since the previous report of that tool call, and an update with nothing
// new is not sent. It keeps `_meta` whole: a client that is not AIR gets
// every `_meta` key on every update (contract: "Compatibility rule", "Tool
// call contract").
//
// An entry starts at the `tool_call` and ends after both the tool_result
// and the PostToolUse hook (Session.Reset drops them all).
type Tracker struct {
	calls map[string]*trackedCall
}

type trackedCall struct {
	fields     map[string]string
	meta       map[string]string
	resultSeen bool
	// pinned: the content is an exact approval patch that only the
	// tool's final change replaces.
	pinned bool
}

// replacedField is a top-level field that a client overwrites when an
// update carries it.
type replacedField struct {
	name string
	get  func(*Update) (any, bool)
	drop func(*Update)
}

var replacedFields = []replacedField{
	{"status", func(u *Update) (any, bool) { return u.Status, u.Status != "" }, func(u *Update) { u.Status = "" }},
	{"title", func(u *Update) (any, bool) { return u.Title, u.Title != nil }, func(u *Update) { u.Title = nil }},
	{"kind", func(u *Update) (any, bool) { return u.Kind, u.Kind != "" }, func(u *Update) { u.Kind = "" }},
	{"content", func(u *Update) (any, bool) { return u.Content, u.Content != nil }, func(u *Update) { u.Content = nil }},
	{"locations", func(u *Update) (any, bool) { return u.Locations, u.Locations != nil }, func(u *Update) { u.Locations = nil }},
	{"rawInput", func(u *Update) (any, bool) { return u.RawInput, len(u.RawInput) > 0 }, func(u *Update) { u.RawInput = nil }},
	{"rawOutput", func(u *Update) (any, bool) { return u.RawOutput, len(u.RawOutput) > 0 }, func(u *Update) { u.RawOutput = nil }},
}

// Apply records a `tool_call`, or removes the unchanged fields of a
// `tool_call_update` and records the rest. It returns false when the
// update carries nothing new; the caller then does not send it. An update
// of a tool call the tracker does not know passes unchanged.
func (t *Tracker) Apply(u *Update) bool {
	if u.SessionUpdate == kindToolCall {
		c := &trackedCall{fields: map[string]string{}, meta: map[string]string{}}
		if t.calls == nil {
			t.calls = map[string]*trackedCall{}
		}
		t.calls[u.ToolCallID] = c
		for _, f := range replacedFields {
			if v, ok := f.get(u); ok {
				c.fields[f.name] = string(encode(v))
			}
		}
		c.recordMeta(u.Meta)
		return true
	}
	c := t.calls[u.ToolCallID]
	if u.SessionUpdate != kindToolCallUpdate || c == nil {
		return true
	}
	changed := false
	for _, f := range replacedFields {
		v, ok := f.get(u)
		if !ok {
			continue
		}
		if f.name == "content" && c.pinned && !u.final {
			f.drop(u)
			continue
		}
		if f.name == "content" && u.final {
			c.pinned = false
		}
		j := string(encode(v))
		if c.fields[f.name] == j {
			f.drop(u)
			continue
		}
		c.fields[f.name] = j
		changed = true
	}
	if m := u.Meta; m != nil && (m.TerminalInfo != nil || m.TerminalOutput != nil || m.TerminalOutputDelta != nil ||
		m.TerminalExit != nil || m.IsMCPToolCall) {
		changed = true
	}
	if c.recordMeta(u.Meta) {
		changed = true
	}
	return changed
}

// recordMeta records the `claudeCode` and `jetbrains.air` keys, which a
// client merges by key, and reports whether one changed.
func (c *trackedCall) recordMeta(m *Meta) bool {
	if m == nil {
		return false
	}
	changed := false
	record := func(prefix string, v any) {
		var keys map[string]json.RawMessage
		_ = json.Unmarshal(encode(v), &keys)
		for k, v := range keys {
			if c.meta[prefix+k] != string(v) {
				c.meta[prefix+k] = string(v)
				changed = true
			}
		}
	}
	if m.ClaudeCode != nil {
		record("", m.ClaudeCode)
	}
	if m.JetBrains != nil && m.JetBrains.AIR != nil {
		record("jetbrains.air.", m.JetBrains.AIR)
	}
	return changed
}

// Pin records content as what the client shows for a tool call: the
// exact approval patch of a permission request. Only a final change
// (Update.final, the PostToolUse hook) replaces it.
func (t *Tracker) Pin(id string, content []Content) {
	c := t.calls[id]
	if c == nil {
		return
	}
	c.fields["content"] = string(encode(list(content...)))
	c.pinned = true
}

// FinishResult marks the tool_result of a tool call. The entry ends now,
// or after the PostToolUse hook when hookPending.
func (t *Tracker) FinishResult(id string, hookPending bool) {
	c := t.calls[id]
	switch {
	case c == nil:
	case hookPending:
		c.resultSeen = true
	default:
		delete(t.calls, id)
	}
}

// FinishHook marks the end of the PostToolUse hook of a tool call; the
// entry ends when its tool_result was seen.
func (t *Tracker) FinishHook(id string) {
	if c := t.calls[id]; c != nil && c.resultSeen {
		delete(t.calls, id)
	}
}
