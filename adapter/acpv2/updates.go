package acpv2

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// PlanID is the id of a session's one plan: v1 replaces the plan whole,
// v2 tracks plans by id.
const PlanID = "plan"

// Updates maps a connection's v1 session updates to v2. It remembers what
// a v2 client stores of each tool call (its `_meta`, whether it was named)
// and the messages a replay cleared.
type Updates struct {
	mu        sync.Mutex
	calls     map[string]*toolCall // by "<session> <toolCallId>"
	terminals map[string]*terminal // running commands, by "<session> <toolCallId>"
	replays   map[string]map[string]bool
	// children of a replay: the root whose replay announced each child,
	// in announcement order, with the child's last replayed state.
	replayed []replayedChild
}

// replayedChild is a subagent a replay announced: its replay root and the
// last work state the replay reported for it (nil until one).
type replayedChild struct {
	id, root string
	state    object
}

type toolCall struct {
	meta  object
	named bool
	// content is the content the client holds (JSON), once an update set it.
	content string
}

// Map is the v2 updates of one v1 update of session sessionID (none when
// v2 has no counterpart, such as a mode change, which v2 reads from the
// `mode` config option). A kind v2 does not translate is an error.
func (u *Updates) Map(sessionID string, update json.RawMessage) ([]object, error) {
	m, err := decodeObject(update)
	if err != nil {
		return nil, err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	kind, _ := m["sessionUpdate"].(string)
	switch kind {
	case "tool_call", "tool_call_update":
		return u.toolCall(sessionID, m, kind == "tool_call")
	case "agent_message_chunk", "agent_thought_chunk", "user_message_chunk":
		if id, _ := m["messageId"].(string); id == "" {
			return nil, fmt.Errorf("an ACP v2 %s needs a messageId", kind)
		}
		return u.withReplayClear(sessionID, m), nil
	}
	out, err := sessionUpdate(m)
	if out == nil || err != nil {
		return nil, err
	}
	return []object{out}, nil
}

// sessionUpdate maps an update that is not a tool call report nor a chunk.
func sessionUpdate(m object) (object, error) {
	switch m["sessionUpdate"] {
	case "available_commands_update":
		cmds, _ := m["availableCommands"].([]any)
		m["availableCommands"] = AvailableCommands(cmds)
	case "config_option_update":
		opts, _ := m["configOptions"].([]any)
		m["configOptions"] = ConfigOptions(opts)
	case "session_info_update", "state_update", "usage_update", "notice", "compaction_update", "compaction_summary_chunk",
		"plan_update", "plan_removed", "session_message", "session_message_chunk", "subagent_update",
		"user_message", "agent_message", "agent_thought":
	case "plan":
		out := object{"sessionUpdate": "plan_update", "plan": object{"type": "items", "planId": PlanID, "entries": m["entries"]}}
		if m["_meta"] != nil {
			out["_meta"] = m["_meta"]
		}
		return out, nil
	case "current_mode_update":
		return nil, nil
	default:
		return nil, fmt.Errorf("the ACP v2 surface does not translate %v session updates", m["sessionUpdate"])
	}
	return m, nil
}

// toolCall maps a tool call report: v2 has one tool_call_update that
// upserts, where null clears a field (a v1 null leaves it), so nulls are
// left out; `_meta` carries only the keys it changes of what the client
// stores; name comes from `_meta.claudeCode.toolName` the first time. A v1
// tool_call of an id the client holds (or may hold from before this
// connection, during a replay) restarts it: each field it leaves out is
// reset, and a replayed one the connection did not report clears `_meta`,
// then sets the current keys in a second update.
func (u *Updates) toolCall(sessionID string, report object, starts bool) ([]object, error) {
	id, _ := report["toolCallId"].(string)
	key := sessionID + " " + id
	terminal, keep := u.terminalUpdates(key, report, starts)
	if !keep {
		return terminal, nil
	}
	_, replaying := u.replays[sessionID]
	out, err := u.report(key, report, starts, replaying)
	if err != nil {
		return nil, err
	}
	u.calls[key].dropHeldContent(out[0])
	if !starts && len(out) == 1 && len(out[0]) == 2 {
		return terminal, nil // it changes nothing the client holds
	}
	return append(terminal, out...), nil
}

// dropHeldContent leaves out of update a content the client already holds
// (v2 replaces content whole, so the same list again changes nothing),
// and records a new one.
func (c *toolCall) dropHeldContent(update object) {
	content, ok := update["content"]
	if !ok {
		return
	}
	b, _ := json.Marshal(content)
	if content != nil && string(b) == c.content {
		delete(update, "content")
		return
	}
	c.content = string(b)
}

// report is the tool_call_update of a tool call report (its terminal keys
// taken out).
func (u *Updates) report(key string, report object, starts, replaying bool) ([]object, error) {
	if u.calls == nil {
		u.calls = map[string]*toolCall{}
	}
	previous := u.calls[key]
	restarts := starts && (previous != nil || replaying)
	held := object{}
	if previous != nil {
		held = previous.meta
	}
	call := previous
	if starts || call == nil {
		call = &toolCall{meta: object{}}
	}
	u.calls[key] = call
	out, err := patch(report)
	if err != nil {
		return nil, err
	}
	newMeta, toolName := mergeMeta(call.meta, report["_meta"])
	if report["name"] != nil {
		call.named = true
	} else if !call.named && toolName != nil {
		out["name"], call.named = toolName, true
	}
	call.meta = newMeta
	if change := metaPatch(held, newMeta); len(change) > 0 {
		out["_meta"] = change
	}
	if restarts {
		for _, f := range []string{"name", "title", "kind", "status", "content", "locations", "rawInput", "rawOutput"} {
			if _, ok := out[f]; !ok {
				out[f] = nil
			}
		}
	}
	if restarts && previous == nil {
		out["_meta"] = nil
		if len(newMeta) > 0 {
			return []object{out, {"sessionUpdate": "tool_call_update", "toolCallId": report["toolCallId"], "_meta": newMeta}}, nil
		}
	}
	return []object{out}, nil
}

// patch is the v2 fields of a v1 tool call (report or a permission
// request's toolCall): nulls left out, v1 diffs in v2's shape.
func patch(report object) (object, error) {
	out := object{"sessionUpdate": "tool_call_update"}
	for k, v := range report {
		if v != nil && k != "sessionUpdate" && k != "_meta" {
			out[k] = v
		}
	}
	content, _ := report["content"].([]any)
	if content == nil {
		return out, nil
	}
	items := make([]any, 0, len(content))
	for _, c := range content {
		item, _ := c.(object)
		switch {
		case item["type"] == "content" || item["type"] == "terminal" || item["changes"] != nil:
			items = append(items, item)
		case item["type"] == "diff":
			items = append(items, v2Diff(item))
		default:
			return nil, fmt.Errorf("an ACP v2 client cannot take tool call content of type %v", item["type"])
		}
	}
	out["content"] = items
	return out, nil
}

// v2Diff is a v1 diff as v2 carries it: the file change it names (an add
// when there was no old text), without a patch, since v1's old and new
// texts can be snippets of the file whose line numbers v1 does not say.
func v2Diff(v1 object) object {
	op := "modify"
	if v1["oldText"] == nil {
		op = "add"
	}
	out := object{"type": "diff", "changes": []any{object{"operation": op, "path": v1["path"], "fileType": "text"}}}
	if v1["_meta"] != nil {
		out["_meta"] = v1["_meta"]
	}
	return out
}

// mergeMeta is the `_meta` the client stores after a report's: a key set to
// null is removed, claudeCode merges key by key; toolName is the report's
// claudeCode.toolName, which v2 carries as name.
func mergeMeta(stored object, reported any) (object, any) {
	meta := maps.Clone(stored)
	in, _ := reported.(object)
	cc, _ := in["claudeCode"].(object)
	cc = maps.Clone(cc)
	toolName := cc["toolName"]
	delete(cc, "toolName")
	for k, v := range in {
		switch {
		case k == "claudeCode":
		case v == nil:
			delete(meta, k)
		default:
			meta[k] = v
		}
	}
	if len(cc) > 0 {
		merged, _ := meta["claudeCode"].(object)
		merged = maps.Clone(merged)
		if merged == nil {
			merged = object{}
		}
		maps.Copy(merged, cc)
		meta["claudeCode"] = merged
	}
	return meta, toolName
}

// metaPatch is what turns held into now: removed keys null, changed keys
// their value.
func metaPatch(held, now object) object {
	out := object{}
	for k := range held {
		if _, ok := now[k]; !ok {
			out[k] = nil
		}
	}
	for k, v := range now {
		if !reflect.DeepEqual(v, held[k]) {
			out[k] = v
		}
	}
	return out
}

// Subject is the tool call a v2 permission request is about: the patch a
// tool_call_update would carry, with every `_meta` key the client stores
// of it (a client can show the request from the request alone).
func (u *Updates) Subject(sessionID string, toolCall object) (object, error) {
	id, _ := toolCall["toolCallId"].(string)
	subs, err := u.report(sessionID+" "+id, toolCall, false, false)
	if err != nil {
		return nil, err
	}
	sub := subs[0]
	delete(sub, "sessionUpdate")
	if stored := u.calls[sessionID+" "+id].meta; len(stored) > 0 {
		meta, _ := sub["_meta"].(object)
		if meta == nil {
			meta = object{}
		}
		maps.Copy(meta, stored)
		sub["_meta"] = meta
	}
	return sub, nil
}

// Forget drops what the client stores of a closed session's tool calls.
func (u *Updates) Forget(sessionID string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	prefix := sessionID + " "
	for k := range u.calls {
		if strings.HasPrefix(k, prefix) {
			delete(u.calls, k)
		}
	}
	for k := range u.terminals {
		if strings.HasPrefix(k, prefix) {
			delete(u.terminals, k)
		}
	}
}

// messageOfChunk is the message update of a chunk kind.
func messageOfChunk(kind string) string {
	switch kind {
	case "user_message_chunk":
		return "user_message"
	case "agent_message_chunk":
		return "agent_message"
	}
	return "agent_thought"
}

// Replaying marks session sessionID's history as replaying (on) or done:
// a v2 client may hold a replayed message, and chunks append, so the first
// replayed chunk of each message is preceded by the message with no
// content, which clears it. When the replay is done, it returns the
// state_update of each subagent the replay announced, on the child's own
// stream, with the last state the replay reported for it: v2 forbids
// replaying a child's past states as current activity, so only that one
// goes, after the replay.
func (u *Updates) Replaying(sessionID string, on bool) []Notification {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.replays == nil {
		u.replays = map[string]map[string]bool{}
	}
	if on {
		u.replays[sessionID] = map[string]bool{}
		return nil
	}
	delete(u.replays, sessionID)
	var out []Notification
	kept := u.replayed[:0]
	for _, c := range u.replayed {
		switch {
		case c.root != sessionID:
			kept = append(kept, c)
		case c.state != nil:
			out = append(out, Notification{c.id, c.state})
		}
	}
	u.replayed = kept
	return out
}

// InReplay tells whether session sessionID, or the replay that announced
// it, is replaying its history.
func (u *Updates) InReplay(sessionID string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.replayRoot(sessionID) != ""
}

// replayRoot is the session whose replay sessionID belongs to ("" when
// none replays it); u.mu held.
func (u *Updates) replayRoot(sessionID string) string {
	if _, ok := u.replays[sessionID]; ok {
		return sessionID
	}
	for _, c := range u.replayed {
		if c.id == sessionID {
			return c.root
		}
	}
	return ""
}

// ChunkAsIs tells whether Map would send a text chunk of kind (agent_message_chunk,
// agent_thought_chunk or user_message_chunk) with messageID to the v2 client as
// it is, alone: it has a message id and no replay clears its message first.
// A caller that knows this can write the chunk without Map.
func (u *Updates) ChunkAsIs(sessionID, kind, messageID string) bool {
	if messageID == "" {
		return false
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	_, cleared := u.replayClear(sessionID, kind, messageID)
	return cleared
}

func (u *Updates) withReplayClear(sessionID string, chunk object) []object {
	kind := messageOfChunk(chunk["sessionUpdate"].(string))
	mark, cleared := u.replayClear(sessionID, chunk["sessionUpdate"].(string), chunk["messageId"].(string))
	if cleared {
		return []object{chunk}
	}
	mark()
	return []object{{"sessionUpdate": kind, "messageId": chunk["messageId"], "content": []any{}}, chunk}
}

// replayClear is the one rule of a chunk's replay clear: cleared tells
// whether a chunk of kind for messageID goes without a clear (no replay,
// or the replay cleared its message already); mark records the clear
// that goes first otherwise. u.mu is held.
func (u *Updates) replayClear(sessionID, kind, messageID string) (mark func(), cleared bool) {
	clears := u.replays[sessionID]
	key := messageOfChunk(kind) + " " + messageID
	if clears == nil || clears[key] {
		return nil, true
	}
	return func() { clears[key] = true }, false
}

// ChildState is the state_update a subagent_update that reports the child's
// work state makes on the child's own stream (v2 reports a session's state
// on its stream and mirrors a child's on its parent), sent right after the
// parent's copy; ok is false for an update that reports none, and during a
// replay, whose past states are no current activity: the replay keeps the
// child's last state for its end (Replaying).
func (u *Updates) ChildState(parentID string, update object) (childID string, state object, ok bool) {
	s, _ := update["state"].(object)
	childID, _ = update["sessionId"].(string)
	if update["sessionUpdate"] != "subagent_update" || childID == "" {
		return "", nil, false
	}
	if s != nil {
		state = maps.Clone(s)
		state["sessionUpdate"] = "state_update"
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	root := u.replayRoot(parentID)
	if root == "" {
		return childID, state, state != nil
	}
	i := slices.IndexFunc(u.replayed, func(c replayedChild) bool { return c.id == childID })
	if i < 0 {
		u.replayed = append(u.replayed, replayedChild{id: childID, root: root})
		i = len(u.replayed) - 1
	}
	if state != nil {
		u.replayed[i].state = state
	}
	return "", nil, false
}
