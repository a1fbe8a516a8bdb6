package usage

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/claude"

	"github.com/airwire/airwire/conform/goldentest"
)

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func TestRateLimitNeedsATotal(t *testing.T) {
	tr := NewTracker(Window{Size: 1_000_000, Authoritative: true}, false)
	tr.StartTurn()
	rl := raw(`{"type":"rate_limit_event","rate_limit_info":{"status":"allowed_warning","utilization":0.92}}`)
	if u, ok := tr.frame(rl, false); ok {
		t.Fatalf("usage_update before any usage: %s", u)
	}
	tr.frame(raw(`{"type":"stream_event","parent_tool_use_id":null,"event":{"type":"message_start","message":{"model":"claude-x","usage":{"input_tokens":10,"output_tokens":1}}}}`), false)
	u, ok := tr.frame(rl, false)
	want := `{"_meta":{"_claude/model":"claude-x","_claude/rateLimit":{"status":"allowed_warning","utilization":0.92}},"sessionUpdate":"usage_update","size":1000000,"used":11}`
	if !ok || goldentest.Canon(t, u) != want {
		t.Errorf("got %s\nwant %s", u, want)
	}
}

func TestSubagentFramesDoNotCount(t *testing.T) {
	tr := NewTracker(Window{Size: DefaultWindow}, false)
	if u, ok := tr.frame(raw(`{"type":"stream_event","parent_tool_use_id":"toolu_1","event":{"type":"message_start","message":{"model":"m","usage":{"input_tokens":5}}}}`), false); ok {
		t.Errorf("subagent stream produced %s", u)
	}
	tr.frame(raw(`{"type":"assistant","parent_tool_use_id":"toolu_1","message":{"model":"m","usage":{"input_tokens":5}}}`), false)
	if _, ok := tr.ContextUsed(); ok {
		t.Error("a subagent message set the context occupancy")
	}
}

func TestDeltaKeepsNullCounts(t *testing.T) {
	tr := NewTracker(Window{Size: DefaultWindow}, false)
	tr.frame(raw(`{"type":"stream_event","parent_tool_use_id":null,"event":{"type":"message_start","message":{"model":"claude-opus-5-5[1m]","usage":{"input_tokens":10,"cache_read_input_tokens":100,"output_tokens":1}}}}`), false)
	u, _ := tr.frame(raw(`{"type":"stream_event","parent_tool_use_id":null,"event":{"type":"message_delta","usage":{"output_tokens":7}}}`), false)
	want := `{"_meta":{"_claude/model":"claude-opus-5-5[1m]"},"sessionUpdate":"usage_update","size":1000000,"used":117}`
	if goldentest.Canon(t, u) != want {
		t.Errorf("got %s\nwant %s (the 1m model widens a guessed window)", u, want)
	}
	if u, ok := tr.frame(raw(`{"type":"stream_event","parent_tool_use_id":null,"event":{"type":"message_delta","usage":{"output_tokens":7}}}`), false); ok {
		t.Errorf("unchanged total sent again: %s", u)
	}
}

func TestResumedFirstResultUsesTurnUsage(t *testing.T) {
	tr := NewTracker(Window{Size: DefaultWindow}, true)
	tr.StartTurn()
	tr.frame(raw(`{"type":"assistant","parent_tool_use_id":null,"message":{"model":"claude-a","usage":{"input_tokens":3,"output_tokens":4}}}`), false)
	tr.frame(raw(`{"type":"result","subtype":"success","total_cost_usd":1,"usage":{"input_tokens":3,"output_tokens":4},"modelUsage":{"claude-a":{"inputTokens":1000,"outputTokens":2000,"contextWindow":500000}}}`), false)
	got := goldentest.Canon(t, tr.PromptResponse(EndTurn))
	want := `{"_meta":{"quota":{"model_usage":[{"model":"claude-a","token_count":{"cachedInputTokens":0,"cachedWriteTokens":0,"inputTokens":3,"outputTokens":4,"reasoningOutputTokens":0,"totalTokens":7}}],"token_count":{"cachedInputTokens":0,"cachedWriteTokens":0,"inputTokens":3,"outputTokens":4,"reasoningOutputTokens":0,"totalTokens":7}}},"stopReason":"end_turn","usage":{"cachedReadTokens":0,"cachedWriteTokens":0,"inputTokens":3,"outputTokens":4,"totalTokens":7}}`
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if w := tr.Window(); w != (Window{Size: 500000, Authoritative: true}) {
		t.Errorf("window %+v, want the result's", w)
	}
	// The next result is measured from the first reading.
	tr.StartTurn()
	tr.frame(raw(`{"type":"result","subtype":"success","usage":{"input_tokens":1,"output_tokens":1},"modelUsage":{"claude-a":{"inputTokens":1001,"outputTokens":2001}}}`), false)
	var r struct {
		Meta struct {
			Quota struct {
				ModelUsage []modelRow `json:"model_usage"`
			} `json:"quota"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(tr.PromptResponse(EndTurn), &r)
	if len(r.Meta.Quota.ModelUsage) != 1 || r.Meta.Quota.ModelUsage[0].TokenCount.TotalTokens != 2 {
		t.Errorf("increment rows %+v, want one row of 2 tokens", r.Meta.Quota.ModelUsage)
	}
}

func TestStopReason(t *testing.T) {
	tests := []struct {
		result string
		reason string
		failed bool
	}{
		{`{"subtype":"success","stop_reason":"end_turn"}`, EndTurn, false},
		{`{"subtype":"success","stop_reason":"max_tokens"}`, MaxTokens, false},
		{`{"subtype":"success","is_error":true}`, EndTurn, true},
		{`{"subtype":"error_during_execution","is_error":true,"stop_reason":"refusal"}`, Refusal, false},
		{`{"subtype":"error_during_execution"}`, EndTurn, false},
		{`{"subtype":"error_max_turns","is_error":false}`, MaxTurnRequests, false},
		{`{"subtype":"error_max_turns","is_error":true}`, MaxTurnRequests, true},
		{`{"subtype":"error_max_budget_usd","is_error":true}`, MaxTurnRequests, true},
	}
	for _, tt := range tests {
		reason, failed := stopReason(json.RawMessage(tt.result))
		if reason != tt.reason || failed != tt.failed {
			t.Errorf("%s: got %s/%v, want %s/%v", tt.result, reason, failed, tt.reason, tt.failed)
		}
	}
}

func TestContextUsageDoesNotOverrideAuthoritative(t *testing.T) {
	tr := NewTracker(Window{Size: 300000, Authoritative: true}, false)
	tr.ContextUsage(json.RawMessage(`{"rawMaxTokens":967000}`))
	if tr.Window().Size != 300000 {
		t.Errorf("window %d, want the authoritative 300000", tr.Window().Size)
	}
	tr = NewTracker(GuessWindow("default", "claude-opus-5-5", "Default (recommended)"), false)
	tr.ContextUsage(json.RawMessage(`{"rawMaxTokens":0}`))
	if tr.Window().Size != DefaultWindow {
		t.Errorf("a zero rawMaxTokens changed the window to %d", tr.Window().Size)
	}
}

// A clear-context restart (goldens/exit-plan-clear-context): the fresh
// context reports used 0 without a model, its first message_start is sent
// again even with the old context's count, and the turn's tally goes on
// while the fresh CLI's modelUsage reading starts at zero.
func TestFreshContextKeepsTheTurn(t *testing.T) {
	tr := NewTracker(Window{Size: 1_000_000, Authoritative: true}, false)
	tr.StartTurn()
	start := raw(`{"type":"stream_event","parent_tool_use_id":null,"event":{"type":"message_start","message":{"model":"claude-opus-5-5","usage":{"input_tokens":10,"output_tokens":1}}}}`)
	tr.frame(start, false)
	tr.frame(raw(`{"type":"result","subtype":"error_during_execution","is_error":true,"total_cost_usd":1,"usage":{"input_tokens":10,"output_tokens":12},"modelUsage":{"claude-opus-5-5":{"inputTokens":20,"outputTokens":24,"contextWindow":1000000}}}`), false)

	if got := goldentest.Canon(t, tr.FreshContext()); got != `{"sessionUpdate":"usage_update","size":1000000,"used":0}` {
		t.Errorf("fresh context update %s", got)
	}
	if u, ok := tr.frame(start, false); !ok || goldentest.Canon(t, u) != `{"_meta":{"_claude/model":"claude-opus-5-5"},"sessionUpdate":"usage_update","size":1000000,"used":11}` {
		t.Errorf("first usage of the fresh context: %s %v", u, ok)
	}
	tr.frame(raw(`{"type":"result","subtype":"success","total_cost_usd":2,"usage":{"input_tokens":10,"output_tokens":12},"modelUsage":{"claude-opus-5-5":{"inputTokens":10,"outputTokens":12,"contextWindow":1000000}}}`), false)
	got := goldentest.Canon(t, tr.PromptResponse(EndTurn))
	want := `{"_meta":{"quota":{"model_usage":[{"model":"claude-opus-5-5","token_count":{"cachedInputTokens":0,"cachedWriteTokens":0,"inputTokens":30,"outputTokens":36,"reasoningOutputTokens":0,"totalTokens":66}}],"token_count":{"cachedInputTokens":0,"cachedWriteTokens":0,"inputTokens":20,"outputTokens":24,"reasoningOutputTokens":0,"totalTokens":44}}},"stopReason":"end_turn","usage":{"cachedReadTokens":0,"cachedWriteTokens":0,"inputTokens":20,"outputTokens":24,"totalTokens":44}}`
	if got != want {
		t.Errorf("got %s\nwant %s (the golden's response)", got, want)
	}
}

// TestCycleResponse: the end of a cycle Claude Code ran on its own carries
// its result's usage, and a quota of that usage and of what the result
// added by model; the turn tally is left alone.
func TestCycleResponse(t *testing.T) {
	tr := NewTracker(Window{Size: 1_000_000, Authoritative: true}, false)
	tr.StartTurn()
	tr.frame(raw(`{"type":"result","subtype":"success","usage":{"input_tokens":20,"output_tokens":24},"modelUsage":{"m":{"inputTokens":30,"outputTokens":36}}}`), false)
	r := raw(`{"type":"result","subtype":"success","usage":{"input_tokens":10,"output_tokens":12},"modelUsage":{"m":{"inputTokens":70,"outputTokens":84}}}`)
	tr.frame(r, true)
	f, err := claude.DecodeFrame(append([]byte(nil), r...))
	if err != nil {
		t.Fatal(err)
	}
	got := string(tr.CycleResponse(f, EndTurn))
	want := `{"_meta":{"quota":{"model_usage":[{"model":"m","token_count":{"totalTokens":88,"inputTokens":40,"cachedInputTokens":0,"cachedWriteTokens":0,"outputTokens":48,"reasoningOutputTokens":0}}],` +
		`"token_count":{"totalTokens":22,"inputTokens":10,"cachedInputTokens":0,"cachedWriteTokens":0,"outputTokens":12,"reasoningOutputTokens":0}}},` +
		`"stopReason":"end_turn","usage":{"inputTokens":10,"outputTokens":12,"cachedReadTokens":0,"cachedWriteTokens":0,"totalTokens":22}}`
	if got != want {
		t.Errorf("cycle response\n got %s\nwant %s", got, want)
	}
	if q, _ := json.Marshal(tr.Quota()); !strings.Contains(string(q), `"token_count":{"totalTokens":44`) {
		t.Errorf("the turn's quota changed: %s", q)
	}
}
