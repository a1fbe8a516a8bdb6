package toolcall

import (
	"encoding/json"
	"strings"
)

// webFetchReporter reports WebFetch: the prompt is input the user reads,
// the answer is the result (contract: "Claude tools and ACP fields").
type webFetchReporter struct{}

func (webFetchReporter) ToolUse(in Input, _ UseContext) UseFacts {
	f := UseFacts{Title: "Fetch", Kind: "fetch"}
	if in.truthy("url") {
		f.Title = "Fetch " + in.text("url")
		if in.truthy("offset") {
			f.Title += " (from char " + in.text("offset") + ")"
		}
	}
	if in.truthy("prompt") {
		f.Display = []Content{textContent(in.text("prompt"))}
	}
	return f
}

// webSearchReporter reports WebSearch: the hits are the result to show.
type webSearchReporter struct{}

func (webSearchReporter) ToolUse(in Input, _ UseContext) UseFacts {
	if in.truthy("query") {
		return UseFacts{Title: `Search "` + in.text("query") + `"`, Kind: "fetch"}
	}
	return UseFacts{Title: "Web search", Kind: "fetch"}
}

// ToolResult renders the hits of the structured WebSearchOutput as
// "Title (url)" lines; the raw text is a dump meant for the model.
func (webSearchReporter) ToolResult(ctx ResultContext) ResultFacts {
	var out struct {
		Results []json.RawMessage `json:"results"`
	}
	if json.Unmarshal(ctx.Structured, &out) == nil && out.Results != nil {
		if lines := searchHits(out.Results); len(lines) > 0 {
			return ResultFacts{Content: list(textContent(strings.Join(lines, "\n")))}
		}
	}
	return ResultFacts{Content: contentItems(ctx.Result.Content, ctx.Result.IsError)}
}

// searchHits are the display lines of WebSearchOutput results: a string
// entry as it is, a hit list as "Title (url)" lines.
func searchHits(results []json.RawMessage) []string {
	var lines []string
	for _, entry := range results {
		var s string
		if json.Unmarshal(entry, &s) == nil {
			lines = append(lines, s)
			continue
		}
		var hits struct {
			Content []struct {
				Title *string `json:"title"`
				URL   *string `json:"url"`
			} `json:"content"`
		}
		if json.Unmarshal(entry, &hits) != nil {
			continue
		}
		for _, h := range hits.Content {
			if h.Title != nil && h.URL != nil {
				lines = append(lines, *h.Title+" ("+*h.URL+")")
			}
		}
	}
	return lines
}
