package adapter

import "github.com/airwire/airwire/adapter/claude"

// A memory recall (system/memory_recall: memories Claude Code selected or
// synthesized before the model answers) is shown as the reference shows
// it: a completed read tool call, id the frame's uuid, titled "Recalled N
// memories" with the memory files as locations, or "Recalled synthesized
// memory" with the recalled text as content.

// memoryRecallUpdate is the tool_call update of a memory_recall frame.
func memoryRecallUpdate(m *claude.Frame) map[string]any {
	u := map[string]any{"sessionUpdate": "tool_call", "toolCallId": m.UUID, "kind": "read", "status": "completed",
		"_meta": map[string]any{"claudeCode": map[string]any{"toolName": "memory_recall", "toolResponse": map[string]any{"mode": m.Mode}}}}
	var locations, content []map[string]any
	for _, mem := range m.Memories {
		if m.Mode != "synthesize" {
			locations = append(locations, map[string]any{"path": mem.Path})
		} else if text, ok := mem.Content.(string); ok {
			content = append(content, map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": text}})
		}
	}
	switch n := len(m.Memories); {
	case m.Mode == "synthesize":
		u["title"] = "Recalled synthesized memory"
	case n == 1:
		u["title"] = "Recalled 1 memory"
	default:
		u["title"] = sprintf("Recalled %d memories", n)
	}
	if len(locations) > 0 {
		u["locations"] = locations
	}
	if len(content) > 0 {
		u["content"] = content
	}
	return u
}
