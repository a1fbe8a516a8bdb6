package acpv2

import (
	"encoding/json"
	"testing"
)

func mapOne(t *testing.T, u *Updates, update string) string {
	t.Helper()
	out, err := u.Map("s", json.RawMessage(update))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(out)
	return string(raw)
}

// Tool call reports become v2 upserts: null fields left out, the name from
// the first toolName, `_meta` only with the keys a report changes (a key
// the client stores and the report drops is cleared), and a second
// tool_call of an id the client holds resets each field it leaves out.
func TestToolCallReports(t *testing.T) {
	var u Updates
	steps := []struct{ in, want string }{
		{`{"sessionUpdate":"tool_call","toolCallId":"a","title":"ls","status":"pending","rawOutput":null,"_meta":{"claudeCode":{"toolName":"Bash"},"x":1}}`,
			`[{"_meta":{"x":1},"name":"Bash","sessionUpdate":"tool_call_update","status":"pending","title":"ls","toolCallId":"a"}]`},
		{`{"sessionUpdate":"tool_call_update","toolCallId":"a","status":"completed","_meta":{"claudeCode":{"toolName":"Bash"},"x":1}}`,
			`[{"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"a"}]`},
		{`{"sessionUpdate":"tool_call_update","toolCallId":"a","_meta":{"claudeCode":{"toolName":"Bash"},"x":1}}`, `null`},
		{`{"sessionUpdate":"tool_call_update","toolCallId":"a","_meta":{"x":null,"y":2}}`,
			`[{"_meta":{"x":null,"y":2},"sessionUpdate":"tool_call_update","toolCallId":"a"}]`},
		{`{"sessionUpdate":"tool_call","toolCallId":"a","title":"ls"}`,
			`[{"_meta":{"y":null},"content":null,"kind":null,"locations":null,"name":null,"rawInput":null,"rawOutput":null,"sessionUpdate":"tool_call_update","status":null,"title":"ls","toolCallId":"a"}]`},
	}
	for i, s := range steps {
		if got := mapOne(t, &u, s.in); got != s.want {
			t.Errorf("step %d:\n got %s\nwant %s", i, got, s.want)
		}
	}
	got := mapOne(t, &u, `{"sessionUpdate":"tool_call","toolCallId":"b","content":[{"type":"diff","path":"/a","oldText":null,"newText":"x"},{"type":"diff","path":"/b","oldText":"a","newText":"b"}]}`)
	want := `[{"content":[{"changes":[{"fileType":"text","operation":"add","path":"/a"}],"type":"diff"},{"changes":[{"fileType":"text","operation":"modify","path":"/b"}],"type":"diff"}],"sessionUpdate":"tool_call_update","toolCallId":"b"}]`
	if got != want {
		t.Errorf("v1 diffs:\n got %s\nwant %s", got, want)
	}
}

// Chunks need a messageId; a plan is the session's plan of items; a mode
// change has no v2 update; during a replay each message is cleared before
// its first chunk.
func TestSessionUpdates(t *testing.T) {
	var u Updates
	if _, err := u.Map("s", json.RawMessage(`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}`)); err == nil {
		t.Error("a chunk without messageId was mapped")
	}
	if got := mapOne(t, &u, `{"sessionUpdate":"plan","entries":[]}`); got != `[{"plan":{"entries":[],"planId":"plan","type":"items"},"sessionUpdate":"plan_update"}]` {
		t.Errorf("plan: %s", got)
	}
	v2 := `[{"configOptions":[{"configId":"mode","options":[{"groupId":"g","options":[]}],"type":"select"}],"sessionUpdate":"config_option_update"}]`
	for _, in := range []string{`{"sessionUpdate":"config_option_update","configOptions":[{"id":"mode","type":"select","options":[{"group":"g","options":[]}]}]}`, v2[1 : len(v2)-1]} {
		if got := mapOne(t, &u, in); got != v2 {
			t.Errorf("config options %s: %s", in, got)
		}
	}
	if got := mapOne(t, &u, `{"sessionUpdate":"current_mode_update","currentModeId":"plan"}`); got != `null` {
		t.Errorf("mode update: %s", got)
	}
	u.Replaying("s", true)
	chunk := `{"content":{"text":"x","type":"text"},"messageId":"m","sessionUpdate":"agent_message_chunk"}`
	if got := mapOne(t, &u, chunk); got != `[{"content":[],"messageId":"m","sessionUpdate":"agent_message"},`+chunk+`]` {
		t.Errorf("first replayed chunk: %s", got)
	}
	if got := mapOne(t, &u, chunk); got != `[`+chunk+`]` {
		t.Errorf("second replayed chunk: %s", got)
	}
}

// The v2 initialize answer: info, v2's session capabilities, tagged auth
// methods, and no unserved extension.
func TestInitializeResponse(t *testing.T) {
	v1 := `{"protocolVersion":1,"agentInfo":{"name":"a"},"agentCapabilities":{"_meta":{"k":1}},
		"authMethods":[{"id":"t","type":"terminal","name":"T","env":{"A":"1"}},{"id":"g","name":"G"}],
		"_meta":{"steering":{},"jetbrains":{"air":{"goal":{},"capabilities":["asyncTasks","x"]}}}}`
	raw, err := InitializeResponse(json.RawMessage(v1))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		ProtocolVersion int
		Info            map[string]any
		Capabilities    struct {
			Session map[string]any
			Meta    map[string]any `json:"_meta"`
		}
		AuthMethods []map[string]any
		Meta        map[string]any `json:"_meta"`
	}
	_ = json.Unmarshal(raw, &r)
	air, _ := json.Marshal(r.Meta)
	auth, _ := json.Marshal(r.AuthMethods)
	if r.ProtocolVersion != 2 || r.Info["name"] != "a" || r.Capabilities.Session["fork"] == nil || r.Capabilities.Meta["k"] == nil ||
		string(air) != `{"jetbrains":{"air":{"capabilities":["x"]}}}` ||
		string(auth) != `[{"env":[{"name":"A","value":"1"}],"methodId":"t","name":"T","type":"terminal"},{"methodId":"g","name":"G","type":"agent"}]` {
		t.Errorf("v2 initialize answer %s", raw)
	}
}

// A v2 client's capabilities as the v1 declaration they mean.
func TestV1ClientCapabilities(t *testing.T) {
	var p InitializeParams
	_ = json.Unmarshal([]byte(`{"protocolVersion":2,"capabilities":{"auth":{"terminal":{}},"elicitation":{"form":{}}}}`), &p)
	want := `{"auth":{"terminal":true},"elicitation":{"form":{}},"fs":{"readTextFile":false,"writeTextFile":false},` +
		`"plan":{},"session":{"compaction":{},"configOptions":{"boolean":{}},"notices":{}},"subagents":{},"terminal":false}`
	if got := string(p.V1ClientCapabilities(true)); got != want {
		t.Errorf("served v2:\n got %s\nwant %s", got, want)
	}
	down := `{"auth":{"terminal":true},"elicitation":{"form":{}},"fs":{"readTextFile":false,"writeTextFile":false},` +
		`"plan":{},"session":{"configOptions":{"boolean":{}}},"terminal":false}`
	if got := string(p.V1ClientCapabilities(false)); got != down {
		t.Errorf("negotiated down:\n got %s\nwant %s", got, down)
	}
}

// A replayed tool_call the connection did not report clears what the
// client may hold from before: every field it leaves out and its `_meta`,
// whose current keys follow in a second update.
func TestReplayedToolCall(t *testing.T) {
	var u Updates
	u.Replaying("s", true)
	got := mapOne(t, &u, `{"sessionUpdate":"tool_call","toolCallId":"a","title":"ls","_meta":{"x":1}}`)
	want := `[{"_meta":null,"content":null,"kind":null,"locations":null,"name":null,"rawInput":null,"rawOutput":null,` +
		`"sessionUpdate":"tool_call_update","status":null,"title":"ls","toolCallId":"a"},{"_meta":{"x":1},"sessionUpdate":"tool_call_update","toolCallId":"a"}]`
	if got != want {
		t.Errorf("replayed tool_call:\n got %s\nwant %s", got, want)
	}
}

// A command's terminal keys become terminal updates before the report;
// an output report carrying nothing else goes as the terminal update alone.
func TestTerminalUpdates(t *testing.T) {
	var u Updates
	steps := []struct{ in, want string }{
		{`{"sessionUpdate":"tool_call","toolCallId":"a","rawInput":{},"_meta":{"terminal_info":{"terminal_id":"a"}}}`,
			`[{"sessionUpdate":"terminal_update","terminalId":"a"},{"rawInput":{},"sessionUpdate":"tool_call_update","toolCallId":"a"}]`},
		{`{"sessionUpdate":"tool_call_update","toolCallId":"a","rawInput":{"command":"ls"}}`,
			`[{"command":"ls","sessionUpdate":"terminal_update","terminalId":"a"},{"rawInput":{"command":"ls"},"sessionUpdate":"tool_call_update","toolCallId":"a"}]`},
		{`{"sessionUpdate":"tool_call_update","toolCallId":"a","_meta":{"terminal_output":{"data":"hi"}}}`,
			`[{"output":{"data":"aGk="},"sessionUpdate":"terminal_update","terminalId":"a"}]`},
		{`{"sessionUpdate":"tool_call_update","toolCallId":"a","status":"completed","_meta":{"terminal_exit":{"exit_code":0,"signal":null}}}`,
			`[{"exitStatus":{"exitCode":0},"sessionUpdate":"terminal_update","terminalId":"a"},{"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"a"}]`},
	}
	for i, s := range steps {
		if got := mapOne(t, &u, s.in); got != s.want {
			t.Errorf("step %d:\n got %s\nwant %s", i, got, s.want)
		}
	}
}

// A subagent's work state also goes to the child's own stream, but not
// while its parent replays.
func TestChildState(t *testing.T) {
	var u Updates
	up := object{"sessionUpdate": "subagent_update", "sessionId": "child", "state": object{"state": "idle", "stopReason": "end_turn"}}
	id, state, ok := u.ChildState("root", up)
	raw, _ := json.Marshal(state)
	if !ok || id != "child" || string(raw) != `{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}` {
		t.Errorf("ChildState = %q %s %v", id, raw, ok)
	}
	u.Replaying("root", true)
	if _, _, ok := u.ChildState("root", up); ok {
		t.Error("a replayed child state went to the child's stream")
	}
	if !u.InReplay("child") || u.InReplay("other") {
		t.Errorf("InReplay(child) = %v, InReplay(other) = %v: want the announced child in its root's replay, no other", u.InReplay("child"), u.InReplay("other"))
	}
	running := object{"sessionUpdate": "subagent_update", "sessionId": "child", "state": object{"state": "running"}}
	u.ChildState("root", running)
	u.ChildState("root", up)
	held := u.Replaying("root", false)
	raw, _ = json.Marshal(held)
	if len(held) != 1 || held[0].SessionID != "child" || string(raw) != `[{"SessionID":"child","Update":{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}}]` {
		t.Errorf("the replay's end sent %s, want the child's last replayed state on its own stream, once", raw)
	}
	if u.InReplay("child") {
		t.Error("the child is still in a replay after its root's replay ended")
	}
	if held := u.Replaying("root", false); len(held) != 0 {
		t.Errorf("a second end of the replay sent %v again", held)
	}
}

// ChunkAsIs is true exactly when Map sends the chunk alone and unchanged.
func TestChunkAsIsAgreesWithMap(t *testing.T) {
	var u Updates
	chunk := func(kind, id string) string {
		c := `{"content":{"text":"x","type":"text"},`
		if id != "" {
			c += `"messageId":"` + id + `",`
		}
		return c + `"sessionUpdate":"` + kind + `"}`
	}
	check := func(step, kind, id string) {
		t.Helper()
		asIs := u.ChunkAsIs("s", kind, id)
		out, err := u.Map("s", json.RawMessage(chunk(kind, id)))
		got, _ := json.Marshal(out)
		unchanged := err == nil && string(got) == "["+chunk(kind, id)+"]"
		if asIs != unchanged {
			t.Errorf("%s: ChunkAsIs = %v, Map gave %s (err %v)", step, asIs, got, err)
		}
	}
	check("no message id", "agent_message_chunk", "")
	check("live chunk", "agent_message_chunk", "m")
	u.Replaying("s", true)
	check("first replayed chunk of m", "agent_message_chunk", "m")
	check("second replayed chunk of m", "agent_message_chunk", "m")
	check("first replayed thought of m", "agent_thought_chunk", "m")
	check("first replayed chunk of n", "user_message_chunk", "n")
	u.Replaying("s", false)
	check("after the replay", "agent_message_chunk", "o")
}
