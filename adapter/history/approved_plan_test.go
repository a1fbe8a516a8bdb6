package history

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/toolcall"
)

// The replay of an approved ExitPlanMode shows its plan to a client that
// declares `plan`, after the call's result, as the live turn does; the
// transcript has no structured output, so the plan is the input's. A
// subagent's call, an error result (a clear-context approval) and a
// client without `plan` get none.
func TestReplayApprovedPlan(t *testing.T) {
	use := `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_plan","name":"ExitPlanMode","input":{"plan":"1. Fix it\n"}}]}`
	result := func(isError bool) string {
		return `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_plan","content":"ok","is_error":` +
			map[bool]string{true: "true", false: "false"}[isError] + `}]}`
	}
	const want = `{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"plan-mode","content":"1. Fix it"}}`
	tests := []struct {
		name, caps, parent string
		isError            bool
		want               bool
	}{
		{name: "approved", caps: `{"plan":{}}`, want: true},
		{name: "no plan capability", caps: `{}`},
		{name: "a subagent's call", caps: `{"plan":{}}`, parent: "toolu_agent"},
		{name: "an error result", caps: `{"plan":{}}`, isError: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := caps.Parse(json.RawMessage(tt.caps))
			msgs := []Message{
				{Type: "assistant", UUID: "a", Message: json.RawMessage(use), ParentToolUseID: tt.parent},
				{Type: "user", UUID: "u", Message: json.RawMessage(result(tt.isError)), ParentToolUseID: tt.parent},
			}
			out := Replay(msgs, toolcall.Renderer{Caps: c, Cwd: "/w", Replay: true}, toolcall.NewSession(c, "/w"))
			var plans []string
			for _, u := range out {
				if strings.Contains(string(u), `"plan_update"`) {
					plans = append(plans, string(u))
				}
			}
			switch {
			case !tt.want && len(plans) != 0:
				t.Errorf("a plan_update: %s", plans)
			case tt.want && (len(out) < 2 || string(out[len(out)-1]) != want):
				t.Errorf("replay %s\nwant it to end with %s", out, want)
			case tt.want && !strings.Contains(string(out[len(out)-2]), `"toolCallId":"toolu_plan"`):
				t.Errorf("the plan does not follow the call's result: %s", out)
			}
		})
	}
}
