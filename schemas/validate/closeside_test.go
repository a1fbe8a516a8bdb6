package validate_test

import (
	"strings"
	"testing"

	"github.com/airwire/airwire/schemas/validate"
)

// TestResponseIDOfAnotherType: "0" answering the request 0 is an error
// (the requester never sees its response), and ids print as JSON.
func TestResponseIDOfAnotherType(t *testing.T) {
	tests := []struct {
		name     string
		reqID    any
		respID   any
		rule     string
		severity validate.Severity
		text     []string
	}{
		{name: "string answers a number", reqID: 50, respID: "50", rule: "jsonrpc-response-id-type", severity: validate.SeverityError,
			text: []string{`response id "50"`, "the id 50 of the pending session/close request"}},
		{name: "number answers a string", reqID: "51", respID: 51, rule: "jsonrpc-response-id-type", severity: validate.SeverityError,
			text: []string{"response id 51", `the id "51" of the pending`}},
		{name: "no request at all stays a warning", reqID: 52, respID: "99", rule: "jsonrpc-unmatched-response", severity: validate.SeverityWarning,
			text: []string{`response to id "99"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := run(t, conv(t,
				editor(t, M{"jsonrpc": "2.0", "id": tt.reqID, "method": "session/close", "params": M{"sessionId": sid}}),
				agent(t, M{"jsonrpc": "2.0", "id": tt.respID, "result": M{}})))
			var hit []validate.Finding
			for _, f := range got {
				if strings.HasPrefix(f.Rule, "jsonrpc-") {
					hit = append(hit, f)
				}
			}
			if len(hit) != 1 || hit[0].Rule != tt.rule || hit[0].Severity != tt.severity || hit[0].Pointer != "/id" {
				t.Fatalf("want one %s %s at /id, got %v", tt.severity, tt.rule, hit)
			}
			for _, s := range tt.text {
				if !strings.Contains(hit[0].Message, s) {
					t.Errorf("message %q lacks %q", hit[0].Message, s)
				}
			}
		})
	}
}

// TestSessionUpdateAfterClose: once the agent answered session/close, a
// session/update for that session is an error, until session/load or
// session/resume opens it again.
func TestSessionUpdateAfterClose(t *testing.T) {
	chunk := func() validate.Message {
		return agent(t, update(M{"sessionUpdate": "agent_message_chunk", "content": M{"type": "text", "text": "late"}}))
	}
	closeReq := editor(t, M{"jsonrpc": "2.0", "id": 60, "method": "session/close", "params": M{"sessionId": sid}})
	tests := []struct {
		name string
		msgs []validate.Message
		want bool
	}{
		{name: "update after the close response", msgs: []validate.Message{closeReq, agent(t, M{"jsonrpc": "2.0", "id": 60, "result": M{}}), chunk()}, want: true},
		{name: "update before the close response", msgs: []validate.Message{closeReq, chunk(), agent(t, M{"jsonrpc": "2.0", "id": 60, "result": M{}})}},
		{name: "close refused", msgs: []validate.Message{closeReq, agent(t, M{"jsonrpc": "2.0", "id": 60, "error": M{"code": -32603, "message": "no"}}), chunk()}},
		{name: "resumed after the close", msgs: []validate.Message{closeReq, agent(t, M{"jsonrpc": "2.0", "id": 60, "result": M{}}),
			editor(t, M{"jsonrpc": "2.0", "id": 61, "method": "session/resume", "params": M{"sessionId": sid, "cwd": "/w"}}), chunk()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var hit []validate.Finding
			for _, f := range run(t, conv(t, tt.msgs...)) {
				if f.Rule == "session-update-after-close" {
					hit = append(hit, f)
				}
			}
			if tt.want != (len(hit) == 1) || len(hit) > 1 {
				t.Fatalf("want a finding: %v, got %v", tt.want, hit)
			}
			if tt.want && (hit[0].Pointer != "/params/sessionId" || hit[0].Severity != validate.SeverityError) {
				t.Errorf("finding %s", hit[0])
			}
		})
	}
}

// TestSideCountsOnlyItsMessages: with a side filter the summary counts the
// messages (and AIR payloads) of that side only.
func TestSideCountsOnlyItsMessages(t *testing.T) {
	a, s := schemas(t)
	msgs := messages(t, "air-session")
	count := map[string]int{}
	for _, m := range msgs {
		count[m.Dir]++
	}
	payloads := map[validate.Side]int{}
	for _, side := range []validate.Side{validate.SideBoth, validate.SideAgent, validate.SideClient} {
		v := validate.New(a, s, validate.WithSide(side))
		for _, m := range msgs {
			v.Check(m)
		}
		want := map[validate.Side]int{validate.SideBoth: len(msgs), validate.SideAgent: count["agent"], validate.SideClient: count["editor"]}[side]
		if got := v.Stats().Messages; got != want {
			t.Errorf("--side %s: %d messages counted, want %d", side, got, want)
		}
		payloads[side] = v.Stats().AIRPayloads
	}
	if payloads[validate.SideAgent]+payloads[validate.SideClient] != payloads[validate.SideBoth] || payloads[validate.SideClient] == 0 {
		t.Errorf("AIR payloads by side: %v", payloads)
	}
}
