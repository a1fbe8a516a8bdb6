package adapter

import (
	"context"
	"encoding/json"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/toolcall"
)

// Contract "Native subagent sessions": a client that declares
// `clientCapabilities.subagents` (the draft ACP subagent RFD), or an AIR
// client that declares `nativeSubagentSessions`, gets an Agent or Task
// subagent as a native ACP child session. This file holds what the CLI is
// told for such a client (the subagent text is forwarded, and one
// configuration hook observes each subagent's start, stop, tools and model
// switches: the reference's subagentConfigurationHook) and the translator's
// hooks into the child sessions:
// native_subagent_sessions_route.go routes the output,
// native_subagent_sessions_lifecycle.go opens and ends the children,
// native_subagent_sessions_config.go reports their configuration,
// native_subagent_sessions_replay.go rebuilds them on `session/load` (AIR
// form), native_subagent_sessions_restore.go opens a new generation of an
// agent that runs again (a SendMessage resume), restoring one from before a
// load or resume from the subagent history (AIR form), and
// native_subagent_sessions_rfd.go holds what the RFD form of a client that
// is not AIR does differently (`subagent_update`, `session_message`), with
// its replay on `session/load` (native_subagent_sessions_rfd_replay.go) and
// its restore of an agent from before a load or resume that a SendMessage
// call resumes (native_subagent_sessions_rfd_restore.go).

// subagentForm is how a client takes native subagent sessions: "rfd" for
// the canonical capability, "air" for an AIR client (either signal), ""
// for none. The canonical field takes precedence.
func subagentForm(c caps.Client) string {
	if !c.Subagents && !c.AIR.Has(caps.NativeSubagentSessions) {
		return ""
	}
	if c.AIR.Client {
		return "air"
	}
	return "rfd"
}

// declaresSubagentTranscript reports the older
// `clientCapabilities._meta["subagent-transcript"]` capability: the flat
// child transcript on the root session.
func declaresSubagentTranscript(c caps.Client) bool {
	var decl struct {
		Meta struct {
			Transcript json.RawMessage `json:"subagent-transcript"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(c.Raw, &decl)
	var on bool
	return json.Unmarshal(decl.Meta.Transcript, &on) == nil && on
}

// forwardsSubagentText reports whether the CLI forwards a subagent's text
// and thinking: for native subagent sessions, for the legacy transcript
// capability, or when the session's `_meta.claudeCode.options` asks.
func forwardsSubagentText(c caps.Client, sessionMeta json.RawMessage) bool {
	if subagentForm(c) != "" || declaresSubagentTranscript(c) {
		return true
	}
	var m struct {
		ClaudeCode struct {
			Options struct {
				ForwardSubagentText bool `json:"forwardSubagentText"`
			} `json:"options"`
		} `json:"claudeCode"`
	}
	return json.Unmarshal(sessionMeta, &m) == nil && m.ClaudeCode.Options.ForwardSubagentText
}

// sessionHooks are the hooks the session registers with its CLI, in the
// reference's order. own is the agent's observing hook; a client with
// native subagent sessions also gets the subagent configuration hook on
// the subagent lifecycle and tool events, before own where both run.
func sessionHooks(c caps.Client, own, sub claude.HookFunc) []claude.HookEvent {
	one := func(event string, hooks ...claude.HookFunc) claude.HookEvent {
		return claude.HookEvent{Event: event, Matchers: []claude.HookMatcher{{Hooks: hooks}}}
	}
	if subagentForm(c) == "" {
		var out []claude.HookEvent
		for _, ev := range hookEvents {
			out = append(out, one(ev, own))
		}
		return out
	}
	return []claude.HookEvent{
		one("SubagentStart", sub), one("SubagentStop", sub), one("PostToolUseFailure", sub),
		one("PreToolUse", sub), one("PostToolUse", sub, own), one("PostModelSwitch", sub, own),
		one("PostCompact", own), one("TaskCreated", own), one("TaskCompleted", own),
	}
}

// subagentHook is the subagent configuration hook: the child session gets
// the configuration the hook tells of it, then the CLI goes on.
func (s *Session) subagentHook(_ context.Context, cb *claude.HookCallback, reply claude.Reply) {
	s.tr.mu.Lock()
	s.tr.sub.subagentHookReport(cb.Input.Raw)
	s.tr.mu.Unlock()
	reply(claude.HookContinue, nil)
}

// newSessionSubagents is the child session router of s: active for a
// client that takes native subagent sessions, in its form.
func newSessionSubagents(s *Session, c caps.Client) *subagentRouter {
	send := func(sessionID string, update any) {
		if u, ok := update.(toolcall.Update); ok {
			update = u.JSON()
		}
		_ = s.agent.conn.Notify("session/update", map[string]any{"sessionId": sessionID, "update": update})
	}
	form := subagentForm(c)
	r := newSubagentRouter(form != "", s.ID, send, sessionChildConfig{s})
	r.rfd, r.cwd = form == "rfd", s.Cwd
	if form != "" {
		r.restore.history = storedSubagentHistory{s}
	}
	return r
}

// subagentAssistant handles a consolidated message of a subagent: its
// model goes to its child session, and its text and thinking go out when
// the CLI forwards them (contract "Claude tools and ACP fields": the
// streamed text of a subagent), on the child session with native
// subagent sessions.
func (t *translator) subagentAssistant(parent string, m assistantLine) {
	t.sub.reportModel(parent, m.Message.Model)
	if !t.sub.forward {
		return
	}
	for _, c := range m.Message.Content {
		kind, text := "agent_message_chunk", c.Text
		if c.Type == "thinking" {
			kind, text = "agent_thought_chunk", c.Thinking
		} else if c.Type != "text" {
			continue
		}
		if text == "" {
			continue
		}
		u := textUpdate(kind, text, m.Message.ID)
		u["_meta"] = map[string]any{"claudeCode": map[string]any{"parentToolUseId": parent}}
		t.sub.chunk(u, parent)
	}
}

// subagentInitialize sets what the initialize request says of subagents.
func (s *Session) subagentInitialize(init *claude.Initialize, sessionMeta json.RawMessage) {
	c := s.agent.clientCaps()
	init.Hooks = sessionHooks(c, s.hook, s.subagentHook)
	init.ForwardSubagentText = ptr(forwardsSubagentText(c, sessionMeta))
	s.tr.mu.Lock()
	s.tr.sub.forward = *init.ForwardSubagentText
	s.tr.mu.Unlock()
	if subagentForm(c) == "rfd" {
		// A child can be stopped on its own, so an interrupt spares it.
		init.PerTaskStopAffordance = ptr(true)
	}
}
