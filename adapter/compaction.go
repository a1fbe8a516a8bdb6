package adapter

import (
	"encoding/json"
	"strings"
)

// A context compaction (manual /compact or the CLI's automatic one) is one
// idempotent lifecycle (contract "Context compaction"), shown as the
// reference shows it: to a client that declared session.compaction as
// compaction_update updates (in_progress, then one terminal status with the
// summary the PostCompact hook reported), to every other client as the
// synthetic "Compact conversation" tool call (kind think, tool name
// compact, the boundary's facts in rawOutput, a failure's error as its
// content).
//
// The CLI's signals: system/status compacting (start), its compact_result
// success or failed (finish), compact_boundary (finish, adding the token
// counts), the API's compaction content block in the stream (progress),
// and the PostCompact hook (the summary). The CLI can repeat a terminal
// status and can skip the opening one, so the state lives until the
// turn's result. AIR's `_meta.jetbrains.air.contextCompaction` is in
// context_compaction.go; the replay of a compaction's stored summary on
// session/load in compaction_replay.go. Not modelled: the idle compaction the reference
// starts by itself.

type compaction struct {
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
}

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
func (c *compaction) open(id, terminal string) *compactionState {
	st := &compactionState{id: id, terminal: terminal, summary: c.pendingSummary}
	c.pendingSummary, c.active, c.delivered = nil, st, true
	return st
}

// start handles the compacting status.
func (c *compaction) start(id string) []map[string]any {
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
func (c *compaction) heartbeat(fallbackID string, chunk *string) []map[string]any {
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
func (c *compaction) recordSummary(raw string) bool {
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
func (c *compaction) finish(id, status string, facts compactionFacts, enrich bool) []map[string]any {
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
func (c *compaction) terminalUpdate(st *compactionState, first bool, facts compactionFacts) map[string]any {
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
func (c *compaction) compactionToolCallEnd(id, status string, facts compactionFacts, first bool) map[string]any {
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

// reset closes the lifecycle at a turn boundary: a compaction_update still
// in progress ends cancelled (the tool call is left as it was).
func (c *compaction) reset() []map[string]any {
	st := c.active
	c.active, c.delivered, c.duplicateError = nil, false, nil
	if st == nil || st.terminal != "" || !c.updates {
		return nil
	}
	st.terminal = "cancelled"
	return []map[string]any{{"sessionUpdate": "compaction_update", "compactionId": st.id, "status": "cancelled"}}
}

// interrupt abandons the work under way (a cancel, a failed turn).
func (c *compaction) interrupt() []map[string]any {
	if c.updates {
		c.interrupted, c.pendingSummary = true, nil
	}
	return c.reset()
}

// resume: a new turn started, so the abandoned work has drained.
func (c *compaction) resume() { c.interrupted = false }

// consumeDuplicateError drops the one local-command copy of a failed
// compaction's error.
func (c *compaction) consumeDuplicateError(content string) bool {
	if c.duplicateError == nil || strings.TrimSpace(content) != strings.TrimSpace(*c.duplicateError) {
		return false
	}
	c.duplicateError = nil
	return true
}

// boundaryFacts are the facts of a compact_boundary's compact_metadata
// (nil when it has none): the CLI's "auto" trigger is "automatic", any
// other "manual".
func boundaryFacts(raw json.RawMessage) compactionFacts {
	var m *struct {
		Trigger    string   `json:"trigger"`
		PreTokens  *float64 `json:"pre_tokens"`
		PostTokens *float64 `json:"post_tokens"`
		DurationMs *float64 `json:"duration_ms"`
	}
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return compactionFacts{}
	}
	f := compactionFacts{"trigger": "manual"}
	if m.Trigger == "auto" {
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
