package toolcall

import "encoding/json"

// questionReporter reports AskUserQuestion: the questions are input the
// user reads. A client that is not AIR gets the question of a single
// question as the title (contract: "Claude tools and ACP fields").
type questionReporter struct{}

func (questionReporter) ToolUse(in Input, ctx UseContext) UseFacts {
	var questions []json.RawMessage
	_ = json.Unmarshal(in["questions"], &questions)
	var display []Content
	texts := make([]string, len(questions))
	for i, raw := range questions {
		q := parseInput(raw)
		if s, ok := q.strOK("question"); ok {
			display = append(display, textContent(s))
			texts[i] = s
		}
	}
	f := UseFacts{Title: "Asking for your input", Kind: "other", Display: display}
	if !ctx.Caps.AIR.Client && len(questions) == 1 && texts[0] != "" {
		f.Title = texts[0]
	}
	return f
}
