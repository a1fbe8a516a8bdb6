package toolcall

import (
	"encoding/json"
	"strings"

	"github.com/airwire/airwire/internal/lazyre"
)

// planToolReporter reports TodoWrite and the Task* tools. The stream
// reports them as a `plan`; only a permission request shows them as a
// tool call (contract: "Claude tools and ACP fields").
type planToolReporter struct{ name string }

func (p planToolReporter) ToolUse(in Input, _ UseContext) UseFacts {
	title := "Get task"
	switch p.name {
	case "TodoWrite":
		title = "Update TODOs"
		var todos []struct {
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(in["todos"], &todos) == nil && todos != nil {
			names := make([]string, len(todos))
			for i, t := range todos {
				names[i] = Input{"c": t.Content}.text("c")
			}
			title = "Update TODOs: " + strings.Join(names, ", ")
		}
	case "TaskCreate":
		title = withSubject("Create task", in)
	case "TaskUpdate":
		title = withSubject("Update task", in)
	case "TaskList":
		title = "List tasks"
	}
	return UseFacts{Title: title, Kind: "think"}
}

func withSubject(label string, in Input) string {
	if in.truthy("subject") {
		return label + ": " + in.text("subject")
	}
	return label
}

// isTaskTool reports whether the tool drives the task list.
func isTaskTool(name string) bool {
	switch name {
	case "TaskCreate", "TaskUpdate", "TaskList", "TaskGet":
		return true
	}
	return false
}

// streamsAsToolCall reports whether the stream shows the tool as a tool
// call: TodoWrite is a plan and the Task* tools are suppressed.
func streamsAsToolCall(name string) bool { return name != "TodoWrite" && !isTaskTool(name) }

// todoEntries are the plan entries of a TodoWrite input, or nil when it
// holds no todo list.
func todoEntries(in Input) *[]PlanEntry {
	var todos []struct {
		Content    string `json:"content"`
		Status     string `json:"status"`
		ActiveForm string `json:"activeForm"`
	}
	if json.Unmarshal(in["todos"], &todos) != nil || todos == nil {
		return nil
	}
	entries := make([]PlanEntry, len(todos))
	for i, t := range todos {
		entries[i] = planEntry(t.Content, t.Status, t.ActiveForm)
	}
	return &entries
}

func planEntry(subject, status, activeForm string) PlanEntry {
	content := subject
	if status == "in_progress" && activeForm != "" {
		content = activeForm
	}
	return PlanEntry{Content: content, Status: status, Priority: "medium"}
}

// task is one entry of the session's task list.
type task struct {
	subject, status, activeForm, description string
}

// taskList is the task list that the Task* tools build, in creation order.
type taskList struct {
	order []string
	tasks map[string]task
}

func (l *taskList) set(id string, t task) {
	if l.tasks == nil {
		l.tasks = map[string]task{}
	}
	if _, ok := l.tasks[id]; !ok {
		l.order = append(l.order, id)
	}
	l.tasks[id] = t
}

func (l *taskList) remove(id string) {
	if _, ok := l.tasks[id]; !ok {
		return
	}
	delete(l.tasks, id)
	for i, o := range l.order {
		if o == id {
			l.order = append(l.order[:i:i], l.order[i+1:]...)
			break
		}
	}
}

// entries is the plan of the task list.
func (l *taskList) entries() *[]PlanEntry {
	entries := make([]PlanEntry, 0, len(l.order))
	for _, id := range l.order {
		t := l.tasks[id]
		entries = append(entries, planEntry(t.subject, t.status, t.activeForm))
	}
	return &entries
}

// applyResult updates the list from a successful Task* result and
// reports whether a plan goes out.
func (l *taskList) applyResult(use ToolUse, result Result, structured json.RawMessage) bool {
	in := parseInput(use.Input)
	switch use.Name {
	case "TaskCreate":
		out, ok := taskCreateOutput(structured)
		if !ok {
			out, ok = taskCreateOutput(result.Content)
		}
		if !ok || out.ID == "" || in == nil {
			return true
		}
		subject := orElse(out.Subject, in.str("subject"))
		l.set(out.ID, task{subject: subject, status: "pending", activeForm: in.str("activeForm"),
			description: orElse(out.Description, in.str("description"))})
		return true
	case "TaskUpdate":
		return l.applyUpdate(in, structured, result.Content)
	case "TaskList":
		tasks, ok := taskListOutput(structured)
		if !ok {
			tasks, ok = taskListOutput(result.Content)
		}
		if ok {
			l.replace(tasks)
		}
		return ok
	}
	return false
}

func orElse(a *string, b string) string {
	if a != nil {
		return *a
	}
	return b
}

// applyUpdate applies a TaskUpdate input that its output confirms.
func (l *taskList) applyUpdate(in Input, structured, content json.RawMessage) bool {
	id := in.str("taskId")
	out, ok := taskUpdateOutput(structured, id)
	if !ok {
		out, ok = taskUpdateOutput(content, id)
	}
	if ok && (!out.Success || out.TaskID != id) {
		return false
	}
	if id == "" {
		return true
	}
	if in.str("status") == "deleted" {
		l.remove(id)
		return true
	}
	old := l.tasks[id]
	subject := orElse(strPtr(in, "subject"), old.subject)
	if subject == "" {
		return true
	}
	status := orElse(strPtr(in, "status"), old.status)
	if status == "" {
		status = "pending"
	}
	l.set(id, task{subject: subject, status: status,
		activeForm:  orElse(strPtr(in, "activeForm"), old.activeForm),
		description: orElse(strPtr(in, "description"), old.description)})
	return true
}

func strPtr(in Input, key string) *string {
	if s, ok := in.strOK(key); ok {
		return &s
	}
	return nil
}

// replace sets the list to a TaskList snapshot, keeping known active forms.
func (l *taskList) replace(tasks []listedTask) {
	previous := l.tasks
	l.order, l.tasks = nil, nil
	for _, t := range tasks {
		old := previous[t.ID]
		l.set(t.ID, task{subject: t.Subject, status: t.Status, activeForm: old.activeForm, description: old.description})
	}
}

type createdTask struct {
	ID          string
	Subject     *string
	Description *string
}

type listedTask struct {
	ID      string `json:"id"`
	Subject string `json:"subject"`
	Status  string `json:"status"`
}

type updateOutput struct {
	Success       bool     `json:"success"`
	TaskID        string   `json:"taskId"`
	UpdatedFields []string `json:"updatedFields"`
}

// outputTexts are the texts of a tool output: a string or text blocks.
func outputTexts(content json.RawMessage) []string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return []string{s}
	}
	texts, _ := textBlocksLoose(content)
	return texts
}

// textBlocksLoose are the texts of the text blocks of a list.
func textBlocksLoose(content json.RawMessage) ([]string, bool) {
	var blocks []resultBlock
	if json.Unmarshal(content, &blocks) != nil {
		return nil, false
	}
	var texts []string
	for _, b := range blocks {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	return texts, true
}

// jsonOutputs are the candidate JSON objects of a tool output: the value
// itself, a JSON string, or the JSON text of a text block.
func jsonOutputs(content json.RawMessage) []json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(content, &obj) == nil {
		return []json.RawMessage{content}
	}
	var out []json.RawMessage
	for _, t := range outputTexts(content) {
		if json.Valid([]byte(t)) {
			out = append(out, json.RawMessage(t))
		}
	}
	return out
}

var createdLine = lazyre.New(`^Task #(\S+) created successfully: (.+)$`)

func taskCreateOutput(content json.RawMessage) (createdTask, bool) {
	for _, raw := range jsonOutputs(content) {
		var v struct {
			Task *struct {
				ID          *string `json:"id"`
				Subject     *string `json:"subject"`
				Description *string `json:"description"`
			} `json:"task"`
		}
		if json.Unmarshal(raw, &v) == nil && v.Task != nil && v.Task.ID != nil {
			return createdTask{ID: *v.Task.ID, Subject: v.Task.Subject, Description: v.Task.Description}, true
		}
	}
	for _, t := range outputTexts(content) {
		if m := createdLine.FindStringSubmatch(strings.TrimSpace(t)); m != nil {
			return createdTask{ID: m[1], Subject: &m[2]}, true
		}
	}
	return createdTask{}, false
}

var notFoundLine = lazyre.New(`^Task #(\S+) not found$`)

func taskUpdateOutput(content json.RawMessage, expectedID string) (updateOutput, bool) {
	for _, raw := range jsonOutputs(content) {
		var v map[string]json.RawMessage
		var out updateOutput
		if json.Unmarshal(raw, &v) == nil && v["success"] != nil && v["taskId"] != nil &&
			v["updatedFields"] != nil && json.Unmarshal(raw, &out) == nil {
			return out, true
		}
	}
	for _, t := range outputTexts(content) {
		t = strings.TrimSpace(t)
		id := expectedID
		m := notFoundLine.FindStringSubmatch(t)
		if m != nil {
			id = m[1]
		}
		if id != "" && (m != nil || t == "Failed to delete task") {
			return updateOutput{TaskID: id}, true
		}
	}
	return updateOutput{}, false
}

var listedLine = lazyre.New(`^#(\S+) \[(pending|in_progress|completed)\] (.+)$`)

func taskListOutput(content json.RawMessage) ([]listedTask, bool) {
	for _, raw := range jsonOutputs(content) {
		var v struct {
			Tasks *[]listedTask `json:"tasks"`
		}
		if json.Unmarshal(raw, &v) == nil && v.Tasks != nil && validTasks(*v.Tasks) {
			return *v.Tasks, true
		}
	}
	for _, t := range outputTexts(content) {
		if strings.TrimSpace(t) == "No tasks found" {
			return []listedTask{}, true
		}
		if tasks := listedTasks(strings.TrimSpace(t)); len(tasks) > 0 {
			return tasks, true
		}
	}
	return nil, false
}

func validTasks(tasks []listedTask) bool {
	for _, t := range tasks {
		switch t.Status {
		case "pending", "in_progress", "completed":
		default:
			return false
		}
	}
	return true
}

// listedTasks parses the text form of a TaskList output; any line that
// does not parse voids the whole list.
func listedTasks(text string) []listedTask {
	var tasks []listedTask
	for _, line := range strings.Split(text, "\n") {
		m := listedLine.FindStringSubmatch(line)
		if m == nil {
			return nil
		}
		tasks = append(tasks, listedTask{ID: m[1], Subject: listedSubject(m[3]), Status: m[2]})
	}
	return tasks
}

// listedSubject strips the `[blocked by #…]` and `(owner)` suffixes.
func listedSubject(subject string) string {
	const marker = " [blocked by "
	if i := strings.LastIndex(subject, marker); i > 0 && strings.HasSuffix(subject, "]") {
		ok := true
		for _, dep := range strings.Split(subject[i+len(marker):len(subject)-1], ", ") {
			if len(dep) <= 1 || !strings.HasPrefix(dep, "#") || strings.ContainsAny(dep, ",]") {
				ok = false
			}
		}
		if ok {
			subject = subject[:i]
		}
	}
	if i := strings.LastIndex(subject, " ("); i > 0 && strings.HasSuffix(subject, ")") {
		if owner := subject[i+2 : len(subject)-1]; !strings.ContainsAny(owner, "()") {
			subject = subject[:i]
		}
	}
	return subject
}
