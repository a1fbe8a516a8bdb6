package toolcall

import "encoding/json"

// editReporter reports Edit: the diff holds the old and the new snippet,
// and the PostToolUse hook sends the final diff (contract: "Claude tools
// and ACP fields").
type editReporter struct{}

func (editReporter) ToolUse(in Input, ctx UseContext) UseFacts {
	path := in.str("file_path")
	f := UseFacts{Title: "Edit", Kind: "edit", Locations: list[Location]()}
	if path == "" {
		return f
	}
	f.Title = "Edit " + displayPath(path, ctx.Cwd)
	f.Locations = list(Location{Path: path})
	// A v2 diff cannot hold a snippet: a v2 client gets the exact patch
	// from the preview hook, the approval, or the PostToolUse hook.
	if (in.truthy("old_string") || in.truthy("new_string")) && !ctx.Caps.V2 {
		var oldText *string
		if in.truthy("old_string") {
			oldText = ptr(in.text("old_string"))
		}
		newText := encode("")
		if in.present("new_string") {
			newText = in["new_string"]
		}
		f.Change = []Content{diffContent(path, oldText, newText)}
		f.FileTextKeys = []string{"old_string", "new_string"}
	}
	return f
}

// ToolResult: the hook carries the change, the result text only confirms.
func (editReporter) ToolResult(ResultContext) ResultFacts { return ResultFacts{} }

func (editReporter) HookResult(toolResponse json.RawMessage, ctx UseContext) ResultFacts {
	return finalChange(toolResponse, ctx)
}
