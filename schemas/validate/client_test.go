package validate_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/airwire/airwire/internal/journal"

	"github.com/airwire/airwire/schemas/validate"
)

// permissionAsk is the agent's session/request_permission of tool call
// "tc1" (announced first), id 70.
func permissionAsk(t *testing.T) []validate.Message {
	return []validate.Message{
		agent(t, update(M{"sessionUpdate": "tool_call", "toolCallId": "tc1", "title": "Write a.txt", "kind": "edit", "status": "pending"})),
		agent(t, M{"jsonrpc": "2.0", "id": 70, "method": "session/request_permission", "params": M{"sessionId": sid,
			"toolCall": M{"toolCallId": "tc1"},
			"options":  []any{M{"optionId": "allow-once", "name": "Allow", "kind": "allow_once"}, M{"optionId": "reject", "name": "Reject", "kind": "reject_once"}}}}),
	}
}

func outcome(t *testing.T, id int, o M) validate.Message {
	return editor(t, M{"jsonrpc": "2.0", "id": id, "result": M{"outcome": o}})
}

func cancel(t *testing.T) validate.Message {
	return editor(t, M{"jsonrpc": "2.0", "method": "session/cancel", "params": M{"sessionId": sid}})
}

func prompt(t *testing.T, id int, session string) validate.Message {
	return editor(t, M{"jsonrpc": "2.0", "id": id, "method": "session/prompt", "params": M{"sessionId": session,
		"prompt": []any{M{"type": "text", "text": "hi"}}}})
}

func goal(t *testing.T, id int, action string) validate.Message {
	return editor(t, M{"jsonrpc": "2.0", "id": id, "method": "_session/goal", "params": M{"sessionId": sid, "action": action, "objective": "Ship it"}})
}

func list(t *testing.T, id int, cwd string, cursor any) validate.Message {
	return editor(t, M{"jsonrpc": "2.0", "id": id, "method": "session/list", "params": M{"cwd": cwd, "cursor": cursor}})
}

// page is the agent's session/list page answering request id: one row,
// a session of its own per id (a listing never repeats a row).
func page(t *testing.T, id int, next string) validate.Message {
	row := fmt.Sprintf("%08d-0000-4000-8000-000000000000", id)
	res := M{"sessions": []any{M{"sessionId": row, "cwd": "/w"}}}
	if next != "" {
		res["nextCursor"] = next
	}
	return agent(t, M{"jsonrpc": "2.0", "id": id, "result": res})
}

func cat(parts ...any) []validate.Message {
	var out []validate.Message
	for _, p := range parts {
		switch x := p.(type) {
		case validate.Message:
			out = append(out, x)
		case []validate.Message:
			out = append(out, x...)
		}
	}
	return out
}

// runToEnd checks msgs as a whole conversation: every message, then End.
func runToEnd(t *testing.T, msgs []validate.Message, opts ...validate.Option) []validate.Finding {
	t.Helper()
	a, s := schemas(t)
	v := validate.New(a, s, opts...)
	var out []validate.Finding
	for _, m := range msgs {
		out = append(out, v.Check(m)...)
	}
	return append(out, v.End()...)
}

// TestClientObligations gives each client rule a conversation that breaks
// it and one that keeps it.
func TestClientObligations(t *testing.T) {
	tests := []struct {
		name    string
		msgs    func(t *testing.T) []validate.Message
		rule    string // "" = no error at all
		pointer string
		seq     int // the finding's seq as an index into msgs after conv's 5 (0: any)
	}{
		{name: "permission answered", msgs: func(t *testing.T) []validate.Message {
			return conv(t, cat(permissionAsk(t), outcome(t, 70, M{"outcome": "selected", "optionId": "allow-once"}))...)
		}},
		{name: "permission never answered", msgs: func(t *testing.T) []validate.Message {
			return conv(t, permissionAsk(t)...)
		}, rule: "client-request-unanswered", pointer: "/id", seq: 2},
		{name: "permission answered twice", msgs: func(t *testing.T) []validate.Message {
			return conv(t, cat(permissionAsk(t), outcome(t, 70, M{"outcome": "selected", "optionId": "allow-once"}),
				outcome(t, 70, M{"outcome": "selected", "optionId": "reject"}))...)
		}, rule: "jsonrpc-answered-twice", pointer: "/id", seq: 4},
		{name: "an id reused after its answer is a new request", msgs: func(t *testing.T) []validate.Message {
			ask := permissionAsk(t)
			return conv(t, cat(ask, outcome(t, 70, M{"outcome": "selected", "optionId": "allow-once"}), ask[1],
				outcome(t, 70, M{"outcome": "selected", "optionId": "reject"}))...)
		}},
		{name: "cancel, then the pending permission settled as cancelled", msgs: func(t *testing.T) []validate.Message {
			return conv(t, cat(prompt(t, 60, sid), permissionAsk(t), cancel(t), outcome(t, 70, M{"outcome": "cancelled"}))...)
		}},
		{name: "cancel, then the pending permission answered selected", msgs: func(t *testing.T) []validate.Message {
			return conv(t, cat(prompt(t, 60, sid), permissionAsk(t), cancel(t), outcome(t, 70, M{"outcome": "selected", "optionId": "allow-once"}))...)
		}, rule: "permission-cancelled-after-cancel", pointer: "/result/outcome/outcome", seq: 5},
		{name: "a permission asked after the cancel may be answered", msgs: func(t *testing.T) []validate.Message {
			return conv(t, cat(prompt(t, 60, sid), cancel(t), permissionAsk(t), outcome(t, 70, M{"outcome": "selected", "optionId": "reject"}))...)
		}},
		{name: "prompt to the open session", msgs: func(t *testing.T) []validate.Message {
			return conv(t, prompt(t, 60, sid), agent(t, M{"jsonrpc": "2.0", "id": 60, "result": M{"stopReason": "end_turn"}}))
		}},
		{name: "prompt to a session never opened", msgs: func(t *testing.T) []validate.Message {
			return conv(t, prompt(t, 60, "0b7a5d62-0000-4000-8000-000000000000"))
		}, rule: "prompt-unknown-session", pointer: "/params/sessionId", seq: 1},
		{name: "prompt to a closed session", msgs: func(t *testing.T) []validate.Message {
			return conv(t, editor(t, M{"jsonrpc": "2.0", "id": 61, "method": "session/close", "params": M{"sessionId": sid}}),
				agent(t, M{"jsonrpc": "2.0", "id": 61, "result": M{}}), prompt(t, 62, sid))
		}, rule: "prompt-unknown-session", pointer: "/params/sessionId", seq: 3},
		{name: "prompt to a closed session after loading it", msgs: func(t *testing.T) []validate.Message {
			return conv(t, editor(t, M{"jsonrpc": "2.0", "id": 61, "method": "session/close", "params": M{"sessionId": sid}}),
				agent(t, M{"jsonrpc": "2.0", "id": 61, "result": M{}}),
				editor(t, M{"jsonrpc": "2.0", "id": 63, "method": "session/load", "params": M{"sessionId": sid, "cwd": "/w", "mcpServers": []any{}}}),
				agent(t, M{"jsonrpc": "2.0", "id": 63, "result": M{}}),
				prompt(t, 62, sid), agent(t, M{"jsonrpc": "2.0", "id": 62, "result": M{"stopReason": "end_turn"}}))
		}},
		{name: "goal action advertised", msgs: func(t *testing.T) []validate.Message {
			return conv(t, goal(t, 80, "set"), agent(t, M{"jsonrpc": "2.0", "id": 80, "result": M{}}))
		}},
		{name: "goal action not advertised", msgs: func(t *testing.T) []validate.Message {
			return conv(t, goal(t, 80, "pause"), agent(t, M{"jsonrpc": "2.0", "id": 80, "error": M{"code": -32602, "message": "Invalid params"}}))
		}, rule: "goal-action-not-advertised", pointer: "/params/action", seq: 1},
		{name: "list cursor passed back unchanged", msgs: func(t *testing.T) []validate.Message {
			return conv(t, list(t, 90, "/w", nil), page(t, 90, "c-1"), list(t, 91, "/w", "c-1"), page(t, 91, ""))
		}},
		{name: "list cursor changed", msgs: func(t *testing.T) []validate.Message {
			return conv(t, list(t, 90, "/w", nil), page(t, 90, "c-1"), list(t, 91, "/w", "c-2"), page(t, 91, ""))
		}, rule: "session-list-cursor", pointer: "/params/cursor", seq: 3},
		{name: "list cursor for another cwd", msgs: func(t *testing.T) []validate.Message {
			return conv(t, list(t, 90, "/w", nil), page(t, 90, "c-1"), list(t, 91, "/other", "c-1"), page(t, 91, ""))
		}, rule: "session-list-cursor", pointer: "/params/cwd", seq: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := tt.msgs(t)
			got := runToEnd(t, msgs)
			checkWanted(t, got, tt.rule, tt.pointer, wantSeq(msgs, tt.seq))
		})
	}
}

// wantSeq is the seq of the i-th message after conv's setup (0: any).
func wantSeq(msgs []validate.Message, i int) uint64 {
	if i == 0 {
		return 0
	}
	return msgs[4+i].Seq
}

func checkWanted(t *testing.T, got []validate.Finding, rule, pointer string, seq uint64) {
	t.Helper()
	var errs []validate.Finding
	for _, f := range got {
		if f.Severity == validate.SeverityError {
			errs = append(errs, f)
		}
	}
	if rule == "" {
		for _, f := range errs {
			t.Errorf("unexpected: %s", f)
		}
		return
	}
	for _, f := range errs {
		if f.Rule == rule && f.Pointer == pointer && (seq == 0 || f.Seq == seq) && f.Dir == validate.DirEditor {
			return
		}
	}
	t.Errorf("want %s at %s (seq %d, the editor's); got:", rule, pointer, seq)
	for _, f := range got {
		t.Logf("  %s", f)
	}
}

// TestGoalWithoutDeclaration: an agent that advertised no goal support
// gets no _session/goal from a client that keeps the contract.
func TestGoalWithoutDeclaration(t *testing.T) {
	msgs := messages(t, "air-session")[:5]
	msgs = mutate(t, msgs, `"controlMethod"`, func(m map[string]any) {
		delete(m["result"].(map[string]any)["_meta"].(map[string]any)["jetbrains"].(map[string]any)["air"].(map[string]any), "goal")
	})
	msgs = conv2(msgs, goal(t, 80, "set"))
	checkWanted(t, runToEnd(t, msgs), "goal-action-not-advertised", "/method", msgs[len(msgs)-1].Seq)
}

func conv2(base []validate.Message, extra ...validate.Message) []validate.Message {
	seq := base[len(base)-1].Seq
	for _, m := range extra {
		seq++
		m.Seq, m.Lane = seq, "client"
		base = append(base, m)
	}
	return base
}

// TestEntriesEndsTheConversation: a journal read by Entries reports the
// requests its editor left unanswered, and only on the client's side.
func TestEntriesEndsTheConversation(t *testing.T) {
	msgs := conv(t, permissionAsk(t)...)
	for _, side := range []validate.Side{validate.SideBoth, validate.SideClient, validate.SideAgent} {
		a, s := schemas(t)
		v := validate.New(a, s, validate.WithSide(side))
		rep, err := validate.Entries(nextOf(msgs), v)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range rep.Findings {
			if f.Rule == "client-request-unanswered" {
				n++
			}
		}
		want := 1
		if side == validate.SideAgent {
			want = 0 // the obligation is the editor's
		}
		if n != want {
			t.Errorf("side %s: %d unanswered findings, want %d: %v", side, n, want, rep.Findings)
		}
	}
}

func nextOf(msgs []validate.Message) func() (journal.Entry, error) {
	i := 0
	return func() (journal.Entry, error) {
		if i >= len(msgs) {
			return journal.Entry{}, io.EOF
		}
		m := msgs[i]
		i++
		return journal.Entry{Seq: m.Seq, Kind: journal.KindMsg, Lane: journal.LaneClient, Dir: journal.Dir(m.Dir), Msg: m.Msg}, nil
	}
}

// TestClientReliesOnlyOnDeclarations: the editor uses an AIR request key
// only after declaring its capability, and an ACP method only after the
// agent advertised it.
func TestClientReliesOnlyOnDeclarations(t *testing.T) {
	base := messages(t, "air-session")[:5]
	undeclared := mutate(t, base, `"agentFileChangeReport"`, func(m map[string]any) {
		air := m["params"].(map[string]any)["clientCapabilities"].(map[string]any)["_meta"].(map[string]any)["jetbrains"].(map[string]any)["air"].(map[string]any)
		var keep []any
		for _, c := range air["capabilities"].([]any) {
			if c != "agentFileChangeReport" {
				keep = append(keep, c)
			}
		}
		air["capabilities"] = keep
	})
	ask := editor(t, M{"jsonrpc": "2.0", "id": 60, "method": "session/prompt", "params": M{"sessionId": sid, "prompt": []any{},
		"_meta": airMeta(M{"agentFileChangeReportRequest": M{"version": 1, "requestId": "r-1"}})}})
	msgs := conv2(undeclared, ask)
	checkWanted(t, runToEnd(t, msgs), "air-gate", "/params/_meta/jetbrains/air/agentFileChangeReportRequest", msgs[len(msgs)-1].Seq)
	report := agent(t, update(M{"sessionUpdate": "session_info_update", "_meta": airMeta(M{"agentFileChangeReport": M{"version": 1, "requestId": "r-1",
		"status": "unavailable", "reason": "cancelled"}})}))
	checkWanted(t, runToEnd(t, conv2(base, ask, report, agent(t, M{"jsonrpc": "2.0", "id": 60, "result": M{"stopReason": "end_turn"}}))), "", "", 0)

	noList := mutate(t, base, `"sessionCapabilities"`, func(m map[string]any) {
		delete(m["result"].(map[string]any)["agentCapabilities"].(map[string]any)["sessionCapabilities"].(map[string]any), "list")
	})
	msgs = conv2(noList, list(t, 90, "/w", nil))
	checkWanted(t, runToEnd(t, msgs), "acp-capability-gate", "/method", msgs[len(msgs)-1].Seq)
}
