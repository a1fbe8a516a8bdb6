package subagents

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/internal/lazyre"
)

// Contract "Native subagent sessions", AIR form, on `session/load`: the
// history persists the Agent and Task launches but no task lifecycle, so
// the replay rebuilds each child under a replay id
// (`<session>:replay-subagent:<launch>`). Right after the message that
// launched it, the child is announced on its parent (`subagent_spawned`,
// without `prompt`; the launch's own tool call is left out), and then the
// child's own transcript, which the CLI keeps beside the session's
// (history.ReadSubagent), is replayed on the child session, message by
// message: its prompt, its text, its tool calls, and a child it launched
// in turn. Before each child response whose model changed, the child gets
// that model as its `model` option. After the whole history each child
// gets its end state, the latest first: what its task notification or its
// launch's tool result says, else `disconnected`. After the load's answer,
// a child whose model the session's model list now maps to another entry
// gets that entry (Loaded.PublishStates).

// replaySubagents is the child session state of one replay.
type replaySubagents struct {
	root     string
	children map[string]*replayChild // by launch tool use id
	order    []*replayChild
	// ends are the end states the history tells, by tool use id.
	ends map[string]string
	// transcript is the session's transcript, agents the subagent
	// metadata beside it by launch, replayed the agent ids whose
	// transcripts went out.
	transcript string
	agents     map[string]history.Subagent
	replayed   map[string]bool
	// modelEntry maps a child's response model to the entry it shows.
	modelEntry func(model string) (modelEntry, bool)
}

// replayChild is a child session rebuilt from the history.
type replayChild struct {
	launch, sessionID string
	parent            string // the launch of the child that launched it, "" for the root
	name, task        string
	prompt            string // the launch input's prompt, as it is ("" for none)
	restorable        bool
	announced         bool
	model             modelEntry // the model entry the child was sent
	responseModel     string     // the model id it came from
}

// contentBlock is the part of a stored content block the replay reads.
type contentBlock struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
	Text      string          `json:"text"`
}

// newReplaySubagents reads the launches and end states of msgs.
func newReplaySubagents(root string, msgs []history.Message) *replaySubagents {
	r := &replaySubagents{root: root, children: map[string]*replayChild{}, ends: map[string]string{},
		replayed: map[string]bool{}}
	r.register(msgs)
	return r
}

// register reads the launches and end states of msgs, the messages of the
// session or of one child's transcript.
func (r *replaySubagents) register(msgs []history.Message) {
	for _, m := range msgs {
		var api struct {
			Content json.RawMessage `json:"content"`
		}
		_ = json.Unmarshal(m.Message, &api)
		var blocks []contentBlock
		if json.Unmarshal(api.Content, &blocks) != nil {
			var text string
			if json.Unmarshal(api.Content, &text) == nil {
				r.notifications(text)
			}
			continue
		}
		for _, b := range blocks {
			r.block(b, m.ParentToolUseID)
		}
	}
}

// block takes one stored content block of a message of the session whose
// launch is owner ("" for the root): a launch, a tool result (the end of a
// launch), or text that holds task notifications.
func (r *replaySubagents) block(b contentBlock, owner string) {
	switch {
	case b.Type == "tool_result" || b.Type == "mcp_tool_result":
		if _, notified := r.ends[b.ToolUseID]; !notified {
			r.ends[b.ToolUseID] = replayEndState(b)
		}
	case b.Type == "text":
		r.notifications(b.Text)
	case slices.Contains([]string{"tool_use", "server_tool_use", "mcp_tool_use"}, b.Type) && isControlTool(b.Name):
		var in subagentIdentity
		_ = json.Unmarshal(b.Input, &in)
		c := r.children[b.ID]
		if c == nil {
			c = &replayChild{launch: b.ID, sessionID: r.root + ":replay-subagent:" + b.ID}
			r.children[b.ID] = c
			r.order = append(r.order, c)
		}
		c.parent, c.restorable = owner, true
		c.name = subagentNameOr(in, "Restored agent")
		c.task = orElse(strings.TrimSpace(orElse(in.Prompt, in.Description)), "Delegated task restored from session history")
		c.prompt = in.Prompt
	}
}

func subagentNameOr(in subagentIdentity, fallback string) string {
	for _, v := range []string{in.Name, in.Description, in.SubagentType} {
		if s := strings.TrimSpace(v); s != "" {
			return s
		}
	}
	return fallback
}

// replayEndState is the end of a launch its tool result tells.
func replayEndState(b contentBlock) string {
	if !b.IsError {
		return "completed"
	}
	if stoppedWords.MatchString(strings.ToLower(string(b.Content))) {
		return "cancelled"
	}
	return "failed"
}

var (
	stoppedWords     = lazyre.New(`\b(?:cancelled|canceled|interrupted|stopped|killed)\b`)
	taskNotification = lazyre.New(`(?s)<task-notification>(.*?)</task-notification>`)
)

// notifications takes the task notifications of a stored message: the
// status of each names the end of the launch it gives.
func (r *replaySubagents) notifications(text string) {
	for _, m := range taskNotification.FindAllStringSubmatch(text, -1) {
		body, _, _ := strings.Cut(m[1], "<result>")
		launch, status := history.MarkerText(body, "tool-use-id"), history.MarkerText(body, "status")
		if state := nativeSubagentState(status); launch != "" && state != "" {
			r.ends[launch] = state
		}
	}
}

// replayed is one update of the replay with the session it goes to.
type replayed struct {
	sessionID string
	update    json.RawMessage
}

// target is the session the updates of a message of the session whose
// launch is parent go to, announced first when it is a child.
func (r *replaySubagents) target(parent string) (string, []replayed) {
	if parent == "" {
		return r.root, nil
	}
	out := r.announce(parent, nil)
	return r.children[parent].sessionID, out
}

// launchReport reports whether u is a report of a launch's own tool call,
// which the child session replaces.
func (r *replaySubagents) launchReport(u json.RawMessage) bool {
	var h struct {
		SessionUpdate string `json:"sessionUpdate"`
		ToolCallID    string `json:"toolCallId"`
		Meta          struct {
			ClaudeCode struct {
				ToolName string `json:"toolName"`
			} `json:"claudeCode"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(u, &h)
	if h.SessionUpdate != "tool_call" && h.SessionUpdate != "tool_call_update" {
		return false
	}
	// A launch's later updates may have lost the tool name to AIR's `_meta`
	// filter: the launch id says it too.
	return isControlTool(h.Meta.ClaudeCode.ToolName) || r.children[h.ToolCallID] != nil
}

// announce announces the child of launch, after the children that
// launched it; a launch the history does not hold, or one in a cycle of
// launches (ancestors), gets a disconnected child.
func (r *replaySubagents) announce(launch string, ancestors map[string]bool) []replayed {
	c := r.children[launch]
	if c == nil {
		c = &replayChild{launch: launch, sessionID: r.root + ":replay-subagent:" + launch,
			name: "Disconnected agent", task: "Subagent restored without persisted launch metadata"}
		r.children[launch] = c
		r.order = append(r.order, c)
	}
	if ancestors[launch] {
		c.restorable, c.parent = false, ""
		delete(r.ends, launch)
	}
	var out []replayed
	if c.parent != "" {
		next := map[string]bool{launch: true}
		for a := range ancestors {
			next[a] = true
		}
		out = r.announce(c.parent, next)
	}
	if c.announced {
		return out
	}
	c.announced = true
	u := map[string]any{"sessionUpdate": "subagent_spawned", "subagentSessionId": c.sessionID,
		"name": c.name, "task": c.task, "capabilities": map[string]any{}}
	if c.prompt != "" {
		// Native subagent sessions: the Agent or Task input prompt, absent
		// only when there is none (goldens/DEVIATIONS.md entry 17).
		u["prompt"] = c.prompt
	}
	spawned, _ := json.Marshal(u)
	return append(out, replayed{r.parentSession(c), spawned})
}

// parentSession is the session that launched c.
func (r *replaySubagents) parentSession(c *replayChild) string {
	if p := r.children[c.parent]; c.parent != "" && p != nil {
		return p.sessionID
	}
	return r.root
}

// responseModel is the child's `model` option before a response of the
// child of launch parent whose model changed.
func (r *replaySubagents) responseModel(parent string, m history.Message) []replayed {
	c := r.children[parent]
	if c == nil || !c.announced || m.Type != "assistant" || r.modelEntry == nil {
		return nil
	}
	var api struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(m.Message, &api)
	e, ok := r.modelEntry(api.Model)
	if !ok || e == c.model {
		return nil
	}
	c.model, c.responseModel = e, api.Model
	return []replayed{{c.sessionID, childModelUpdate(e)}}
}

// childModelUpdate is the `config_option_update` of a child's model.
func childModelUpdate(e modelEntry) json.RawMessage {
	u, _ := json.Marshal(map[string]any{"sessionUpdate": "config_option_update",
		"configOptions": []json.RawMessage{modelOption(e).raw}})
	return u
}

// finish is the end state of each announced child, the latest first.
func (r *replaySubagents) finish() []replayed {
	var out []replayed
	for _, c := range slices.Backward(r.order) {
		if !c.announced {
			continue
		}
		state := "disconnected"
		if end, ok := r.ends[c.launch]; ok && c.restorable {
			state = end
		}
		u, _ := json.Marshal(map[string]any{"sessionUpdate": "subagent_state_update",
			"subagentSessionId": c.sessionID, "state": state})
		out = append(out, replayed{r.parentSession(c), u})
	}
	return out
}

// launchesOf are the ids of the Agent and Task calls of an assistant
// message.
func launchesOf(m history.Message) []string {
	if m.Type != "assistant" {
		return nil
	}
	var api struct {
		Content []contentBlock `json:"content"`
	}
	_ = json.Unmarshal(m.Message, &api)
	var out []string
	for _, b := range api.Content {
		if b.Type == "tool_use" && b.ID != "" && isControlTool(b.Name) {
			out = append(out, b.ID)
		}
	}
	return out
}

// replayedChildModel is a replayed child's model, to refine after the
// load's answer.
type replayedChildModel struct {
	sessionID, model string
	sent             modelEntry
}

// childModels are the replayed children that were sent a model.
func (r *replaySubagents) childModels() []replayedChildModel {
	var out []replayedChildModel
	for _, c := range r.order {
		if c.responseModel != "" {
			out = append(out, replayedChildModel{c.sessionID, c.responseModel, c.model})
		}
	}
	return out
}
