package toolcall

// skillReporter reports Skill: the skill name is the label and the result
// only confirms (contract: "Claude tools and ACP fields").
type skillReporter struct{}

func (skillReporter) ToolUse(in Input, _ UseContext) UseFacts {
	if in.truthy("skill") {
		return UseFacts{Title: "Load skill: " + in.text("skill"), Kind: "other"}
	}
	return UseFacts{Title: "Load skill", Kind: "other"}
}

func (skillReporter) ToolResult(ResultContext) ResultFacts { return ResultFacts{} }
