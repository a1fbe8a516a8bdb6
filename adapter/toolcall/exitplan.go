package toolcall

import (
	"encoding/json"

	"github.com/airwire/airwire/internal/lazyre"
)

// exitPlanReporter reports ExitPlanMode: the plan is input the user
// approves (contract: "Claude tools and ACP fields", "ExitPlanMode reports").
type exitPlanReporter struct{}

func (exitPlanReporter) ToolUse(in Input, ctx UseContext) UseFacts {
	f := UseFacts{Title: "Approve Plan", Kind: "switch_mode"}
	if p := usePlanFile(in, ctx); p != "" {
		// A planFile client reads the plan from its file (Plan file).
		f.PlanFilePath = p
		return f
	}
	if in.truthy("plan") {
		f.Display = []Content{textContent(in.text("plan"))}
	}
	return f
}

// ToolResult: the approval text repeats the plan, so only the title
// changes; AIR gets no rawOutput for it, and the plan file the result
// names (Plan file). The reference then retracts the path with a blank
// one in a call of its own; the contract forbids a blank path ("The
// adapter never sends a blank path"), so no such call is sent.
func (exitPlanReporter) ToolResult(ctx ResultContext) ResultFacts {
	return ResultFacts{Title: "Exited Plan Mode", AIRRawOutput: new(json.RawMessage), PlanFilePath: resultPlanFile(ctx)}
}

// ErrorResult: the rejection reason has no display form, so AIR gets it in
// rawOutput only, unfenced; every other client gets the error text as the
// result to show (contract: "Claude tools and ACP fields").
func (exitPlanReporter) ErrorResult(ctx ResultContext) (ResultFacts, bool) {
	if !ctx.Caps.AIR.Client {
		return ResultFacts{}, false
	}
	out := exitPlanRawOutput(ctx.Use.Name, ctx.Result.Content)
	return ResultFacts{AIRRawOutput: &out, PlanFilePath: resultPlanFile(ctx)}, true
}

var fencedText = lazyre.New("^\\s*```[^\\r\\n]*\\r?\\n((?s:.*?))\\r?\\n```\\s*$")

// exitPlanRawOutput is the raw tool_result as `rawOutput`; the rejection
// reason of ExitPlanMode loses the fence Claude puts around it.
func exitPlanRawOutput(toolName string, content json.RawMessage) json.RawMessage {
	var s string
	if toolName != "ExitPlanMode" || json.Unmarshal(content, &s) != nil {
		return content
	}
	if m := fencedText.FindStringSubmatch(s); m != nil {
		return encode(m[1])
	}
	return content
}

// enterPlanReporter reports EnterPlanMode, which switches the mode too.
type enterPlanReporter struct{}

func (enterPlanReporter) ToolUse(Input, UseContext) UseFacts {
	return UseFacts{Title: "EnterPlanMode", Kind: "switch_mode"}
}
