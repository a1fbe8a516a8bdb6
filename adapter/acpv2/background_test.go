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
	b.Changed(Report{SessionID: "s"}, nil)
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
	if got := b.Changed(Report{SessionID: "s", State: "running"}, nil); got != nil {
		t.Errorf("first list = %v, want none", got)
	}
	if got := b.Changed(Report{SessionID: "s", Items: sub, State: "running"}, nil); got != nil {
		t.Errorf("list before any state carried one = %v, want none", got)
	}
	b.Stamp("s", Idle(json.RawMessage(`{"stopReason":"end_turn"}`)))
	if got := b.Changed(Report{SessionID: "s", Items: sub, State: "idle"}, nil); got != nil {
		t.Errorf("unchanged list = %v, want none", got)
	}
	got := compact(t, b.Changed(Report{SessionID: "s", State: "idle"}, nil))
	if want := `[{"SessionID":"s","Update":{"sessionUpdate":"state_update","state":"idle"}}]`; got != want {
		t.Errorf("changed list = %s, want %s", got, want)
	}
	if got := compact(t, b.Stamp("s", State("idle"))); got != `{"background":[],"sessionUpdate":"state_update","state":"idle"}` {
		t.Errorf("state after the change = %s", got)
	}
	b.Stamp("s", object{"sessionUpdate": "subagent_update", "sessionId": "c", "state": object{"state": "running"}})
	b.Stamp("c", State("running"))
	got = compact(t, b.Changed(Report{SessionID: "c", Parent: "s", Items: []Item{{"type": "terminal", "terminalId": "x"}}, State: "running"}, nil))
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
	b.Changed(Report{SessionID: "s"}, nil)
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

// A terminal a list adds is announced before the list: its terminal_update
// lets the client cancel it, once; its exit then withdraws the capability.
func TestBackgroundTerminalCancel(t *testing.T) {
	var u Updates
	if _, err := u.Map("s", json.RawMessage(`{"sessionUpdate":"tool_call","toolCallId":"toolu_bash","rawInput":{"command":"sleep 8"},"_meta":{"terminal_info":{"terminal_id":"toolu_bash"}}}`)); err != nil {
		t.Fatal(err)
	}
	var b Background
	b.Changed(Report{SessionID: "s"}, nil)
	b.Stamp("s", State("running"))
	advertise := func(it Item) (object, bool) {
		id, _ := it["terminalId"].(string)
		return u.AdvertiseCancel("s", id, false)
	}
	term := []Item{{"type": "terminal", "terminalId": "toolu_bash"}}
	got := compact(t, b.Changed(Report{SessionID: "s", Items: term, State: "running"}, advertise))
	want := `[{"SessionID":"s","Update":{"capabilities":{"cancel":{}},"command":"sleep 8","sessionUpdate":"terminal_update","terminalId":"toolu_bash"}},` +
		`{"SessionID":"s","Update":{"sessionUpdate":"state_update","state":"running"}}]`
	if got != want {
		t.Errorf("a list that adds a terminal:\n got %s\nwant %s", got, want)
	}
	if got := b.Changed(Report{SessionID: "s", Items: term, State: "idle"}, advertise); got != nil {
		t.Errorf("the same list again = %v", got)
	}
	if _, ok := u.AdvertiseCancel("s", "toolu_other", false); ok {
		t.Error("a terminal that does not run was advertised")
	}
	exit, err := u.Map("s", json.RawMessage(`{"sessionUpdate":"tool_call_update","toolCallId":"toolu_bash","_meta":{"terminal_exit":{"terminal_id":"toolu_bash","exit_code":null,"signal":null}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := compact(t, exit); got != `[{"capabilities":null,"exitStatus":{},"sessionUpdate":"terminal_update","terminalId":"toolu_bash"}]` {
		t.Errorf("the exit of a cancellable terminal = %s", got)
	}
}
