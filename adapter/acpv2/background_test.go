package acpv2

import (
	"encoding/json"
	"testing"
)

func compact(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// A session that reports no list gets no `background` key; one that does
// gets its list on each state, and a child it announces its own list,
// empty until reported, on the parent's mirror and on its own stream.
func TestBackgroundStampsOnlyReportingSessions(t *testing.T) {
	var b Background
	if got := compact(t, b.Stamp("s", State("running"))); got != `{"sessionUpdate":"state_update","state":"running"}` {
		t.Errorf("unreported state = %s", got)
	}
	announce := object{"sessionUpdate": "subagent_update", "sessionId": "c", "state": object{"state": "running"}}
	if got := compact(t, b.Stamp("s", announce)); got != `{"sessionId":"c","sessionUpdate":"subagent_update","state":{"state":"running"}}` {
		t.Errorf("child of an unreported session = %s", got)
	}
	b.Changed(Report{SessionID: "s"})
	if got := compact(t, b.Stamp("s", State("running"))); got != `{"background":[],"sessionUpdate":"state_update","state":"running"}` {
		t.Errorf("reported state = %s", got)
	}
	if got := compact(t, b.Stamp("s", announce)); got != `{"sessionId":"c","sessionUpdate":"subagent_update","state":{"background":[],"state":"running"}}` {
		t.Errorf("announced child = %s", got)
	}
	if got := compact(t, b.Stamp("c", State("running"))); got != `{"background":[],"sessionUpdate":"state_update","state":"running"}` {
		t.Errorf("child's own state = %s", got)
	}
	if _, stamped := announce["state"].(object)["background"]; stamped {
		t.Error("Stamp changed the update it was given")
	}
}

// A changed list repeats the session's state without a stop reason, once
// a state carried the list; an unchanged one repeats nothing. A child's
// goes to its parent's mirror first.
func TestBackgroundChangedRepeatsState(t *testing.T) {
	var b Background
	sub := []Item{{"type": "subagent", "sessionId": "c"}}
	if got := b.Changed(Report{SessionID: "s", State: "running"}); got != nil {
		t.Errorf("first list = %v, want none", got)
	}
	if got := b.Changed(Report{SessionID: "s", Items: sub, State: "running"}); got != nil {
		t.Errorf("list before any state carried one = %v, want none", got)
	}
	b.Stamp("s", Idle(json.RawMessage(`{"stopReason":"end_turn"}`)))
	if got := b.Changed(Report{SessionID: "s", Items: sub, State: "idle"}); got != nil {
		t.Errorf("unchanged list = %v, want none", got)
	}
	got := compact(t, b.Changed(Report{SessionID: "s", State: "idle"}))
	if want := `[{"SessionID":"s","Update":{"sessionUpdate":"state_update","state":"idle"}}]`; got != want {
		t.Errorf("changed list = %s, want %s", got, want)
	}
	if got := compact(t, b.Stamp("s", State("idle"))); got != `{"background":[],"sessionUpdate":"state_update","state":"idle"}` {
		t.Errorf("state after the change = %s", got)
	}
	b.Stamp("s", object{"sessionUpdate": "subagent_update", "sessionId": "c", "state": object{"state": "running"}})
	b.Stamp("c", State("running"))
	got = compact(t, b.Changed(Report{SessionID: "c", Parent: "s", Items: []Item{{"type": "terminal", "terminalId": "x"}}, State: "running"}))
	want := `[{"SessionID":"s","Update":{"sessionId":"c","sessionUpdate":"subagent_update","state":{"state":"running"}}},` +
		`{"SessionID":"c","Update":{"sessionUpdate":"state_update","state":"running"}}]`
	if got != want {
		t.Errorf("child's changed list = %s, want %s", got, want)
	}
}

// Forget drops a session's list and its children's: their states carry
// none after.
func TestBackgroundForget(t *testing.T) {
	var b Background
	b.Changed(Report{SessionID: "s"})
	b.Stamp("s", object{"sessionUpdate": "subagent_update", "sessionId": "c"})
	b.Forget("s")
	for _, id := range []string{"s", "c"} {
		if b.Reports(id) {
			t.Errorf("%s still reports a list", id)
		}
		if _, ok := b.Stamp(id, State("idle"))["background"]; ok {
			t.Errorf("%s's state still carries a list", id)
		}
	}
}
