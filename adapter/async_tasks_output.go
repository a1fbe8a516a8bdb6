package adapter

import (
	"encoding/json"
	"strings"
)

// Contract "Async tasks", "Task id and output path": a tool result's text
// never makes a task, but the result of a task's own tool call names its
// output file, and a Bash result's structured `backgroundTaskId` says its
// command went to the background.

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

// toolResultBlock is a tool_result content block of a user message.
type toolResultBlock struct {
	Type      string          `json:"type"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// toolResults returns the tool_result blocks of a message content.
func toolResults(content json.RawMessage) []toolResultBlock {
	var blocks []toolResultBlock
	if json.Unmarshal(content, &blocks) != nil {
		return nil
	}
	out := blocks[:0]
	for _, b := range blocks {
		if b.Type == "tool_result" && trimmed(b.ToolUseID) != "" {
			out = append(out, b)
		}
	}
	return out
}

// toolResultText is the text of a tool result's content: a string, or the
// texts of its blocks joined.
func toolResultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text    *string         `json:"text"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var b strings.Builder
	for _, block := range blocks {
		if block.Text != nil {
			b.WriteString(*block.Text)
		} else if len(block.Content) > 0 {
			b.WriteString(toolResultText(block.Content))
		}
	}
	return b.String()
}

// toolUse is what the async tasks keep of a tool use.
type toolUse struct {
	name            string
	command         string
	runInBackground bool
}

// toolUses are the tool uses of a session, by id.
type toolUses map[string]toolUse

func (u toolUses) name(id string) string { return u[id].name }

// observe records the tool_use blocks of an assistant message.
func (u toolUses) observe(content json.RawMessage) {
	var blocks []struct {
		Type  string `json:"type"`
		ID    string `json:"id"`
		Name  string `json:"name"`
		Input struct {
			Command         string `json:"command"`
			RunInBackground bool   `json:"run_in_background"`
		} `json:"input"`
	}
	if json.Unmarshal(content, &blocks) != nil {
		return
	}
	for _, b := range blocks {
		if isToolUseBlock(b.Type) && b.ID != "" {
			u[b.ID] = toolUse{name: b.Name, command: b.Input.Command, runInBackground: b.Input.RunInBackground}
		}
	}
}

func isToolUseBlock(t string) bool {
	return t == "tool_use" || t == "server_tool_use" || t == "mcp_tool_use"
}

// structuredTask is a background task id that a tool_use_result names,
// with the tool use it belongs to when the structure says so.
type structuredTask struct{ taskID, toolUseID string }

// structuredTasks walks a tool_use_result for `backgroundTaskId`s; a key
// that is a known tool use id names the tool use of what is under it.
func structuredTasks(v any, uses toolUses, hint string) []structuredTask {
	var out []structuredTask
	switch x := v.(type) {
	case []any:
		for _, item := range x {
			out = append(out, structuredTasks(item, uses, hint)...)
		}
	case map[string]any:
		if id := stringField(x, "toolUseId", "tool_use_id"); id != "" {
			hint = id
		}
		if id := stringField(x, "backgroundTaskId", "background_task_id"); id != "" {
			out = append(out, structuredTask{taskID: id, toolUseID: hint})
		}
		for k, child := range x {
			if k == "backgroundTaskId" || k == "background_task_id" {
				continue
			}
			childHint := hint
			if _, ok := uses[k]; ok {
				childHint = k
			}
			out = append(out, structuredTasks(child, uses, childHint)...)
		}
	}
	return out
}

// stringField is the trimmed string under the camelCase key, else the
// snake_case one.
func stringField(m map[string]any, camel, snake string) string {
	v, ok := m[camel]
	if !ok || v == nil {
		v = m[snake]
	}
	s, _ := v.(string)
	return trimmed(s)
}

// backgroundBashTask recovers a backgrounded Bash task from a user
// message: the one task id its structured tool_use_result names, bound to
// the one Bash result it belongs to (by the structure, else by the output
// path in the result's text, else as the only Bash result).
func backgroundBashTask(results []toolResultBlock, toolUseResult json.RawMessage, uses toolUses) (taskEventFrame, bool) {
	var bash []toolResultBlock
	for _, r := range results {
		if uses.name(r.ToolUseID) == "Bash" {
			bash = append(bash, r)
		}
	}
	var tree any
	if len(bash) == 0 || json.Unmarshal(toolUseResult, &tree) != nil {
		return taskEventFrame{}, false
	}
	found := structuredTasks(tree, uses, "")
	taskID, hinted, ok := oneTask(found)
	if !ok {
		return taskEventFrame{}, false
	}
	match, ok := bindBash(bash, taskID, hinted)
	if !ok {
		return taskEventFrame{}, false
	}
	shell, yes := "local_bash", true
	return taskEventFrame{TaskID: taskID, TaskType: &shell, IsBackgrounded: &yes, ToolUseID: match.ToolUseID,
		Description: uses[match.ToolUseID].command,
		OutputFile:  outputPathOf(taskOutputPaths(toolResultText(match.Content)), taskID)}, true
}

// oneTask returns the one task id found and the tool uses the structure
// binds it to.
func oneTask(found []structuredTask) (string, map[string]bool, bool) {
	ids := map[string]bool{}
	hinted := map[string]bool{}
	for _, f := range found {
		ids[f.taskID] = true
	}
	if len(ids) != 1 {
		return "", nil, false
	}
	taskID := found[0].taskID
	for _, f := range found {
		if f.toolUseID != "" {
			hinted[f.toolUseID] = true
		}
	}
	return taskID, hinted, true
}

// bindBash picks the one Bash result that the task belongs to.
func bindBash(bash []toolResultBlock, taskID string, hinted map[string]bool) (toolResultBlock, bool) {
	var matches []toolResultBlock
	for _, r := range bash {
		if hinted[r.ToolUseID] {
			matches = append(matches, r)
		}
	}
	if len(hinted) == 0 {
		for _, r := range bash {
			if outputPathOf(taskOutputPaths(toolResultText(r.Content)), taskID) != "" {
				matches = append(matches, r)
			}
		}
		if len(matches) == 0 && len(bash) == 1 {
			matches = bash
		}
	}
	if len(matches) != 1 {
		return toolResultBlock{}, false
	}
	return matches[0], true
}

// toolResultPaths reads the output paths of tool results and gives a
// known task without one the path of its own tool call's result.
func (r *asyncTasks) toolResultPaths(results []toolResultBlock) {
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
