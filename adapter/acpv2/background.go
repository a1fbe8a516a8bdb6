package acpv2

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Item is one entry of a session's `background` list: work that runs on
// independently of the session's foreground work, such as a subagent
// session working in the background ({"type":"subagent","sessionId":…}).
type Item = object

// Report is a session's current `background` list, with the session's work
// state now (running, requires_action, idle; "" when unknown) and, for a
// subagent session, the session that announced it.
type Report struct {
	SessionID string
	Items     []Item
	State     string
	Parent    string
}

// Notification is a `session/update` to send: an update of a session.
type Notification struct {
	SessionID string
	Update    object
}

// Background keeps the `background` list of each session that reports
// one (the v2 prompt lifecycle, "Background work"), and stamps it on the
// session's states: a `state_update` of such a session carries its list,
// and a `subagent_update` with the state of a child of such a session
// carries the child's own list, empty until one is reported. A session
// that reports no list gets no `background` key at all.
type Background struct {
	mu       sync.Mutex
	sessions map[string]*listed
	// cancellable are the tool calls whose cancel was advertised, as
	// "sessionId toolCallId": their final status withdraws it.
	cancellable map[string]bool
}

type listed struct {
	items    []Item
	reported bool   // a state of the session carried its list
	parent   string // the session that announced this subagent session
}

// Stamp is update of session sessionID with the list it carries.
func (b *Background) Stamp(sessionID string, update object) object {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch update["sessionUpdate"] {
	case "tool_call_update":
		if len(b.cancellable) == 0 || !slices.Contains(finalStatuses, update["status"]) {
			return update
		}
		key := sessionID + " " + fmt.Sprint(update["toolCallId"])
		if !b.cancellable[key] {
			return update
		}
		// A tool call that reached its final status can no longer be cancelled.
		delete(b.cancellable, key)
		out := maps.Clone(update)
		out["capabilities"] = nil
		return out
	case "state_update":
		s := b.sessions[sessionID]
		if s == nil {
			return update
		}
		s.reported = true
		out := maps.Clone(update)
		out["background"] = nonNil(s.items)
		return out
	case "subagent_update":
		child, _ := update["sessionId"].(string)
		if b.sessions[sessionID] == nil || child == "" {
			return update
		}
		c := b.sessions[child]
		if c == nil {
			c = &listed{parent: sessionID}
			b.sessions[child] = c
		}
		state, _ := update["state"].(object)
		if state == nil {
			return update
		}
		state = maps.Clone(state)
		state["background"] = nonNil(c.items)
		out := maps.Clone(update)
		out["state"] = state
		return out
	}
	return update
}

// finalStatuses are the tool call statuses after which nothing runs.
var finalStatuses = []any{"completed", "failed", "cancelled"}

// Changed records r, a session's list now, and returns what reports a
// change: first, for each terminal or tool call the list adds, the update
// that lets the client cancel it (v2 announces an item before the first
// list that names it; advertise makes a terminal's); then, once a
// state of the session carried a list, its state again with the new list
// and no stop reason (a repeated idle is no new completion), a subagent's
// mirrored on its parent first, as its other states are. The first list
// of a session only starts its reporting.
func (b *Background) Changed(r Report, advertise func(Item) (object, bool)) []Notification {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sessions == nil {
		b.sessions = map[string]*listed{}
	}
	s := b.sessions[r.SessionID]
	if s == nil {
		s = &listed{}
		b.sessions[r.SessionID] = s
	}
	var out []Notification
	for _, it := range r.Items {
		if slices.ContainsFunc(s.items, func(old Item) bool { return reflect.DeepEqual(old, it) }) {
			continue
		}
		if up, ok := b.advertise(r.SessionID, it, advertise, false); ok {
			out = append(out, Notification{r.SessionID, up})
		}
	}
	unchanged := reflect.DeepEqual(nonNil(s.items), nonNil(r.Items))
	s.items = r.Items
	if r.Parent != "" {
		s.parent = r.Parent
	}
	if !s.reported || r.State == "" || unchanged {
		return out
	}
	if r.Parent != "" {
		out = append(out, Notification{r.Parent, object{"sessionUpdate": "subagent_update", "sessionId": r.SessionID,
			"state": object{"state": r.State}}})
	}
	return append(out, Notification{r.SessionID, State(r.State)})
}

// advertise is the update that lets the client cancel item it, a
// terminal (by terminal) or a tool call, once, or again.
func (b *Background) advertise(sessionID string, it Item, terminal func(Item) (object, bool), again bool) (object, bool) {
	if it["type"] == "terminal" && terminal != nil {
		return terminal(it)
	}
	if it["type"] != "tool_call" {
		return nil, false
	}
	key := sessionID + " " + fmt.Sprint(it["toolCallId"])
	if b.cancellable[key] && !again {
		return nil, false
	}
	if b.cancellable == nil {
		b.cancellable = map[string]bool{}
	}
	b.cancellable[key] = true
	return object{"sessionUpdate": "tool_call_update", "toolCallId": it["toolCallId"], "capabilities": object{"cancel": object{}}}, true
}

// Current is what a client that resumes session sessionID is told of
// each item of its list: the update that lets it cancel the item, again
// (terminal makes a terminal's).
func (b *Background) Current(sessionID string, terminal func(Item) (object, bool)) []Notification {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []Notification
	if s := b.sessions[sessionID]; s != nil {
		for _, it := range s.items {
			if up, ok := b.advertise(sessionID, it, terminal, true); ok {
				out = append(out, Notification{sessionID, up})
			}
		}
	}
	return out
}

// ToolCalls are the tool calls the list of session sessionID holds.
func (b *Background) ToolCalls(sessionID string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	if s := b.sessions[sessionID]; s != nil {
		for _, it := range s.items {
			if id, ok := it["toolCallId"].(string); ok && it["type"] == "tool_call" {
				out = append(out, id)
			}
		}
	}
	return out
}

// Reports tells whether session sessionID reports a list.
func (b *Background) Reports(sessionID string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sessions[sessionID] != nil
}

// Forget drops the list of session sessionID, and those of its subagent
// sessions.
func (b *Background) Forget(sessionID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.forget(sessionID)
}

func (b *Background) forget(sessionID string) {
	delete(b.sessions, sessionID)
	for key := range b.cancellable {
		if strings.HasPrefix(key, sessionID+" ") {
			delete(b.cancellable, key)
		}
	}
	for id, s := range b.sessions {
		if s.parent == sessionID {
			b.forget(id)
		}
	}
}

func nonNil(items []Item) []Item {
	if items == nil {
		return []Item{}
	}
	return items
}
