package toolcall

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// genericReporter reports MCP tools and every other tool: the title is the
// tool name and the result text is the result to show (contract: "Claude
// tools and ACP fields").
type genericReporter struct{ name string }

func (g genericReporter) ToolUse(in Input, _ UseContext) UseFacts {
	if g.name != "Other" {
		title := g.name
		if title == "" {
			title = "Unknown Tool"
		}
		return UseFacts{Title: title, Kind: "other"}
	}
	var b bytes.Buffer
	if in == nil || json.Indent(&b, encode(in), "", "  ") != nil {
		b.Reset()
		b.WriteString("{}")
	}
	return UseFacts{Title: g.name, Kind: "other", Display: []Content{textContent("```json\n" + b.String() + "```")}}
}

// findingsReporter reports ReportFindings: the findings are input the
// user reads.
type findingsReporter struct{}

func (findingsReporter) ToolUse(in Input, _ UseContext) UseFacts {
	var findings []struct {
		File    string          `json:"file"`
		Line    json.RawMessage `json:"line"`
		Summary string          `json:"summary"`
	}
	_ = json.Unmarshal(in["findings"], &findings)
	if len(findings) == 0 {
		return UseFacts{Title: "Report findings: none found", Kind: "think"}
	}
	title := "Report " + strconv.Itoa(len(findings)) + " finding"
	if len(findings) != 1 {
		title += "s"
	}
	display := make([]Content, 0, len(findings))
	for _, f := range findings {
		loc := f.File
		if isTruthyJSON(f.Line) {
			loc += ":" + (Input{"l": f.Line}).text("l")
		}
		display = append(display, textContent("**"+loc+"** — "+f.Summary))
	}
	return UseFacts{Title: title, Kind: "think", Display: display}
}
