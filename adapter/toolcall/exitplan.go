package toolcall

import (
	"encoding/json"
	"regexp"
)

// exitPlanReporter reports ExitPlanMode: the plan is input the user
// approves (contract: "Claude tools and ACP fields", "ExitPlanMode reports").
type exitPlanReporter struct{}

func (exitPlanReporter) ToolUse(in Input, _ UseContext) UseFacts {
	f := UseFacts{Title: "Approve Plan", Kind: "switch_mode"}
	if in.truthy("plan") {
		f.Display = []Content{textContent(in.text("plan"))}
	}
	return f
}

// ToolResult: the approval text repeats the plan, so only the title changes.
func (exitPlanReporter) ToolResult(ResultContext) ResultFacts {
	return ResultFacts{Title: "Exited Plan Mode"}
}

var fencedText = regexp.MustCompile("^\\s*```[^\\r\\n]*\\r?\\n((?s:.*?))\\r?\\n```\\s*$")

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
