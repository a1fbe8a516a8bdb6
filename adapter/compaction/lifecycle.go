package compaction

import (
	"strings"

	"github.com/airwire/airwire/adapter/caps"
	"github.com/airwire/airwire/adapter/claude"
)

// The lifecycle of one session's compactions and the two forms it reports
// in (contract "Context compaction").

// Lifecycle is a session's compaction lifecycle. Its methods return the
// updates to send, in order; the caller serializes them. The zero
// Lifecycle reports the tool call form to a client that is not AIR.
type Lifecycle struct {
	updates bool // the client takes compaction_update
	air     bool // the client is AIR: contextCompaction facts, no rawOutput
	active  *compactionState
	// delivered says the turn showed compaction output (a synthetic
	// assistant message or the result then repeats it).
	delivered bool
	// duplicateError is a failed compaction's error, which the CLI also
	// prints as local command output: that one copy is dropped.
	duplicateError *string
	// interrupted: after a cancel, frames of the abandoned work are ignored
	// until a new turn starts.
	interrupted bool
	// pendingSummary is a PostCompact summary that came before its
	// compaction's opening status was read.
	pendingSummary *string
	// AgentCompacting reports whether the /compact under way is the
	// agent's own (an idle compaction): its trigger is then "automatic",
	// where Claude Code says manual. nil: never.
	AgentCompacting func() bool
}

// New is the compaction lifecycle of a session of client c: the
// compaction_update form for a client that declared session.compaction,
// else the synthetic tool call; the contextCompaction `_meta` only for AIR.
func New(c caps.Client) Lifecycle {
	return Lifecycle{updates: c.Compaction, air: c.AIR.Client}
}

// Delivered says the turn showed compaction output: a synthetic assistant
// message or the result then repeats it.
func (c *Lifecycle) Delivered() bool { return c.delivered }

type compactionState struct {
	id            string
	terminal      string
	heartbeatSent bool
	summary       *string
	streamed      *string
	// metaSent are the `_meta.jetbrains.air` keys the tool call form sent,
	// as JSON (AIR only).
	metaSent map[string]string
}

// compactionFacts are the boundary's facts (trigger, preTokens, postTokens,
// durationMs) and a failure's error.
type compactionFacts map[string]any

const compactionTitle = "Compact conversation"

// compactToolMeta is the compaction tool call's _meta (a function, not a
// package-level map literal: those are built by init code at every start).
func compactToolMeta() map[string]any {
	return map[string]any{"claudeCode": map[string]any{"toolName": "compact"}}
}

// open makes id the active compaction and marks output delivered.
func (c *Lifecycle) open(id, terminal string) *compactionState {
	st := &compactionState{id: id, terminal: terminal, summary: c.pendingSummary}
	c.pendingSummary, c.active, c.delivered = nil, st, true
	return st
}

// start handles the compacting status.
func (c *Lifecycle) start(id string) []map[string]any {
	if c.interrupted || (c.active != nil && c.active.terminal == "") {
		return nil
	}
	st := c.open(id, "")
	if c.updates {
		return []map[string]any{c.withUpdateMeta(map[string]any{"sessionUpdate": "compaction_update",
			"compactionId": id, "status": "in_progress"}, nil)}
	}
	return []map[string]any{c.withToolMeta(st, map[string]any{"sessionUpdate": "tool_call", "toolCallId": id,
		"title": compactionTitle, "kind": "think", "status": "in_progress"}, nil)}
}

// heartbeat handles the stream's compaction block: its text streams as
// summary chunks into an announced compaction_update; the tool call opens
// on first sight and says in_progress once.
func (c *Lifecycle) heartbeat(fallbackID string, chunk *string) []map[string]any {
	if c.updates {
		st := c.active
		if st == nil || st.terminal != "" || chunk == nil || *chunk == "" {
			return nil
		}
		streamed := derefOr(st.streamed, "") + *chunk
		st.streamed = &streamed
		return []map[string]any{{"sessionUpdate": "compaction_summary_chunk", "compactionId": st.id,
			"content": map[string]any{"type": "text", "text": *chunk}}}
	}
	var out []map[string]any
	if c.active == nil {
		out = c.start(fallbackID)
	}
	st := c.active
	if st == nil || st.terminal != "" || st.heartbeatSent {
		return out
	}
	st.heartbeatSent = true
	return append(out, c.withToolMeta(st, map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": st.id,
		"status": "in_progress"}, nil))
}

// recordSummary keeps the PostCompact hook's summary (compaction_update
// only) for the compaction under way, or the next one, and reports
// whether it kept one.
func (c *Lifecycle) recordSummary(raw string) bool {
	if c.interrupted || !c.updates {
		return false
	}
	summary, ok := compactionSummaryText(raw)
	if !ok {
		return false
	}
	if c.active != nil && c.active.terminal == "" {
		c.active.summary = &summary
	} else {
		c.pendingSummary = &summary
	}
	return true
}

// finish handles a terminal signal. enrich lets a later terminal signal
// (the boundary after the success status) add its facts.
func (c *Lifecycle) finish(id, status string, facts compactionFacts, enrich bool) []map[string]any {
	if c.interrupted {
		return nil
	}
	opened := c.active == nil
	first := opened || c.active.terminal == ""
	st := c.active
	if st == nil {
		st = c.open(id, status)
	}
	if first {
		st.terminal = status
	} else if !enrich {
		return nil
	}
	if e, ok := facts["error"].(string); status == "failed" && ok && e != "" {
		c.duplicateError = &e
	}
	if c.updates {
		return []map[string]any{c.terminalUpdate(st, first, facts)}
	}
	if !opened && !first {
		status = ""
	}
	return []map[string]any{c.withToolMeta(st, c.compactionToolCallEnd(st.id, status, facts, opened), facts)}
}

// terminalUpdate is the compaction_update of a terminal signal: the
// summary goes with the first completed one, unless it streamed already.
func (c *Lifecycle) terminalUpdate(st *compactionState, first bool, facts compactionFacts) map[string]any {
	u := map[string]any{"sessionUpdate": "compaction_update", "compactionId": st.id, "status": st.terminal}
	streamed := st.streamed != nil && st.summary != nil && *st.streamed == *st.summary
	if first && st.terminal == "completed" && st.summary != nil && !streamed {
		u["summary"] = []map[string]any{{"type": "text", "text": *st.summary}}
	}
	if e, ok := facts["error"].(string); st.terminal == "failed" && ok && e != "" {
		u["error"] = e
	}
	if first || len(withoutError(facts)) > 0 {
		u = c.withUpdateMeta(u, withoutError(facts))
	}
	return u
}

// compactionToolCallEnd is the tool call's terminal report, without its
// `_meta`; a missed opening makes it the first report, a tool_call.
// status "" leaves the status as it was. Only a client that is not AIR
// gets the facts in rawOutput.
func (c *Lifecycle) compactionToolCallEnd(id, status string, facts compactionFacts, first bool) map[string]any {
	u := map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": id}
	if first {
		u["sessionUpdate"], u["title"], u["kind"] = "tool_call", compactionTitle, "think"
		if status == "" {
			status = "completed"
		}
	}
	if status != "" {
		u["status"] = status
	}
	if e, ok := facts["error"].(string); status == "failed" && ok && e != "" {
		u["content"] = []map[string]any{{"type": "content", "content": map[string]any{"type": "text", "text": "Compaction failed: " + e}}}
	}
	if len(facts) > 0 && !c.air {
		u["rawOutput"] = map[string]any(facts)
	}
	return u
}

// Reset closes the lifecycle at a turn boundary: a compaction_update still
// in progress ends cancelled (the tool call is left as it was).
func (c *Lifecycle) Reset() []map[string]any {
	st := c.active
	c.active, c.delivered, c.duplicateError = nil, false, nil
	if st == nil || st.terminal != "" || !c.updates {
		return nil
	}
	st.terminal = "cancelled"
	return []map[string]any{{"sessionUpdate": "compaction_update", "compactionId": st.id, "status": "cancelled"}}
}

// Interrupt abandons the work under way (a cancel, a failed turn).
func (c *Lifecycle) Interrupt() []map[string]any {
	if c.updates {
		c.interrupted, c.pendingSummary = true, nil
	}
	return c.Reset()
}

// Resume: a new turn started, so the abandoned work has drained.
func (c *Lifecycle) Resume() { c.interrupted = false }

// ConsumeDuplicateError drops the one local-command copy of a failed
// compaction's error.
func (c *Lifecycle) ConsumeDuplicateError(content string) bool {
	if c.duplicateError == nil || strings.TrimSpace(content) != strings.TrimSpace(*c.duplicateError) {
		return false
	}
	c.duplicateError = nil
	return true
}

// boundaryFacts are the facts of a compact_boundary's compact_metadata
// (nil when it has none): the CLI's "auto" trigger is "automatic", any
// other "manual", except a /compact the agent sent by itself (byAgent),
// which no user asked for: "automatic" too. The reference calls it
// "idle", a trigger the contract does not have ("Context compaction").
func boundaryFacts(m *claude.CompactMetadata, byAgent bool) compactionFacts {
	if m == nil {
		return compactionFacts{}
	}
	f := compactionFacts{"trigger": "manual"}
	if m.Trigger == "auto" || byAgent {
		f["trigger"] = "automatic"
	}
	if m.PreTokens != nil {
		f["preTokens"] = *m.PreTokens
	}
	if m.PostTokens != nil {
		f["postTokens"] = *m.PostTokens
	}
	if m.DurationMs != nil {
		f["durationMs"] = *m.DurationMs
	}
	return f
}

func derefOr(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}
