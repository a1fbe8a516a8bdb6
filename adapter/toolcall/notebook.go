package toolcall

import "encoding/json"

// notebookReporter reports NotebookEdit. A client that is not AIR gets the
// upstream generic rendering: `title: "NotebookEdit"`, `kind: other`, no
// content before the result. AIR gets `kind: edit`, a title such as `Edit
// cell <id> in <path>`, and the cell source once in content unless it
// renders rawInput (contract: "Claude tools and ACP fields").
type notebookReporter struct{}

func (notebookReporter) ToolUse(in Input, ctx UseContext) UseFacts {
	if !ctx.Caps.AIR.Client {
		return UseFacts{Title: "NotebookEdit", Kind: "other"}
	}
	f := UseFacts{Title: "Edit notebook", Kind: "edit", Locations: list[Location]()}
	if path := in.str("notebook_path"); path != "" {
		cell := ""
		if id := in.str("cell_id"); id != "" {
			cell = " " + id
		}
		verb := "Edit"
		switch in.str("edit_mode") {
		case "insert":
			verb = "Insert"
		case "delete":
			verb = "Delete"
		}
		f.Title = verb + " cell" + cell + " in " + displayPath(path, ctx.Cwd)
		f.Locations = list(Location{Path: path})
	}
	if src, ok := notebookSource(in); ok {
		f.Display = []Content{textContent(markdownEscape(src))}
	}
	return f
}

// notebookSource is the new cell source, unless the edit deletes a cell.
func notebookSource(in Input) (string, bool) {
	if in.str("edit_mode") == "delete" {
		return "", false
	}
	return in.strOK("new_source")
}

// ToolResult: AIR shows the cell source, so the result text is not shown
// again; every other client gets the result text.
func (notebookReporter) ToolResult(ctx ResultContext) ResultFacts {
	if _, ok := notebookSource(parseInput(ctx.Use.Input)); ctx.Caps.AIR.Client && ok {
		return ResultFacts{AIRRawOutput: new(json.RawMessage)}
	}
	return ResultFacts{Content: contentItems(ctx.Result.Content, ctx.Result.IsError)}
}
