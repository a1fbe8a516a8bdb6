package wirediff

import (
	"fmt"
	"strings"
)

// Session is the messages of one session of a run, in order: on the
// client lane those naming one sessionId (a response belongs to its
// request's session), "connection" for the rest (initialize, auth); each
// CLI process ("cli:1", ...) is one session of its own.
type Session struct {
	Name     string
	Messages []Message
}

// Sessions splits a run's messages by session, in order of first message.
func Sessions(run *Run) []Session {
	var order []string
	by := map[string][]Message{}
	reqSession := map[string]string{}
	for _, m := range run.Messages {
		name := sessionOf(m, reqSession)
		if _, ok := by[name]; !ok {
			order = append(order, name)
		}
		by[name] = append(by[name], m)
	}
	out := make([]Session, len(order))
	for i, name := range order {
		out[i] = Session{Name: name, Messages: by[name]}
	}
	return out
}

// sessionOf names m's session and remembers the session of a request so
// that its response (from the other side, same id) joins it.
func sessionOf(m Message, reqSession map[string]string) string {
	if !isClientLane(m.Tag) {
		return strings.Fields(m.Tag)[0]
	}
	obj, _ := m.Value.(map[string]any)
	params, _ := obj["params"].(map[string]any)
	result, _ := obj["result"].(map[string]any)
	id := fmt.Sprint(obj["id"])
	s, _ := params["sessionId"].(string)
	if s == "" {
		s, _ = result["sessionId"].(string)
	}
	_, isRequest := obj["method"]
	if !isRequest && s == "" {
		s = reqSession[otherSide(m.Tag)+id]
	}
	if isRequest && obj["id"] != nil {
		reqSession[m.Tag+id] = s
	}
	if s == "" {
		return "connection"
	}
	return "session " + s
}

func isClientLane(tag string) bool { return strings.HasPrefix(tag, "client ") }

func otherSide(tag string) string {
	if strings.HasSuffix(tag, "editor->agent") {
		return "client agent->editor"
	}
	return "client editor->agent"
}

// isAIRClient reports whether the run's editor declared AIR in initialize
// (clientCapabilities._meta.jetbrains, "Negotiation").
func isAIRClient(run *Run) bool {
	for _, m := range run.Messages {
		obj, _ := m.Value.(map[string]any)
		if m.Tag != "client editor->agent" || obj["method"] != "initialize" {
			continue
		}
		params, _ := obj["params"].(map[string]any)
		caps, _ := params["clientCapabilities"].(map[string]any)
		meta, _ := caps["_meta"].(map[string]any)
		_, ok := meta["jetbrains"]
		return ok
	}
	return false
}
