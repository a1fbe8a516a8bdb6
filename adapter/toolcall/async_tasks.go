package toolcall

import "encoding/json"

// backgroundedMarker is `_meta.jetbrains.air.asyncTasks` of a backgrounded
// Bash call (contract: "Async tasks", "AIR metadata keys").
// airVersion is the `version` beside every AIR payload ("AIR metadata keys").
const airVersion = 1

var backgroundedMarker = json.RawMessage(`{"backgrounded":true}`)

// MarkBackgrounded names the Bash calls of the next user frame whose
// command went on in the background: their result update carries the
// backgrounded marker. The caller decides from structured data only and
// only for a client with the `asyncTasks` capability.
func (s *Session) MarkBackgrounded(ids []string) {
	if len(ids) == 0 {
		return
	}
	if s.backgrounded == nil {
		s.backgrounded = map[string]bool{}
	}
	for _, id := range ids {
		s.backgrounded[id] = true
	}
}

// markBackgrounded puts the marker on the first tool_call_update of id's
// result, with `version: 1` beside it. The AIR `_meta` key filter leaves out
// what an earlier report sent unchanged (the version, usually), and the
// later updates of the same result would repeat the marker unchanged.
func (s *Session) markBackgrounded(id string, updates []Update) {
	if !s.backgrounded[id] {
		return
	}
	delete(s.backgrounded, id)
	for i := range updates {
		u := &updates[i]
		if u.SessionUpdate != kindToolCallUpdate || u.ToolCallID != id {
			continue
		}
		if u.Meta == nil {
			u.Meta = &Meta{}
		}
		if u.Meta.JetBrains == nil {
			u.Meta.JetBrains = &JetBrains{}
		}
		if u.Meta.JetBrains.AIR == nil {
			u.Meta.JetBrains.AIR = &AIRMeta{}
		}
		u.Meta.JetBrains.AIR.Version = airVersion
		u.Meta.JetBrains.AIR.AsyncTasks = backgroundedMarker
		return
	}
}
