package toolcall

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
)

// TestApprovedPlan: a client that declares `plan` gets the plan a
// successful ExitPlanMode result of the main conversation approved as a
// markdown plan_update, right after the call's completed result: the
// structured output's plan (the user's edits) else the input's, trimmed;
// AIR's plan id names the call. There is none without the capability, for
// a subagent's call, for an error result, for a subagent's or a team
// member's plan, for a blank plan, and for any other tool.
func TestApprovedPlan(t *testing.T) {
	const (
		planCaps = `{"plan":{}}`
		airCaps  = `{"plan":{},"_meta":{"jetbrains":{"air":{"version":1,"capabilities":[]}}}}`
		input    = `{"plan":"  1. Fix it\n2. Test it\n"}`
		plain    = `{"type":"markdown","planId":"plan-mode","content":"1. Fix it\n2. Test it"}`
	)
	tests := []struct {
		name, caps, tool, input, parent, output string
		isError                                 bool
		want                                    string // the plan, "" for no plan_update
	}{
		{name: "approved", caps: planCaps, want: plain},
		{name: "null output plan falls back to the input", caps: planCaps, output: `{"plan":null,"isAgent":false}`, want: plain},
		{name: "the output's plan holds the user's edits", caps: planCaps, output: `{"plan":" edited \n"}`,
			want: `{"type":"markdown","planId":"plan-mode","content":"edited"}`},
		{name: "AIR joins the plan to its call", caps: airCaps,
			want: `{"type":"markdown","planId":"plan-mode:toolu_plan","content":"1. Fix it\n2. Test it"}`},
		{name: "no plan capability", caps: `{"session":{"configOptions":{"boolean":{}}}}`},
		{name: "a subagent's call", caps: planCaps, parent: "toolu_agent"},
		{name: "an error result", caps: planCaps, isError: true},
		{name: "a subagent's plan", caps: planCaps, output: `{"plan":"p","isAgent":true}`},
		{name: "a plan awaiting the team lead", caps: planCaps, output: `{"plan":"p","awaitingLeaderApproval":true}`},
		{name: "a blank plan", caps: planCaps, input: `{"plan":" \n "}`},
		{name: "another tool", caps: planCaps, tool: "EnterPlanMode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewSession(caps.Parse(json.RawMessage(tt.caps)), "/w")
			tool, in, parent := cmpOr(tt.tool, "ExitPlanMode"), cmpOr(tt.input, input), "null"
			if tt.parent != "" {
				parent = `"` + tt.parent + `"`
			}
			s.Frame(json.RawMessage(`{"type":"assistant","parent_tool_use_id":` + parent + `,"message":{"role":"assistant","content":[` +
				`{"type":"tool_use","id":"toolu_plan","name":"` + tool + `","input":` + in + `}]}}`))
			result := `{"type":"user","parent_tool_use_id":` + parent + `,"message":{"role":"user","content":[{"type":"tool_result",` +
				`"tool_use_id":"toolu_plan","content":"User has approved your plan.","is_error":` + map[bool]string{true: "true", false: "false"}[tt.isError] + `}]}`
			if tt.output != "" {
				result += `,"tool_use_result":` + tt.output
			}
			got := s.Frame(json.RawMessage(result + `}`))
			plans := 0
			for _, u := range got {
				if u.SessionUpdate == kindPlanUpdate {
					plans++
				}
			}
			if tt.want == "" {
				if plans != 0 {
					t.Errorf("a plan_update: %s", encodeAll(got))
				}
				return
			}
			if len(got) < 2 || plans != 1 {
				t.Fatalf("want the call's result, then one plan_update: %s", encodeAll(got))
			}
			last, before := got[len(got)-1], got[len(got)-2]
			if plan, _ := json.Marshal(last.Plan); last.SessionUpdate != kindPlanUpdate || string(plan) != tt.want || last.Meta != nil {
				t.Errorf("last update %s, want a plan_update of %s", last.JSON(), tt.want)
			}
			if before.SessionUpdate != kindToolCallUpdate || before.Status != "completed" {
				t.Errorf("before the plan: %s, want the completed result", before.JSON())
			}
			if strings.Contains(string(last.JSON()), "toolCallId") {
				t.Errorf("a plan_update names a tool call: %s", last.JSON())
			}
		})
	}
}

// TestPlanModeUpdate is the whole wire form: AIR's plan id carries the
// approving call, any other client's is "plan-mode".
func TestPlanModeUpdate(t *testing.T) {
	air := caps.Parse(json.RawMessage(`{"plan":{},"_meta":{"jetbrains":{"air":{"version":1,"capabilities":[]}}}}`))
	for c, want := range map[*caps.Client]string{
		new(caps.Client): `{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"plan-mode","content":"p"}}`,
		&air:             `{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"plan-mode:toolu_1","content":"p"}}`,
	} {
		if got := string(PlanModeUpdate(*c, "p", "toolu_1").JSON()); got != want {
			t.Errorf("got %s\nwant %s", got, want)
		}
	}
}

func cmpOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}
