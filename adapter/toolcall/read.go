package toolcall

import (
	"encoding/json"
	"fmt"
	"strings"
)

// readReporter reports Read: the file text is the result to show
// (contract: "Claude tools and ACP fields").
type readReporter struct{}

func (readReporter) ToolUse(in Input, ctx UseContext) UseFacts {
	offset, hasOffset := in.num("offset")
	limit, _ := in.num("limit")
	from := 1.0
	if hasOffset && in.present("offset") {
		from = offset
	}
	rng := ""
	if limit > 0 {
		rng = " (" + jsNumber(from) + " - " + jsNumber(from+limit-1) + ")"
	} else if in.truthy("offset") {
		rng = " (from line " + in.text("offset") + ")"
	}
	path := in.str("file_path")
	shown := "File"
	if path != "" {
		shown = displayPath(path, ctx.Cwd)
	}
	f := UseFacts{Title: "Read " + shown + rng, Kind: "read", Locations: list[Location]()}
	if path != "" {
		line := int(max(from, 1))
		f.Locations = list(Location{Path: path, Line: &line})
	}
	return f
}

// readOutput is the structured FileReadOutput of a tool_use_result.
type readOutput struct {
	Type string `json:"type"`
	File *struct {
		Content            *string  `json:"content"`
		StartLine          *float64 `json:"startLine"`
		TruncatedByTokenCp bool     `json:"truncatedByTokenCap"`
		NumLines           *float64 `json:"numLines"`
		TotalLines         *float64 `json:"totalLines"`
	} `json:"file"`
}

// ToolResult rebuilds the line-numbered text from the structured output:
// the raw text carries reminders meant for the model only.
func (readReporter) ToolResult(ctx ResultContext) ResultFacts {
	var ro readOutput
	if json.Unmarshal(ctx.Structured, &ro) == nil && ro.Type == "text" && ro.File != nil &&
		ro.File.Content != nil && *ro.File.Content != "" {
		return ResultFacts{Content: list(textContent(markdownEscape(numbered(ro, ctx))))}
	}
	var s string
	if json.Unmarshal(ctx.Result.Content, &s) == nil {
		if s == "" {
			return ResultFacts{}
		}
		return ResultFacts{Content: list(textContent(markdownEscape(s)))}
	}
	var blocks []json.RawMessage
	if json.Unmarshal(ctx.Result.Content, &blocks) != nil || len(blocks) == 0 {
		return ResultFacts{}
	}
	items := make([]Content, 0, len(blocks))
	for _, raw := range blocks {
		var b resultBlock
		_ = json.Unmarshal(raw, &b)
		if b.Type == "text" {
			items = append(items, textContent(markdownEscape(b.Text)))
		} else {
			items = append(items, blockContent(acpBlock(raw, false)))
		}
	}
	return ResultFacts{Content: &items}
}

// numbered is the file text with line numbers, as the CLI shows it.
func numbered(ro readOutput, ctx ResultContext) string {
	start := 1.0
	if ro.File.StartLine != nil {
		start = *ro.File.StartLine
	} else if off, ok := parseInput(ctx.Use.Input).num("offset"); ok {
		start = off
	}
	lines := strings.Split(strings.TrimSuffix(*ro.File.Content, "\n"), "\n")
	for i, line := range lines {
		lines[i] = jsNumber(start+float64(i)) + "\t" + line
	}
	text := strings.Join(lines, "\n")
	if ro.File.TruncatedByTokenCp {
		detail := ""
		if ro.File.NumLines != nil && ro.File.TotalLines != nil {
			detail = fmt.Sprintf(": showing %s of %s lines", jsNumber(*ro.File.NumLines), jsNumber(*ro.File.TotalLines))
		}
		text += "\n[File truncated" + detail + "]"
	}
	return text
}
