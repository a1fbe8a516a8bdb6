package validate_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/schemas/acp"
	"github.com/airwire/airwire/schemas/validate"
)

// needV2 skips a test when the v2 draft's schema is not installed beside
// the v1 one (make deps installs both).
func needV2(t *testing.T, a *acp.Schema) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(acp.V2Dir(filepath.Dir(a.File)), acp.UnstableFile)); err != nil {
		deps.Unavailable(t, "the ACP v2 schema is not installed (make deps): %v", err)
	}
}

// v2Turn is a v2 conversation as the reference adapter holds it
// (goldens/text-and-thinking/plain-v2.golden, its placeholders filled in,
// long lists cut): initialize with protocolVersion 2, a session, a prompt
// answered with its messageId, and the turn's running and idle
// state_updates.
func v2Turn(t *testing.T, version int) []validate.Message {
	const sid = "11111111-2222-4333-8444-555555555555"
	msgs := []validate.Message{
		req(t, "editor", 0, "initialize", M{"protocolVersion": version, "capabilities": M{"elicitation": M{"form": M{}}}, "info": M{"name": "airwire-conform", "version": "1.0.0"}}),
		agent(t, M{"jsonrpc": "2.0", "id": 0, "result": M{"authMethods": []any{}, "protocolVersion": 2,
			"capabilities": M{"_meta": M{"claudeCode": M{"promptQueueing": true}}, "providers": M{},
				"session": M{"additionalDirectories": M{}, "delete": M{}, "fork": M{}, "mcp": M{"http": M{}, "stdio": M{}}, "prompt": M{"embeddedContext": M{}, "image": M{}}}},
			"info": M{"name": "@agentclientprotocol/claude-agent-acp", "title": "Claude Agent", "version": "0.101.0"}}}),
		req(t, "editor", 1, "session/new", M{"cwd": "/w", "mcpServers": []any{}}),
		agent(t, M{"jsonrpc": "2.0", "id": 1, "result": M{"sessionId": sid, "availableCommands": []any{M{"name": "compact", "description": "Clear conversation history but keep a summary", "type": "command"}},
			"configOptions": []any{M{"category": "model_config", "configId": "fast", "currentValue": false, "name": "Fast mode", "type": "boolean"}}}}),
		req(t, "editor", 2, "session/prompt", M{"sessionId": sid, "prompt": []any{M{"type": "text", "text": "What is 2 + 2?"}}}),
		notif(t, "agent", "session/update", M{"sessionId": sid, "update": M{"sessionUpdate": "user_message", "messageId": "0b7c3d52-1f0e-4c55-9d7e-5f3f8a1c2b90", "content": []any{M{"type": "text", "text": "What is 2 + 2?"}}}}),
		agent(t, M{"jsonrpc": "2.0", "id": 2, "result": M{"messageId": "0b7c3d52-1f0e-4c55-9d7e-5f3f8a1c2b90"}}),
		notif(t, "agent", "session/update", M{"sessionId": sid, "update": M{"sessionUpdate": "state_update", "state": "running", "background": []any{}}}),
		notif(t, "agent", "session/update", M{"sessionId": sid, "update": M{"sessionUpdate": "agent_message_chunk", "messageId": "msg_mock_t1_1", "content": M{"type": "text", "text": "2 + 2 = 4."}}}),
		notif(t, "agent", "session/update", M{"sessionId": sid, "update": M{"sessionUpdate": "notice", "severity": "warning", "title": "Claude reported a warning", "description": "An advisory."}}),
		notif(t, "agent", "session/update", M{"sessionId": sid, "update": M{"sessionUpdate": "state_update", "state": "idle", "stopReason": "end_turn", "background": []any{},
			"usage": M{"cachedReadTokens": 0, "cachedWriteTokens": 0, "inputTokens": 10, "outputTokens": 12, "totalTokens": 22}}}),
	}
	for i := range msgs {
		msgs[i].Seq, msgs[i].Lane = uint64(i+1), "client"
	}
	return msgs
}

func errorsOf(fs []validate.Finding) []validate.Finding {
	var out []validate.Finding
	for _, f := range fs {
		if f.Severity == validate.SeverityError {
			out = append(out, f)
		}
	}
	return out
}

// TestV2ConnectionUsesTheV2Schema: the messages of a connection whose
// initialize negotiates protocolVersion 2 are checked against the v2 draft:
// a prompt answered with its messageId, user_message and state_update, a
// notice and a boolean config option (v2's baseline, gated in v1) pass.
// The same messages on a v1 connection break the v1 schema and its gates.
func TestV2ConnectionUsesTheV2Schema(t *testing.T) {
	a, _ := schemas(t)
	needV2(t, a)
	if errs := errorsOf(runToEnd(t, v2Turn(t, 2))); len(errs) > 0 {
		t.Errorf("v2 conversation: %v", errs)
	}
	rules := map[string]bool{}
	for _, f := range errorsOf(runToEnd(t, v2Turn(t, 1))) {
		rules[f.Rule+" "+f.Pointer] = true
	}
	for _, want := range []string{"acp:#/$defs/PromptResponse /result/stopReason", "acp:#/$defs/SessionUpdate /params/update/sessionUpdate",
		"acp-capability-gate /params/update/sessionUpdate", "acp-capability-gate /result/configOptions/0/type"} {
		if !rules[want] {
			t.Errorf("as v1: no %s among %v", want, rules)
		}
	}
}

// TestV2AnsweredWithV1: an agent that answers a v2 initialize with
// protocolVersion 1 speaks v1 from its answer on.
func TestV2AnsweredWithV1(t *testing.T) {
	a, _ := schemas(t)
	needV2(t, a)
	msgs := v2Turn(t, 2)
	msgs[1] = agent(t, M{"jsonrpc": "2.0", "id": 0, "result": M{"protocolVersion": 1, "agentCapabilities": M{}, "authMethods": []any{}}})
	msgs[1].Seq, msgs[1].Lane = 2, "client"
	var bad bool
	for _, f := range errorsOf(runToEnd(t, msgs)) {
		if f.Seq == 2 {
			t.Errorf("the v1 answer is checked as v1: %s", f)
		}
		bad = bad || f.Rule == "acp:#/$defs/PromptResponse"
	}
	if !bad {
		t.Error("after a v1 answer, a prompt answered with a messageId only is no v1 PromptResponse")
	}
}

// TestV2WithoutItsSchema: a v2 connection whose schema is not installed is
// an error, once, rather than messages checked against v1 or not at all.
func TestV2WithoutItsSchema(t *testing.T) {
	a, s := schemas(t)
	dir := filepath.Join(t.TempDir(), "v1")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(a.File)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, acp.UnstableFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	lone, err := acp.LoadFile(filepath.Join(dir, acp.UnstableFile))
	if err != nil {
		t.Fatal(err)
	}
	v := validate.New(lone, s)
	var got []validate.Finding
	for _, m := range v2Turn(t, 2) {
		got = append(got, v.Check(m)...)
	}
	if len(got) != 1 || got[0].Rule != "acp-v2-schema" || got[0].Seq != 1 || !strings.Contains(got[0].Message, "ACP v2") {
		t.Errorf("findings: %v", got)
	}
}

// TestV2CapabilityGates: v2's gates name its capabilities.
func TestV2CapabilityGates(t *testing.T) {
	a, _ := schemas(t)
	needV2(t, a)
	msgs := v2Turn(t, 2)
	// An image in the prompt, which the agent did not advertise.
	msgs[1] = agent(t, M{"jsonrpc": "2.0", "id": 0, "result": M{"protocolVersion": 2, "capabilities": M{"session": M{}}, "authMethods": []any{},
		"info": M{"name": "a", "version": "1"}}})
	msgs[4] = req(t, "editor", 2, "session/prompt", M{"sessionId": "11111111-2222-4333-8444-555555555555", "prompt": []any{M{"type": "image", "mimeType": "image/png", "data": "AA=="}}})
	for i := range msgs {
		msgs[i].Seq, msgs[i].Lane = uint64(i+1), "client"
	}
	var gated []validate.Finding
	for _, f := range runToEnd(t, msgs) {
		if f.Rule == "acp-capability-gate" {
			gated = append(gated, f)
		}
	}
	if len(gated) != 1 || gated[0].Pointer != "/params/prompt/0/type" || !strings.Contains(gated[0].Message, "capabilities.session.prompt.image") {
		t.Errorf("gates: %v", gated)
	}
}

// TestV2GoldensValidateClean: every v2 golden (the reference's v2 runs)
// has no error against the v2 schema and the rules.
func TestV2GoldensValidateClean(t *testing.T) {
	a, s := schemas(t)
	needV2(t, a)
	root, err := deps.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "goldens", "*", "*-v2.golden"))
	if len(files) == 0 {
		t.Fatal("no v2 golden")
	}
	for _, f := range files {
		v := validate.New(a, s)
		for _, m := range goldenMessages(t, f) {
			// A golden holds its timestamps as a placeholder.
			m.Msg = json.RawMessage(strings.ReplaceAll(string(m.Msg), `"<timestamp>"`, `"2026-01-02T03:04:05.678Z"`))
			for _, x := range errorsOf(v.Check(m)) {
				t.Errorf("%s: %s", filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), x)
			}
		}
		for _, x := range errorsOf(v.End()) {
			t.Errorf("%s: %s", f, x)
		}
	}
	t.Logf("%d v2 goldens", len(files))
}

// v2Conv is conv over a v2 connection: the air-session journal's
// initialize exchange in v2's names (capabilities, info, protocolVersion 2).
func v2Conv(t *testing.T, extra ...validate.Message) []validate.Message {
	t.Helper()
	msgs := conv(t, extra...)
	for i, m := range msgs[:2] {
		var doc M
		if err := json.Unmarshal(m.Msg, &doc); err != nil {
			t.Fatal(err)
		}
		if p, ok := doc["params"].(M); ok {
			caps, _ := p["clientCapabilities"].(M)
			p["capabilities"] = M{"elicitation": caps["elicitation"], "_meta": caps["_meta"]}
			p["info"], p["protocolVersion"] = p["clientInfo"], 2
			delete(p, "clientCapabilities")
			delete(p, "clientInfo")
		}
		if r, ok := doc["result"].(M); ok {
			caps, _ := r["agentCapabilities"].(M)
			r["capabilities"] = M{"_meta": caps["_meta"], "session": M{}}
			r["info"], r["protocolVersion"] = r["agentInfo"], 2
			delete(r, "agentCapabilities")
			delete(r, "agentInfo")
		}
		msgs[i].Msg = mustJSON(t, doc)
	}
	return msgs
}

// TestV2TurnEndsAtIdle: in v2 a prompt's turn ends at the idle
// state_update with its stop reason, not at the prompt's answer, and what
// v1 requires before the PromptResponse (an accepted file-change report
// request's report) is required before that idle.
func TestV2TurnEndsAtIdle(t *testing.T) {
	a, _ := schemas(t)
	needV2(t, a)
	ok := M{"version": 1, "requestId": "req-1"}
	taken := agent(t, M{"jsonrpc": "2.0", "id": 60, "result": M{"messageId": "0b7c3d52-1f0e-4c55-9d7e-5f3f8a1c2b90"}})
	idle := agent(t, update(M{"sessionUpdate": "state_update", "state": "idle", "stopReason": "end_turn"}))
	repeat := agent(t, update(M{"sessionUpdate": "state_update", "state": "idle"}))
	missing := func(msgs []validate.Message) []validate.Finding {
		var out []validate.Finding
		for _, f := range runToEnd(t, msgs) {
			if f.Rule == validate.RuleFileChangeMissing {
				out = append(out, f)
			}
		}
		return out
	}
	msgs := v2Conv(t, fcrPrompt(t, 60, ok), taken, repeat, idle)
	got := missing(msgs)
	if len(got) != 1 || got[0].Pointer != "/params/update" || got[0].Seq != msgs[len(msgs)-1].Seq || !strings.Contains(got[0].Message, "idle state_update") {
		t.Errorf("no report before the idle: %v", got)
	}
	// The report after the prompt's answer, before the idle, is in time.
	if got := missing(v2Conv(t, fcrPrompt(t, 60, ok), taken, fcrReport(t, "req-1"), idle)); len(got) > 0 {
		t.Errorf("report before the idle: %v", got)
	}
}
