package toolcall

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
)

// Session holds the tool call state of one ACP session. The turn loop
// feeds it the decoded CLI output in arrival order; each call returns, in
// order, the `session/update` params.update objects to send. It is not
// safe for concurrent use.
type Session struct {
	render  Renderer
	tracker Tracker
	// uses are the tool uses seen and not yet resolved, with the subagent
	// tool call that made them.
	uses map[string]trackedUse
	// emitted are the tool calls the client was told of and that have no
	// result yet.
	emitted map[string]bool
	// hooks are the tool uses whose PostToolUse hook is still to come.
	hooks map[string]trackedUse
	// streams are the streaming tool inputs, by subagent stream and index.
	streams map[string]map[int]*streamedInput
	tasks   taskList
	// metaFilter drops the unchanged `_meta` keys for an AIR client.
	metaFilter metaFilter
	// backgrounded are the Bash calls whose result gets the backgrounded
	// marker (MarkBackgrounded).
	backgrounded map[string]bool
	// stopped: the results now reported end work a session/cancel stopped.
	stopped bool
}

type trackedUse struct {
	use    ToolUse
	parent string
}

// NewSession starts the tool call state of a session whose client
// declared c and whose working directory is cwd (for display paths).
func NewSession(c caps.Client, cwd string) *Session {
	return &Session{
		render:  Renderer{Caps: c, Cwd: cwd},
		uses:    map[string]trackedUse{},
		emitted: map[string]bool{},
		hooks:   map[string]trackedUse{},
		streams: map[string]map[int]*streamedInput{},
	}
}

// StoppedByCancel says whether the tool results reported next end work
// that a session/cancel stopped (ACP v2 gives them the status cancelled).
func (s *Session) StoppedByCancel(stopped bool) { s.stopped = stopped }

// Reset forgets every tool call and the task list, as a conversation
// reset does.
func (s *Session) Reset() {
	disk := s.render.Disk
	*s = *NewSession(s.render.Caps, s.render.Cwd)
	s.render.Disk = disk
}

// send stamps the parent, runs the tracker (and for AIR the `_meta` key
// filter), and appends the update when it carries something new.
func (s *Session) send(out []Update, u Update, parent string) []Update {
	stampParent(&u, parent)
	if !s.tracker.Apply(&u) {
		return out
	}
	if s.render.air() && !s.metaFilter.apply(&u) {
		return out
	}
	return append(out, u)
}

// FilterMeta applies the AIR `_meta` key filter of the session to u, an
// update made outside it (the history replay renders tool calls itself),
// and reports whether u still carries something. For a client that is not
// AIR it keeps u as it is.
func (s *Session) FilterMeta(u *Update) bool {
	return !s.render.air() || s.metaFilter.apply(u)
}

// UseDisk lets the session read the files its AIR rendering shows: the
// file of an Edit or a Write (Diff patch), the plan file (Plan file) and
// the SKILL.md of a skill. Without it the session reads nothing.
func (s *Session) UseDisk(d *Disk) { s.render.Disk = d }

// toolUseBlock is a tool_use content block (also server_tool_use and
// mcp_tool_use).
type toolUseBlock = claude.Block

func isToolUseType(t string) bool {
	return t == "tool_use" || t == "server_tool_use" || t == "mcp_tool_use"
}

// toolUse reports a tool_use block: a `tool_call` the first time the id
// surfaces, a refinement with the complete input afterwards, or a `plan`
// for TodoWrite. streaming is true for the empty input at the stream start.
func (s *Session) toolUse(parent string, b toolUseBlock, streaming bool) []Update {
	_, cached := s.uses[b.ID]
	use := ToolUse{ID: b.ID, Name: b.Name, Input: b.Input}
	s.uses[b.ID] = trackedUse{use: use, parent: parent}
	switch {
	case b.Name == "TodoWrite":
		entries := todoEntries(parseInput(b.Input))
		if entries == nil {
			return nil
		}
		return s.send(nil, Update{SessionUpdate: kindPlan, Entries: entries}, parent)
	case isTaskTool(b.Name):
		// The plan goes out at the tool_result, once the change took effect.
		return nil
	}
	if !cached {
		s.hooks[b.ID] = trackedUse{use: use, parent: parent}
	}
	emitted := s.emitted[b.ID]
	s.emitted[b.ID] = true
	if emitted && streaming {
		// A permission request showed the call with its complete input.
		return nil
	}
	if emitted {
		return s.send(nil, s.render.Refinement(use), parent)
	}
	if streaming {
		return s.send(nil, s.render.StreamedToolCall(use), parent)
	}
	return s.send(nil, s.render.ToolCall(use), parent)
}

// Assistant reports the tool_use blocks (and server tool results) of a
// consolidated assistant message; other blocks are not tool calls.
func (s *Session) Assistant(parent string, content []claude.Block) []Update {
	var out []Update
	for _, b := range content {
		switch {
		case isToolUseType(b.Type):
			out = append(out, s.toolUse(parent, b, false)...)
		case isToolResultType(b.Type):
			out = append(out, s.toolResult(parent, resultOf(b), nil, nil)...)
		}
	}
	return out
}

// PostToolUse reports the PostToolUse hook of a tool use: the final change
// of an edit tool and the whole `tool_response` (contract: "Zed
// conventions"). A hook of a tool use the session did not see, or of a
// plan tool, sends nothing.
func (s *Session) PostToolUse(toolUseID string, toolResponse json.RawMessage) []Update {
	h, ok := s.hooks[toolUseID]
	if !ok {
		return nil
	}
	delete(s.hooks, toolUseID)
	out := s.send(nil, s.render.HookResult(h.use, toolResponse), h.parent)
	s.tracker.FinishHook(toolUseID)
	return out
}

// ToolName is the name of the tool use id that has no result yet ("" for
// one the session does not know), for a turn loop that reads a tool
// result before it hands the frame over.
func (s *Session) ToolName(toolUseID string) string {
	return s.uses[toolUseID].use.Name
}

// Use is the tool use id that has no result yet, as the model made it,
// and the Agent call of the subagent that made it ("" at the root); ok is
// false for one the session does not know.
func (s *Session) Use(toolUseID string) (use ToolUse, parent string, ok bool) {
	t, ok := s.uses[toolUseID]
	return t.use, t.parent, ok
}

// Current is the whole tool_call of use as the session shows it, with
// status: what a client that resumes the session is told of a call that
// runs on in the background. It bypasses the field tracker: the client
// gets every field again.
func (s *Session) Current(use ToolUse, parent, status string) Update {
	u := s.render.ToolCall(use)
	u.Status = status
	stampParent(&u, parent)
	return u
}

// Cancelled drops what a session/cancel drops of each tool call: the
// fields the client holds, so later reports of those calls go out whole,
// and the PostToolUse hooks still awaited, which then report nothing.
func (s *Session) Cancelled() {
	s.tracker = Tracker{}
	clear(s.hooks)
}
