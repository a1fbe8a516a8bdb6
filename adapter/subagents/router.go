package subagents

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/adapter/toolcall"
)

// Host is what the Router needs of the root session it serves.
type Host interface {
	// Notify sends one `session/update` of the session sessionID.
	Notify(sessionID string, update any)
	// Config is the root session's configuration; nil before the CLI
	// gave it.
	Config() Config
	// Transcript is the path of the root session's stored transcript, once
	// there is one (it appears with the first turn).
	Transcript() (path string, ok bool)
}

// Config is what a child's options are built from: the root session's
// lists (*sessionconfig.Session).
type Config interface {
	SubagentModeOption(mode string) json.RawMessage
	SubagentModelEntry(model string) (value, name string, ok bool)
	ModelDisplayName(model string) string
}

// Form is how a client takes native subagent sessions: "rfd" for the
// canonical capability, "air" for an AIR client (either signal), "" for
// none. The canonical field takes precedence.
func Form(c caps.Client) string {
	if !c.Subagents && !c.AIR.Has(caps.NativeSubagentSessions) {
		return ""
	}
	if c.AIR.Client {
		return "air"
	}
	return "rfd"
}

// New is the child session router of the root session root, whose working
// directory is cwd: active for a client c that takes native subagent
// sessions, in its form.
func New(h Host, root, cwd string, c caps.Client) *Router {
	send := func(sessionID string, update any) {
		if u, ok := update.(toolcall.Update); ok {
			update = u.JSON()
		}
		h.Notify(sessionID, update)
	}
	form := Form(c)
	r := newRouter(form != "", root, send, hostConfig{h})
	r.rfd, r.form.cwd, r.host, r.caps = form == "rfd", cwd, h, c
	if form != "" {
		r.restore.history = storedHistory{h}
	}
	return r
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
	if Form(c) != "" || declaresSubagentTranscript(c) {
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

// HookFuncs are the agent's hook funcs a session registers with its CLI.
type HookFuncs struct {
	// Own is the agent's observing hook, on OwnEvents.
	Own       claude.HookFunc
	OwnEvents []string
	// Sub is the subagent configuration hook (it calls HookReport).
	Sub claude.HookFunc
	// Preview is the PreToolUse hook of an ACP v2 client for Edit and
	// Write: the tool call shows the exact patch before the tool runs.
	Preview claude.HookFunc
}

// sessionHooks are the hooks the session registers with its CLI, in the
// reference's order. A client with native subagent sessions gets the
// subagent configuration hook on the subagent lifecycle and tool events,
// before the agent's own where both run; an ACP v2 client gets the
// preview hook on PreToolUse, matching Edit and Write, after it.
func sessionHooks(c caps.Client, h HookFuncs) []claude.HookEvent {
	one := func(event string, hooks ...claude.HookFunc) claude.HookEvent {
		return claude.HookEvent{Event: event, Matchers: []claude.HookMatcher{{Hooks: hooks}}}
	}
	// An event without matchers is not registered.
	pre := claude.HookEvent{Event: "PreToolUse"}
	if Form(c) != "" {
		pre.Matchers = append(pre.Matchers, claude.HookMatcher{Hooks: []claude.HookFunc{h.Sub}})
	}
	if c.V2 && h.Preview != nil {
		pre.Matchers = append(pre.Matchers, claude.HookMatcher{Matcher: "Edit|Write", Hooks: []claude.HookFunc{h.Preview}})
	}
	if Form(c) == "" {
		out := []claude.HookEvent{pre}
		for _, ev := range h.OwnEvents {
			out = append(out, one(ev, h.Own))
		}
		return out
	}
	return []claude.HookEvent{
		one("SubagentStart", h.Sub), one("SubagentStop", h.Sub), one("PostToolUseFailure", h.Sub),
		pre, one("PostToolUse", h.Sub, h.Own), one("PostModelSwitch", h.Sub, h.Own),
		one("PostCompact", h.Own), one("TaskCreated", h.Own), one("TaskCompleted", h.Own),
	}
}

// Initialize sets what the CLI's initialize request init says of
// subagents: the hooks h (sessionHooks), whether the CLI forwards
// subagent text, and for the RFD form the per-task stop.
func (r *Router) Initialize(init *claude.Initialize, sessionMeta json.RawMessage, h HookFuncs) {
	init.Hooks = sessionHooks(r.caps, h)
	forward := forwardsSubagentText(r.caps, sessionMeta)
	init.ForwardSubagentText = &forward
	r.forward = forward
	if stop, set := PerTaskStop(r.caps, sessionMeta); set {
		init.PerTaskStopAffordance = &stop
	}
}

// PerTaskStop is the perTaskStopAffordance a session declares to its CLI
// (set false: it declares none): true for a client of the RFD form, whose
// child can be stopped on its own, so an interrupt spares it; the
// session's own `_meta.claudeCode.options.perTaskStopAffordance` wins, as
// the reference lets a client's options override its defaults.
func PerTaskStop(c caps.Client, sessionMeta json.RawMessage) (stop, set bool) {
	var m struct {
		ClaudeCode struct {
			Options struct {
				Stop *bool `json:"perTaskStopAffordance"`
			} `json:"options"`
		} `json:"claudeCode"`
	}
	if json.Unmarshal(sessionMeta, &m) == nil && m.ClaudeCode.Options.Stop != nil {
		return *m.ClaudeCode.Options.Stop, true
	}
	if Form(c) == "rfd" {
		return true, true
	}
	return false, false
}

// Assistant takes a consolidated message of a subagent (parent is its
// launch): its model goes to its child session, and its text and
// thinking chunks go out when the CLI forwards them (contract "Claude
// tools and ACP fields": the streamed text of a subagent), on the child
// session with native subagent sessions.
func (r *Router) Assistant(parent, model string, chunks []map[string]any) {
	r.reportModel(parent, model)
	if !r.forward {
		return
	}
	for _, u := range chunks {
		u["_meta"] = map[string]any{"claudeCode": map[string]any{"parentToolUseId": parent}}
		r.chunk(u, parent)
	}
}

// Frame takes a CLI line of the two kinds the child sessions follow: a
// task's lifecycle (lifecycle.go), and a user line with a SendMessage
// result that resumed an agent (AIR form: restore.go; RFD form: rfd.go).
func (r *Router) Frame(f *claude.Frame) {
	switch {
	case f.Type == "user":
		r.restore.userFrame(f)
		r.form.sendMessageResult(f)
	case f.Type == "system" && isTaskSubtype(f.Subtype):
		r.taskFrame(f)
	}
}

// isTaskSubtype reports a system subtype of a task's lifecycle.
func isTaskSubtype(subtype string) bool {
	switch subtype {
	case "task_started", "task_notification", "task_updated", "background_tasks_changed":
		return true
	}
	return false
}

// ChildSession is the session id of the announced child of the task
// taskID (the CLI's agent id); ok is false without one.
func (r *Router) ChildSession(taskID string) (sessionID string, ok bool) {
	if r == nil || !r.on {
		return "", false
	}
	if c := r.childOfTask(taskID); c != nil && c.announced {
		return c.sessionID, true
	}
	return "", false
}

// storedHistory is the subagent history of the root session, found anew
// at each look-up (the transcript appears with the first turn).
type storedHistory struct{ h Host }

func (s storedHistory) lineage(agentID string) []history.LineageEntry {
	if path, ok := s.h.Transcript(); ok {
		return history.Lineage(path, agentID)
	}
	return nil
}

func (s storedHistory) launchedBy(launchID string) string {
	if path, ok := s.h.Transcript(); ok {
		return history.LaunchedBy(path, launchID)
	}
	return ""
}
