package toolcall

import "encoding/json"

// writeReporter reports Write: the diff holds the file text, and the
// PostToolUse hook sends the final diff (contract: "Claude tools and ACP
// fields").
type writeReporter struct{}

// writeContentKeys are the spellings of the file text the CLI accepts.
var writeContentKeys = []string{"content", "file_text", "file_content"}

// writeInput reads a Write input as the CLI validates it: `path` for
// `file_path`, `file_text` or `file_content` for `content`.
func writeInput(in Input) (path string, content json.RawMessage, contentKey string) {
	path, ok := in.strOK("file_path")
	if !ok {
		path, _ = in.strOK("path")
	}
	for _, key := range writeContentKeys {
		if in.present(key) {
			return path, in[key], key
		}
	}
	return path, nil, ""
}

func (writeReporter) ToolUse(in Input, ctx UseContext) UseFacts {
	path, content, key := writeInput(in)
	f := UseFacts{Title: "Preparing file…", Kind: "edit", Locations: list[Location]()}
	if path == "" {
		if isTruthyJSON(content) {
			var s string
			_ = json.Unmarshal(content, &s)
			f.Display = []Content{textContent(s)}
		}
		return f
	}
	f.Title = "Write " + displayPath(path, ctx.Cwd)
	f.Locations = list(Location{Path: path})
	// Without diffPatch the tool call shows the creation diff of the input;
	// the hook replaces it with the real change. With it, a live Write
	// shows the path and no diff: its input does not tell whether the file
	// exists (contract: "Diff patch", "Claude behavior"). Nor does a v2
	// client's, replayed or not: a v2 diff names the operation, which the
	// input does not tell.
	if !ctx.Caps.V2 && (!usesDiffPatch(ctx.Caps) || ctx.Replay) {
		f.Change = []Content{diffContent(path, nil, content)}
	}
	if key != "" {
		f.FileTextKeys = []string{key}
	}
	return f
}

// ToolResult: the hook carries the change, the result text only confirms.
func (writeReporter) ToolResult(ResultContext) ResultFacts { return ResultFacts{} }

func (writeReporter) HookResult(toolResponse json.RawMessage, ctx UseContext) ResultFacts {
	return finalChange(toolResponse, ctx)
}

// isTruthyJSON reports whether a JSON value is truthy as JavaScript reads it.
func isTruthyJSON(raw json.RawMessage) bool {
	if raw == nil {
		return false
	}
	return Input{"v": raw}.truthy("v")
}
