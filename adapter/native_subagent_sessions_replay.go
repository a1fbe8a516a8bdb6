package adapter

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
// (`<session>:replay-subagent:<launch>`): `subagent_spawned` where the
// launch was (without `prompt`), the launch's own tool call left out, the
// messages of the child on its session, and after the whole history each
// child's end state, the latest first: the state its task notification or
// its launch's tool result says, else `disconnected`.

// replaySubagents is the child session state of one replay.
type replaySubagents struct {
	root     string
	children map[string]*replayChild // by launch tool use id
	order    []*replayChild
	// ends are the end states the history tells, by tool use id.
	ends map[string]string
}

// replayChild is a child session rebuilt from the history.
type replayChild struct {
	launch, sessionID, parentSessionID string
	name, task                         string
	restorable, announced              bool
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
	r := &replaySubagents{root: root, children: map[string]*replayChild{}, ends: map[string]string{}}
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
			r.block(b)
		}
	}
	return r
}

// block takes one stored content block: a launch, a tool result (the end
// of a launch), or text that holds task notifications.
func (r *replaySubagents) block(b contentBlock) {
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
		r.children[b.ID] = &replayChild{launch: b.ID, sessionID: r.root + ":replay-subagent:" + b.ID,
			parentSessionID: r.root, restorable: true,
			name: subagentNameOr(in, "Restored agent"),
			task: orElse(strings.TrimSpace(orElse(in.Prompt, in.Description)), "Delegated task restored from session history")}
		r.order = append(r.order, r.children[b.ID])
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
		launch, status := markerText(body, "tool-use-id"), markerText(body, "status")
		if state := nativeSubagentState(status); launch != "" && state != "" {
			r.ends[launch] = state
		}
	}
}

// markerText is the trimmed text of the first <tag>…</tag> of body.
func markerText(body, tag string) string {
	_, after, ok := strings.Cut(body, "<"+tag+">")
	if !ok {
		return ""
	}
	text, _, ok := strings.Cut(after, "</"+tag+">")
	if !ok {
		return ""
	}
	return strings.TrimSpace(text)
}

// replayed is one update of the replay with the session it goes to.
type replayed struct {
	sessionID string
	update    json.RawMessage
}

// update places one replayed update: the report of a launch becomes the
// child's announcement, and an update of a child's work goes to it.
func (r *replaySubagents) update(u json.RawMessage) []replayed {
	var h struct {
		SessionUpdate string `json:"sessionUpdate"`
		ToolCallID    string `json:"toolCallId"`
		Meta          struct {
			ClaudeCode struct {
				ToolName        string `json:"toolName"`
				ParentToolUseID string `json:"parentToolUseId"`
			} `json:"claudeCode"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(u, &h)
	cc := h.Meta.ClaudeCode
	// A launch's later updates may have lost the tool name to AIR's `_meta`
	// filter: the launch id says it too.
	launch := isControlTool(cc.ToolName) || r.children[h.ToolCallID] != nil
	if (h.SessionUpdate == "tool_call" || h.SessionUpdate == "tool_call_update") && launch {
		return r.announce(h.ToolCallID)
	}
	if cc.ParentToolUseID == "" {
		return []replayed{{r.root, u}}
	}
	out := r.announce(cc.ParentToolUseID)
	return append(out, replayed{r.children[cc.ParentToolUseID].sessionID, u})
}

// announce announces the child of launch; a launch the history does not
// hold gets a disconnected child.
func (r *replaySubagents) announce(launch string) []replayed {
	c := r.children[launch]
	if c == nil {
		c = &replayChild{launch: launch, sessionID: r.root + ":replay-subagent:" + launch, parentSessionID: r.root,
			name: "Disconnected agent", task: "Subagent restored without persisted launch metadata"}
		r.children[launch] = c
		r.order = append(r.order, c)
	}
	if c.announced {
		return nil
	}
	c.announced = true
	spawned, _ := json.Marshal(map[string]any{"sessionUpdate": "subagent_spawned", "subagentSessionId": c.sessionID,
		"name": c.name, "task": c.task, "capabilities": map[string]any{}})
	return []replayed{{c.parentSessionID, spawned}}
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
		out = append(out, replayed{c.parentSessionID, u})
	}
	return out
}

// replayUpdates sends the replayed updates of msgs: for a client that
// takes the AIR form, with their child sessions rebuilt.
func (s *Session) replayUpdates(msgs []history.Message, updates []json.RawMessage) {
	if subagentForm(s.agent.clientCaps()) != "air" {
		for _, u := range updates {
			s.notify(u)
		}
		return
	}
	r := newReplaySubagents(s.ID, msgs)
	send := func(out []replayed) {
		for _, o := range out {
			_ = s.agent.conn.Notify("session/update", map[string]any{"sessionId": o.sessionID, "update": o.update})
		}
	}
	for _, u := range updates {
		send(r.update(u))
	}
	send(r.finish())
}
