package adapter

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/adapter/acpv2"
	"github.com/airwire/airwire/adapter/turns"
)

// A v2 client is driven against the test CLI (fault_test.go), which echoes
// each prompt as Claude Code does (ADAPTER_TEST_CLI_ECHO), so that the
// prompt is taken in at its echo.

// openV2Session initializes as a v2 client and opens a session; it returns
// the session id and the session/new answer.
func (e *editor) openV2Session() (string, map[string]any) {
	e.t.Helper()
	e.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"t","version":"1"},"capabilities":{}}}`)
	init := e.reply(0)
	if res, _ := init["result"].(map[string]any); res["protocolVersion"] != float64(2) || res["info"] == nil {
		e.t.Fatalf("initialize = %v, want a v2 answer", init)
	}
	e.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + e.t.TempDir() + `"}}`)
	r := e.reply(1)
	res, _ := r["result"].(map[string]any)
	id, _ := res["sessionId"].(string)
	if id == "" {
		e.t.Fatalf("session/new = %v", r)
	}
	return id, res
}

// v2Wire is what a v2 client saw: each message as a short event, in order.
type v2Wire []string

// until reads messages, answering each permission request with answer (when
// set), until stop says the last one ends what the test watches.
func (e *editor) until(stop func(map[string]any) bool, answer func(map[string]any)) (v2Wire, []map[string]any) {
	e.t.Helper()
	var wire v2Wire
	var all []map[string]any
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-e.lines:
			if !ok {
				e.t.Fatalf("agent output ended; saw %q", wire)
			}
			all = append(all, m)
			wire = append(wire, v2Event(m))
			if m["method"] == "session/request_permission" && answer != nil {
				answer(m)
			}
			if stop(m) {
				return wire, all
			}
		case <-timeout:
			e.t.Fatalf("timed out; saw %q", wire)
		}
	}
}

// v2Event names a message: a response by its id, a state_update by its
// state (and stop reason), another update by its kind, a request by its
// method.
func v2Event(m map[string]any) string {
	if m["method"] == nil {
		if m["error"] != nil {
			return fmt.Sprintf("error %v", m["id"])
		}
		return fmt.Sprintf("response %v", m["id"])
	}
	params, _ := m["params"].(map[string]any)
	u, _ := params["update"].(map[string]any)
	if m["method"] != "session/update" {
		return m["method"].(string)
	}
	if u["sessionUpdate"] == "state_update" {
		if r, ok := u["stopReason"]; ok {
			return fmt.Sprintf("state %v %v", u["state"], r)
		}
		return fmt.Sprintf("state %v", u["state"])
	}
	return u["sessionUpdate"].(string)
}

func isIdle(m map[string]any) bool {
	return slices.Contains([]string{"state idle end_turn", "state idle cancelled"}, v2Event(m))
}

func (w v2Wire) index(event string) int { return slices.Index(w, event) }

// only keeps the events of kinds.
func (w v2Wire) only(kinds ...string) v2Wire {
	var out v2Wire
	for _, e := range w {
		for _, k := range kinds {
			if len(e) >= len(k) && e[:len(k)] == k {
				out = append(out, e)
				break
			}
		}
	}
	return out
}

func startV2Agent(t *testing.T, mode string) (*editor, string) {
	t.Setenv("ADAPTER_TEST_CLI_ECHO", "1")
	e := startAgent(t, mode)
	sid, _ := e.openV2Session()
	return e, sid
}

func (e *editor) promptV2(id int, sid string) {
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"hi"}]}}`, id, sid))
}

// A v2 prompt is answered when Claude Code takes it in (its echo), with the
// id of the user message it became, before the turn's output; the turn's
// progress and end are state_updates: running, then idle with the stop
// reason and usage.
// A prompt is inserted when Claude Code's command_lifecycle says it
// started, before its echo: a compaction that runs at the prompt's start
// follows its user_message, its answer and the running state.
func TestV2PromptInsertedAtCommandStart(t *testing.T) {
	e, sid := startV2Agent(t, "compact-at-start")
	e.promptV2(2, sid)
	wire, _ := e.until(isIdle, nil)
	want := v2Wire{"user_message", "response 2", "state running", "compaction_update", "agent_message_chunk", "compaction_update", "state idle end_turn"}
	if got := wire.only("user_message", "response", "state", "compaction_update", "agent_message_chunk"); !slices.Equal(got, want) {
		t.Fatalf("v2 wire %q, want %q", got, want)
	}
}

func TestV2PromptAnsweredAtInsertion(t *testing.T) {
	e, sid := startV2Agent(t, "text")
	e.promptV2(2, sid)
	wire, all := e.until(isIdle, nil)
	want := v2Wire{"user_message", "response 2", "state running", "agent_message_chunk", "state idle end_turn"}
	if got := wire.only("user_message", "response", "state", "agent_message_chunk"); !slices.Equal(got, want) {
		t.Fatalf("v2 wire %q, want %q", got, want)
	}
	var answer, message, chunk, idle map[string]any
	for _, m := range all {
		params, _ := m["params"].(map[string]any)
		u, _ := params["update"].(map[string]any)
		switch v2Event(m) {
		case "response 2":
			answer, _ = m["result"].(map[string]any)
		case "user_message":
			message = u
		case "agent_message_chunk":
			chunk = u
		case "state idle end_turn":
			idle = u
		}
	}
	if answer["messageId"] == nil || answer["messageId"] != message["messageId"] {
		t.Errorf("prompt answer %v, user_message %v: want the same messageId", answer, message)
	}
	if chunk["messageId"] != "msg_1" {
		t.Errorf("chunk %v: want messageId msg_1", chunk)
	}
	if idle["usage"] == nil {
		t.Errorf("idle %v: want the turn's usage", idle)
	}
}

// A permission request makes the work await the user (requires_action,
// before the request), and its answer makes it run again; the request has
// the v2 shape: its own title, the tool call as its subject.
func TestV2PermissionRequiresActionThenRunning(t *testing.T) {
	e, sid := startV2Agent(t, "ask-then-usage")
	e.promptV2(2, sid)
	var request map[string]any
	wire, _ := e.until(isIdle, func(m map[string]any) {
		request = m
		e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":{"outcome":{"outcome":"selected","optionId":"allow"}}}`, m["id"]))
	})
	want := v2Wire{"response 2", "state running", "state requires_action", "session/request_permission", "state running", "state idle end_turn"}
	if got := wire.only("response", "state", "session/request_permission"); !slices.Equal(got, want) {
		t.Fatalf("v2 wire %q, want %q", got, want)
	}
	params, _ := request["params"].(map[string]any)
	subject, _ := params["subject"].(map[string]any)
	tc, _ := subject["toolCall"].(map[string]any)
	if params["title"] == nil || params["toolCall"] != nil || subject["type"] != "tool_call" || tc["toolCallId"] != "toolu_1" {
		t.Errorf("permission request %v: want a title and the tool call as subject", params)
	}
	for _, m := range []string{"tool_call"} {
		if wire.index(m) >= 0 {
			t.Errorf("v2 wire %q has a v1 %s", wire, m)
		}
	}
}

// A cancel ends the work idle cancelled. A permission request the cancel
// withdraws reports no running: the work is being stopped, its end follows.
func TestV2CancelWithPermissionOpen(t *testing.T) {
	e, sid := startV2Agent(t, "ask-then-wait")
	e.promptV2(2, sid)
	wire, _ := e.until(isIdle, func(m map[string]any) {
		e.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":%q}}`, sid))
	})
	want := v2Wire{"state running", "state requires_action", "state idle cancelled"}
	if got := wire.only("state"); !slices.Equal(got, want) {
		t.Fatalf("states %q, want %q", got, want)
	}
}

// A cancel mid-turn: the prompt was answered at its echo, the turn ends
// idle cancelled.
func TestV2CancelMidTurn(t *testing.T) {
	e, sid := startV2Agent(t, "interruptible")
	e.promptV2(2, sid)
	e.until(func(m map[string]any) bool { return v2Event(m) == "agent_message_chunk" }, nil)
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":%q}}`, sid))
	wire, _ := e.until(isIdle, nil)
	if got := wire.only("state", "response", "error"); !slices.Equal(got, v2Wire{"state idle cancelled"}) {
		t.Fatalf("after the cancel %q, want only the idle cancelled state", got)
	}
}

// session/new answers in v2's shape: no modes, config options by configId.
func TestV2SessionNewAnswer(t *testing.T) {
	t.Setenv("ADAPTER_TEST_CLI_ECHO", "1")
	e := startAgent(t, "text")
	_, res := e.openV2Session()
	if res["modes"] != nil {
		t.Errorf("session/new answer has modes: %v", res)
	}
	opts, _ := res["configOptions"].([]any)
	if len(opts) == 0 {
		t.Fatalf("session/new answer has no config options: %v", res)
	}
	for _, o := range opts {
		if m, _ := o.(map[string]any); m["configId"] == nil || m["id"] != nil {
			t.Errorf("config option %v: want configId, not id", m)
		}
	}
}

// The v1 client of the same agent still gets the v1 answer at the turn's
// end, and no state_update.
func TestV1PromptStillAnsweredAtTheEnd(t *testing.T) {
	t.Setenv("ADAPTER_TEST_CLI_ECHO", "1")
	e := startAgent(t, "text")
	sid := e.openSession()
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"hi"}]}}`, sid))
	var wire v2Wire
	r := e.replyAfter(2, func(m map[string]any) { wire = append(wire, v2Event(m)) })
	if res, _ := r["result"].(map[string]any); res["stopReason"] != "end_turn" {
		t.Errorf("v1 prompt answer %v, want end_turn", r)
	}
	if wire.index("agent_message_chunk") < 0 || len(wire.only("state", "user_message")) > 0 {
		t.Errorf("v1 wire before the answer %q: want the chunk and no v2 update", wire)
	}
	raw, _ := json.Marshal(r)
	if len(raw) == 0 {
		t.Fatal("empty answer")
	}
}

// Negotiation: with v1 alone a v2 client is answered in v1 (its v2
// capabilities read as the v1 declaration they mean); with v2 alone a v1
// client's initialize is refused with -32022 and the versions served.
func TestProtocolNegotiation(t *testing.T) {
	v2Init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"t","version":"1"},"capabilities":{}}}`
	e := startAgentWith(t, "text", acpv2.V1)
	e.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"t","version":"1"},` +
		`"capabilities":{"_meta":{"jetbrains":{"air":{"version":1}}}}}}`)
	res, _ := e.reply(0)["result"].(map[string]any)
	meta, _ := res["_meta"].(map[string]any)
	if res["protocolVersion"] != float64(1) || res["agentCapabilities"] == nil || meta["jetbrains"] == nil {
		t.Errorf("v1 alone, v2 AIR client: %v; want a v1 answer to an AIR client", res)
	}
	e = startAgentWith(t, "text", acpv2.V2)
	e.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	r := e.reply(0)
	got, _ := json.Marshal(r["error"])
	if string(got) != `{"code":-32022,"data":{"requested":1,"supported":[2]},"message":"Unsupported protocol version"}` {
		t.Errorf("v2 alone, v1 client: %s", got)
	}
	e.send(v2Init)
	if res, _ := e.reply(0)["result"].(map[string]any); res["protocolVersion"] != float64(2) {
		t.Errorf("v2 alone, v2 client after a refused v1 initialize: %v", res)
	}
	e.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	if r := e.reply(1); r["error"] == nil {
		t.Errorf("a v1 initialize repeated on a v2 connection: %v; want -32600", r)
	}
}

// countingTurn counts a turn's events.
type countingTurn struct{ inserted, ended, failed int }

func (c *countingTurn) Inserted(string)     { c.inserted++ }
func (c *countingTurn) Ended(turns.Outcome) { c.ended++ }
func (c *countingTurn) Failed(error)        { c.failed++ }

// A turn is inserted once, also when it is activated again (a
// clear-context restart sends its prompt again under the same uuid), and
// ends once.
func TestTurnInsertedOnce(t *testing.T) {
	s, stop := discardSession(io.Discard)
	defer stop()
	events := &countingTurn{}
	tr := &turn{events: events, promptUUID: "u-1"}
	if err := s.enqueue(tr); err != nil {
		t.Fatal(err)
	}
	s.insertTurn("u-1")
	s.insertTurn("u-1")
	s.finish(map[string]any{"stopReason": "end_turn"}, nil)
	if *events != (countingTurn{inserted: 1, ended: 1}) {
		t.Errorf("events %+v, want inserted once and ended once", *events)
	}
}

// A model cycle Claude Code starts on its own after the turn ended is
// foreground work of its own: running at its first output, idle at its
// result, with the result's usage.
func TestV2AutonomousCycleIsForegroundWork(t *testing.T) {
	e, sid := startV2Agent(t, "then-cycle")
	e.promptV2(2, sid)
	first := true
	wire, all := e.until(func(m map[string]any) bool {
		if isIdle(m) && first {
			first = false
			return false
		}
		return isIdle(m)
	}, nil)
	want := v2Wire{"state running", "agent_message_chunk", "state idle end_turn", "state running", "agent_message_chunk", "state idle end_turn"}
	if got := wire.only("state", "agent_message_chunk"); !slices.Equal(got, want) {
		t.Fatalf("v2 wire %q, want %q", got, want)
	}
	last, _ := all[len(all)-1]["params"].(map[string]any)
	u, _ := last["update"].(map[string]any)
	if usage, _ := u["usage"].(map[string]any); usage["totalTokens"] != float64(5) {
		t.Errorf("the cycle's idle %v: want its result's usage", u)
	}
}

// A prompt Claude Code does not echo is taken in at its result: its output
// before that is not a cycle of Claude Code's own, so the work runs from the
// insertion.
func TestV2EchoLessPromptInsertedAtResult(t *testing.T) {
	e := startAgent(t, "text")
	sid, _ := e.openV2Session()
	e.promptV2(2, sid)
	wire, _ := e.until(isIdle, nil)
	want := v2Wire{"agent_message_chunk", "user_message", "response 2", "state running", "state idle end_turn"}
	if got := wire.only("state", "agent_message_chunk", "user_message", "response"); !slices.Equal(got, want) {
		t.Fatalf("v2 wire %q, want %q", got, want)
	}
}

// tool_call/cancel and terminal/cancel stop the background task of the tool
// call (or of the terminal named after it) with the CLI's stop_task; one that
// runs nothing in the background is refused with -32602.
func TestV2CancelBackgroundWork(t *testing.T) {
	log := t.TempDir() + "/cli.log"
	t.Setenv("ADAPTER_TEST_CLI_LOG", log)
	e, sid := startV2Agent(t, "background-task")
	e.promptV2(2, sid)
	_, all := e.until(isIdle, nil)
	var updates []string
	for _, m := range all {
		if u := v2Update(m); u != "" {
			updates = append(updates, u)
		}
	}
	for _, want := range []string{
		`{"content":[{"content":{"text":"launched","type":"text"},"type":"content"}],"rawOutput":"launched","sessionUpdate":"tool_call_update","status":"in_progress","toolCallId":"toolu_bg"}`,
		`{"capabilities":{"cancel":{}},"sessionUpdate":"tool_call_update","toolCallId":"toolu_bg"}`,
		`{"background":[{"toolCallId":"toolu_bg","type":"tool_call"}],"sessionUpdate":"state_update","state":"running"}`,
	} {
		if !slices.Contains(updates, want) {
			t.Errorf("the workflow's call: no %s in\n%s", want, strings.Join(updates, "\n"))
		}
	}
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"terminal/cancel","params":{"sessionId":%q,"terminalId":"toolu_other"}}`, sid))
	got, _ := json.Marshal(e.reply(3)["error"])
	if want := `{"code":-32602,"data":{"sessionId":"` + sid + `","terminalId":"toolu_other"},"message":"Invalid params: Terminal toolu_other is not a command running in the background, so it cannot be cancelled."}`; string(got) != want {
		t.Errorf("terminal/cancel of nothing: %s\nwant %s", got, want)
	}
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":4,"method":"terminal/cancel","params":{"sessionId":%q,"terminalId":"toolu_bg"}}`, sid))
	if r := e.reply(4); r["error"] == nil {
		t.Errorf("terminal/cancel of a listed tool call: %v, want -32602", r)
	}
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":5,"method":"tool_call/cancel","params":{"sessionId":%q,"toolCallId":"toolu_bg"}}`, sid))
	wire, all := e.until(func(m map[string]any) bool { return v2Event(m) == "state idle" }, nil)
	if r := wire.index("response 5"); r < 0 {
		t.Fatalf("tool_call/cancel unanswered: %q", wire)
	}
	var after []string
	for _, m := range all {
		if u := v2Update(m); u != "" {
			after = append(after, u)
		}
	}
	want := []string{
		`{"capabilities":null,"sessionUpdate":"tool_call_update","status":"cancelled","toolCallId":"toolu_bg"}`,
		`{"background":[],"sessionUpdate":"state_update","state":"idle"}`,
	}
	if !slices.Equal(after, want) {
		t.Errorf("after the cancel:\n%s\nwant\n%s", strings.Join(after, "\n"), strings.Join(want, "\n"))
	}
	if wire.index("response 5") > wire.index("state idle") {
		t.Errorf("the list went out before the cancel's answer: %q", wire)
	}
	b, _ := os.ReadFile(log)
	if !strings.Contains(string(b), "control_request stop_task") {
		t.Errorf("the CLI read %q; want a stop_task", b)
	}
}

// A cancel whose task ended before Claude Code could stop it is refused as
// work no list holds, and the call ends as its task did.
func TestV2CancelOfWorkThatEndedMeanwhile(t *testing.T) {
	t.Setenv("ADAPTER_TEST_STOP_LATE", "1")
	e, sid := startV2Agent(t, "background-task")
	e.promptV2(2, sid)
	e.until(isIdle, nil)
	e.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"tool_call/cancel","params":{"sessionId":%q,"toolCallId":"toolu_bg"}}`, sid))
	wire, all := e.until(func(m map[string]any) bool { return v2Event(m) == "state idle" }, nil)
	var answer, ended string
	for _, m := range all {
		if m["id"] == float64(3) {
			b, _ := json.Marshal(m["error"])
			answer = string(b)
		}
		if u := v2Update(m); strings.Contains(u, `"toolCallId":"toolu_bg"`) {
			ended = u
		}
	}
	if want := `{"code":-32602,"data":{"sessionId":"` + sid + `","toolCallId":"toolu_bg"},"message":"Invalid params: Tool call toolu_bg is not running in the background, so it cannot be cancelled."}`; answer != want {
		t.Errorf("cancel of ended work: %s\nwant %s\n(saw %q)", answer, want, wire)
	}
	if want := `{"capabilities":null,"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"toolu_bg"}`; ended != want {
		t.Errorf("the call ended as %s, want %s", ended, want)
	}
}

// v2Update is the update of a session/update, as sorted JSON ("" for
// another message).
func v2Update(m map[string]any) string {
	if m["method"] != "session/update" {
		return ""
	}
	params, _ := m["params"].(map[string]any)
	b, _ := json.Marshal(params["update"])
	return string(b)
}
