package asynctasks

import (
	"encoding/json"
	"strings"

	"github.com/airwire/airwire/adapter/claude"
)

// Contract "Async tasks", "Task id and output path": the tool results of a
// user message and the tool uses they answer; a Bash result's structured
// `backgroundTaskId` says its command went to the background.

// toolResultBlock is a tool_result content block of a user message.
type toolResultBlock = claude.Block

// ToolResultIDs are the tool call ids of the tool_result blocks of a user
// message's content.
func ToolResultIDs(content []claude.Block) []string {
	var ids []string
	for _, b := range toolResults(content) {
		ids = append(ids, b.ToolUseID)
	}
	return ids
}

// toolResults returns the tool_result blocks of a message content.
func toolResults(content []claude.Block) []toolResultBlock {
	var out []toolResultBlock
	for _, b := range content {
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

// observe records the tool_use blocks of an assistant message; only a
// Bash input is read (its command and run_in_background).
func (u toolUses) observe(content []claude.Block) {
	for _, b := range content {
		if !isToolUseBlock(b.Type) || b.ID == "" {
			continue
		}
		use := toolUse{name: b.Name}
		if b.Name == "Bash" {
			var in struct {
				Command         string `json:"command"`
				RunInBackground bool   `json:"run_in_background"`
			}
			_ = json.Unmarshal(b.Input, &in)
			use.command, use.runInBackground = in.Command, in.RunInBackground
		}
		u[b.ID] = use
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
	return taskEventFrame{ToolUseID: match.ToolUseID, Task: claude.Task{TaskID: taskID, TaskType: &shell,
		IsBackgrounded: &yes, Description: uses[match.ToolUseID].command,
		OutputFile: outputPathOf(taskOutputPaths(toolResultText(match.Content)), taskID)}}, true
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
