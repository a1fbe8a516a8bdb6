package compaction

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/claude"
)

// The CLI frames that drive a turn's compaction lifecycle (lifecycle.go).

// StatusFrame handles system/status: compacting opens the compaction, a
// compact_result ends it.
func (c *Lifecycle) StatusFrame(m *claude.Frame) []map[string]any {
	switch {
	case m.Status != nil && *m.Status == "compacting":
		return c.start(m.UUID)
	case m.CompactResult == "success":
		return c.finish(m.UUID, "completed", nil, false)
	case m.CompactResult == "failed":
		facts := compactionFacts{}
		if m.CompactError != "" {
			facts["error"] = m.CompactError
		}
		return c.finish(m.UUID, "failed", facts, false)
	}
	return nil
}

// BoundaryFrame handles system/compact_boundary: the compaction is
// complete, with its token counts (the usage tracker then reports the
// retained tokens).
func (c *Lifecycle) BoundaryFrame(m *claude.Frame) []map[string]any {
	return c.finish(m.UUID, "completed", boundaryFacts(m.CompactMetadata, c.AgentCompacting != nil && c.AgentCompacting()), true)
}

// StreamFrame handles the API's compaction content block of the root
// conversation (a subagent's own compaction is not the session's).
func (c *Lifecycle) StreamFrame(m *claude.Frame) []map[string]any {
	if m.Parent != nil {
		return nil
	}
	switch e := &m.Event; {
	case e.Type == "content_block_start" && e.ContentBlock.Type == "compaction":
		return c.heartbeat(m.UUID, e.ContentBlock.Content)
	case e.Type == "content_block_delta" && e.Delta.Type == "compaction_delta":
		return c.heartbeat(m.UUID, e.Delta.Content)
	}
	return nil
}

// Hook takes the PostCompact hook's summary of the root conversation from
// a hook_callback frame.
func (c *Lifecycle) Hook(frame json.RawMessage) {
	var in struct {
		Event   string  `json:"hook_event_name"`
		AgentID string  `json:"agent_id"`
		Summary *string `json:"compact_summary"`
	}
	if json.Unmarshal(hookInput(frame), &in) != nil || in.Event != "PostCompact" || in.AgentID != "" || in.Summary == nil {
		return
	}
	c.recordSummary(*in.Summary)
}

// hookInput is the input of a hook_callback frame.
func hookInput(frame json.RawMessage) json.RawMessage {
	var f struct {
		Request struct {
			Input json.RawMessage `json:"input"`
		} `json:"request"`
	}
	_ = json.Unmarshal(frame, &f)
	return f.Request.Input
}
