package asynctasks

import (
	"encoding/json"
	"strings"
)

// Contract "Async tasks", "Task id and output path": a tool result's text
// never makes a task, but the result of a task's own tool call names its
// output file (tool_results.go: a Bash result's structured
// `backgroundTaskId` says its command went to the background).

// maxToolResultPaths bounds the tool results whose output paths are kept.
const maxToolResultPaths = 500

// outputPathsByCall keeps the task output paths of recent tool results,
// by tool call id; the oldest go first.
type outputPathsByCall struct {
	byCall map[string][]string
	order  []string
}

func newOutputPathsByCall() outputPathsByCall {
	return outputPathsByCall{byCall: map[string][]string{}}
}

func (o *outputPathsByCall) get(toolCallID string) []string { return o.byCall[toolCallID] }

func (o *outputPathsByCall) put(toolCallID string, paths []string) {
	if _, ok := o.byCall[toolCallID]; ok {
		o.order = removeString(o.order, toolCallID)
	}
	o.byCall[toolCallID] = paths
	o.order = append(o.order, toolCallID)
	if len(o.order) > maxToolResultPaths {
		delete(o.byCall, o.order[0])
		o.order = o.order[1:]
	}
}

func removeString(list []string, s string) []string {
	out := list[:0]
	for _, v := range list {
		if v != s {
			out = append(out, v)
		}
	}
	return out
}

// taskOutputPaths returns the task output paths in a tool result text: an
// absolute path (POSIX, Windows drive or UNC) that ends with
// `tasks/<id>.output`, followed by a period, whitespace or the end of the
// text. A path starts after the nearest ": " before its end on the same
// line, and never reaches back past the end of the previous path.
func taskOutputPaths(text string) []string {
	var paths []string
	previousEnd := 0
	for from := 0; ; {
		start, end, ok := nextOutputSuffix(text, from)
		if !ok {
			return paths
		}
		from = end
		if p, ok := pathBefore(text, start, end, previousEnd); ok {
			paths = append(paths, p)
		}
		previousEnd = end
	}
}

// nextOutputSuffix finds the next `/tasks/<id>.output` (either separator)
// at or after from whose end is followed by a period that ends a sentence,
// whitespace or the end of the text. It returns where the suffix starts
// and ends.
func nextOutputSuffix(text string, from int) (start, end int, ok bool) {
	for i := from; i+len("/tasks/") <= len(text); i++ {
		if !isSep(text[i]) || text[i+1:i+6] != "tasks" || !isSep(text[i+6]) {
			continue
		}
		if e, found := outputIDEnd(text, i+7); found {
			return i, e, true
		}
	}
	return 0, 0, false
}

// outputIDEnd reads a task id from i (no whitespace or separator) and
// returns the end of the shortest `<id>.output` that ends well.
func outputIDEnd(text string, i int) (int, bool) {
	for j := i + 1; j <= len(text); j++ {
		if c := text[j-1]; isSep(c) || isSpace(c) {
			return 0, false
		}
		if strings.HasPrefix(text[j:], ".output") && endsWell(text, j+len(".output")) {
			return j + len(".output"), true
		}
	}
	return 0, false
}

// endsWell: at e the text ends, or has whitespace, or a period that no
// word character follows.
func endsWell(text string, e int) bool {
	if e == len(text) || isSpace(text[e]) {
		return true
	}
	return text[e] == '.' && (e+1 == len(text) || !isWordChar(text[e+1]))
}

// pathBefore returns the absolute path that ends at end: it starts after
// the nearest ": " before start, on the same line, after previousEnd.
func pathBefore(text string, start, end, previousEnd int) (string, bool) {
	for i := start - 1; i >= previousEnd; i-- {
		c := text[i]
		if c == '\n' || c == '\r' {
			return "", false
		}
		if c == ':' && i+1 < len(text) && text[i+1] == ' ' {
			p := text[i+2 : end]
			return p, absolutePath(p)
		}
	}
	return "", false
}

// absolutePath: a POSIX, a Windows drive, or a UNC path.
func absolutePath(p string) bool {
	switch {
	case strings.HasPrefix(p, "/"), strings.HasPrefix(p, `\\`):
		return true
	case len(p) >= 3 && isLetter(p[0]) && p[1] == ':' && isSep(p[2]):
		return true
	}
	return false
}

func isSep(c byte) bool { return c == '/' || c == '\\' }
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
func isLetter(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
func isWordChar(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' || c == '_' }

// outputPathOf is the path among paths that names task id's output.
func outputPathOf(paths []string, id string) string {
	for _, p := range paths {
		if strings.HasSuffix(p, "/tasks/"+id+".output") || strings.HasSuffix(p, `\tasks\`+id+".output") {
			return p
		}
	}
	return ""
}

// toolResultPaths reads the output paths of tool results and gives a
// known task without one the path of its own tool call's result.
func (r *Tasks) toolResultPaths(results []toolResultBlock) {
	for _, res := range results {
		paths := taskOutputPaths(toolResultText(res.Content))
		if len(paths) == 0 {
			continue
		}
		r.outputPaths.put(res.ToolUseID, paths)
		for _, t := range r.order {
			if t.toolCallID != res.ToolUseID || t.ignored || t.outputFilePath != "" {
				continue
			}
			r.mergeToolResultPath(t)
			if t.outputFilePath != "" && t.announced {
				r.publishMetadata(t)
			}
		}
	}
}

// ResultOutputFile is the output file of background task id that a tool
// result's content names ("Output is being written to: …"), "" when it
// names none.
func ResultOutputFile(content json.RawMessage, id string) string {
	return outputPathOf(taskOutputPaths(toolResultText(content)), id)
}
