package sessionindex

import (
	"encoding/json"
	"strings"

	"github.com/airwire/airwire/adapter/history"
)

// Background tasks of a session (contract: "List response", state): a
// turn that ended while a background shell or an async subagent it
// started still runs is no end of the work, since Claude Code wakes the
// session when the task ends. A held session whose last turn finished
// with such a task open is `running` until its registry status is idle,
// as the reference and AIR's native Claude provider show it.
//
// In file order: a tool result whose toolUseResult has a backgroundTaskId
// (a shell) or isAsync with an agentId (a subagent) opens a task; a
// <task-notification> with a <task-id> and a <status>, as a user input or
// a queue-operation remove, closes it; the result of a TaskStop call
// closes the task of its toolUseResult.task_id. Sidechain records are a
// subagent's and count for nothing.

// taskMarkers are what a line must hold to bear on a task.
var taskMarkers = []string{"backgroundTaskId", `"isAsync"`, "<task-notification>", "TaskStop", "task_id"}

type taskRecord struct {
	Type          string `json:"type"`
	Operation     string `json:"operation"`
	Content       any    `json:"content"`
	IsSidechain   bool   `json:"isSidechain"`
	ToolUseResult *struct {
		BackgroundTaskID string `json:"backgroundTaskId"`
		IsAsync          bool   `json:"isAsync"`
		AgentID          string `json:"agentId"`
		TaskID           string `json:"task_id"`
	} `json:"toolUseResult"`
	Message *struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

type taskBlock struct {
	Type      string `json:"type"`
	Name      string `json:"name"`
	ID        string `json:"id"`
	ToolUseID string `json:"tool_use_id"`
	Text      string `json:"text"`
}

// openTasksAt counts the background tasks the tail of the transcript at
// path leaves open. Only a held session whose last turn finished needs
// it, so it is read then, not for every row a list indexes.
func openTasksAt(path string) int {
	f, st, err := openStat(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	w := windowPool.Get().(*windows)
	defer windowPool.Put(w)
	return openTasks(readHeadTailInto(f, st.Size(), w.head[:], w.tail[:]).tail)
}

// openTasks counts the background tasks the lines of text leave open.
func openTasks(text string) int {
	open := map[string]bool{}
	stopCalls := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		if !bearsOnTask(line) {
			continue
		}
		var r taskRecord
		if json.Unmarshal([]byte(line), &r) != nil || r.IsSidechain {
			continue
		}
		if id := startedTask(r); id != "" {
			open[id] = true
		}
		if id := deliveredTask(r); id != "" {
			delete(open, id)
		}
		if id := stoppedTask(r, stopCalls); id != "" {
			delete(open, id)
		}
	}
	return len(open)
}

func bearsOnTask(line string) bool {
	for _, m := range taskMarkers {
		if strings.Contains(line, m) {
			return true
		}
	}
	return false
}

func startedTask(r taskRecord) string {
	if r.Type != "user" || r.ToolUseResult == nil {
		return ""
	}
	if r.ToolUseResult.BackgroundTaskID != "" {
		return r.ToolUseResult.BackgroundTaskID
	}
	if r.ToolUseResult.IsAsync {
		return r.ToolUseResult.AgentID
	}
	return ""
}

func blocksOf(r taskRecord) []taskBlock {
	if r.Message == nil {
		return nil
	}
	var blocks []taskBlock
	_ = json.Unmarshal(r.Message.Content, &blocks)
	return blocks
}

// deliveredTask is the task whose notification reached the session.
func deliveredTask(r taskRecord) string {
	switch {
	case r.Type == "user" && r.Message != nil:
		var s string
		if json.Unmarshal(r.Message.Content, &s) == nil {
			return endedTask(s)
		}
		for _, b := range blocksOf(r) {
			if b.Type == "text" {
				return endedTask(b.Text)
			}
		}
	case r.Type == "queue-operation" && r.Operation == "remove":
		s, _ := r.Content.(string)
		return endedTask(s)
	}
	return ""
}

// endedTask is the task of an input that starts with a task notification
// carrying a status ("" for a check-in of a task that still runs).
func endedTask(input string) string {
	const open, closeTag = "<task-notification>", "</task-notification>"
	if !strings.HasPrefix(strings.TrimLeft(input, " \t\r\n"), open) {
		return ""
	}
	start := strings.Index(input, open)
	end := strings.Index(input[start:], closeTag)
	if end < 0 {
		return ""
	}
	body, _, _ := strings.Cut(input[start+len(open):start+end], "<result>")
	id, status := history.MarkerText(body, "task-id"), history.MarkerText(body, "status")
	if id == "" || status == "" {
		return ""
	}
	return id
}

// stoppedTask is the task a TaskStop result stopped; it remembers the
// TaskStop calls it sees in stopCalls.
func stoppedTask(r taskRecord, stopCalls map[string]bool) string {
	isStopResult := false
	for _, b := range blocksOf(r) {
		if b.Type == "tool_use" && b.Name == "TaskStop" && b.ID != "" {
			stopCalls[b.ID] = true
		}
		if b.ToolUseID != "" && stopCalls[b.ToolUseID] {
			delete(stopCalls, b.ToolUseID)
			isStopResult = true
		}
	}
	if isStopResult && r.ToolUseResult != nil {
		return r.ToolUseResult.TaskID
	}
	return ""
}
