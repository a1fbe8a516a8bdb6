package adapter

import (
	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/internal/jsonrpc"
	"github.com/airwire/airwire/internal/jsonwalk"
)

// The streamed text of a turn is almost all of its CLI lines: one
// text_delta (or thinking_delta) stream_event per few words. Those lines
// go from the CLI to the editor on a short path: the frame's delta (read
// in the frame's one walk of the line) becomes the chunk update, written
// into a reused buffer, byte for byte what the map form marshals to.

// chunkBuffers are the translator's reused bytes for the short path.
type chunkBuffers struct {
	frame []byte // the session/update params being built
}

// textDelta sends a main-session text or thinking delta and reports true;
// any other line (a subagent's, another event or delta) it leaves to
// message. Tool calls and usage read nothing in text deltas
// (TestTextDeltasCarryNoToolCallsOrUsage), so skipping their Frame is
// what message would do.
func (t *translator) textDelta(f *claude.Frame) bool {
	if f.Type != "stream_event" || f.Event.Type != "content_block_delta" || f.Parent != nil {
		return false
	}
	var kind, text string
	switch f.Event.Delta.Type {
	case "text_delta":
		kind, text = "agent_message_chunk", f.Event.Delta.Text
	case "thinking_delta":
		kind, text = "agent_thought_chunk", f.Event.Delta.Thinking
	default:
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.chunk(kind, f.Event.Index, text)
	return true
}

// notifyChunk sends the agent_message_chunk or agent_thought_chunk of
// text. The update is written as json.Marshal writes
// {"sessionId":…,"update":textUpdate(kind, text, messageID)}: keys sorted.
func (t *translator) notifyChunk(kind, text, messageID string) {
	t.buf.frame = appendChunkParams(t.buf.frame[:0], t.s.ID, kind, text, messageID)
	_ = t.s.agent.conn.Notify("session/update", jsonrpc.Encoded(t.buf.frame))
	if cap(t.buf.frame) > 64<<10 {
		t.buf.frame = nil
	}
}

func appendChunkParams(dst []byte, sessionID, kind, text, messageID string) []byte {
	dst = jsonwalk.AppendString(append(dst, `{"sessionId":`...), sessionID)
	dst = jsonwalk.AppendString(append(dst, `,"update":{"content":{"text":`...), text)
	dst = append(dst, `,"type":"text"}`...)
	if messageID != "" {
		dst = jsonwalk.AppendString(append(dst, `,"messageId":`...), messageID)
	}
	dst = jsonwalk.AppendString(append(dst, `,"sessionUpdate":`...), kind)
	return append(dst, "}}"...)
}
