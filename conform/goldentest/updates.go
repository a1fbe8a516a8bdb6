package goldentest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// SessionUpdate is the params of one session/update: the session it is
// about and the update as written.
type SessionUpdate struct {
	SessionID string          `json:"sessionId"`
	Update    json.RawMessage `json:"update"`
}

// SessionUpdates are the session/update params of the golden at path, in
// order.
func SessionUpdates(t testing.TB, path string) []SessionUpdate {
	t.Helper()
	var out []SessionUpdate
	for _, msg := range AgentMessages(t, path) {
		var m struct {
			Method string        `json:"method"`
			Params SessionUpdate `json:"params"`
		}
		if json.Unmarshal(msg, &m) == nil && m.Method == "session/update" {
			out = append(out, m.Params)
		}
	}
	return out
}

// ChildLane keeps the updates that child sessions are about, in canonical
// form: every update of a session other than root, and the subagent_*
// announcements and ends on any session.
func ChildLane(t testing.TB, root string, all []SessionUpdate) []string {
	t.Helper()
	return Lane(t, all, func(sessionID, kind string) bool {
		return sessionID != root || strings.HasPrefix(kind, "subagent_")
	})
}

// Lane keeps, in canonical form, the updates for which keep holds, given
// each one's session and sessionUpdate kind.
func Lane(t testing.TB, all []SessionUpdate, keep func(sessionID, kind string) bool) []string {
	t.Helper()
	var out []string
	for _, u := range all {
		var h struct {
			SessionUpdate string `json:"sessionUpdate"`
		}
		_ = json.Unmarshal(u.Update, &h)
		if keep(u.SessionID, h.SessionUpdate) {
			out = append(out, Canon(t, u))
		}
	}
	return out
}

// LineDiff is empty when got and want are equal, else a report of their
// lengths and of each row that differs (the first ten), for a test's error.
func LineDiff(what string, got, want []string) string {
	if slices.Equal(got, want) {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: got %d, want %d", what, len(got), len(want))
	shown := 0
	for i := 0; i < max(len(got), len(want)) && shown < 10; i++ {
		g, w := "<none>", "<none>"
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			fmt.Fprintf(&b, "\n  #%d\n   got  %s\n   want %s", i+1, g, w)
			shown++
		}
	}
	return b.String()
}

// CompareLines fails the test with LineDiff's report when got and want
// differ.
func CompareLines(t testing.TB, what string, got, want []string) {
	t.Helper()
	if d := LineDiff(what, got, want); d != "" {
		t.Error(d)
	}
}
