package adapter

import (
	"bytes"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/internal/jsonrpc"
	"github.com/airwire/airwire/internal/jsonwalk"
)

// The streamed text of a turn is almost all of its CLI lines: one
// text_delta (or thinking_delta) stream_event per few words. Those lines
// go from the CLI to the editor on a short path: the delta is read with
// one walk of the event, and the chunk update is written into a reused
// buffer, byte for byte what the map form marshals to.

// chunkBuffers are the translator's reused bytes for the short path.
type chunkBuffers struct {
	frame []byte // the session/update params being built
	text  []byte // a delta's text when it had escapes
}

// textDelta sends a main-session text or thinking delta and reports true;
// any other line (a subagent's, another event, a delta it does not read
// the simple way) it leaves to message. Tool calls and usage read nothing
// in text deltas (TestTextDeltasCarryNoToolCallsOrUsage), so skipping
// their Frame is what message would do.
func (t *translator) textDelta(ev *claude.StreamEvent) bool {
	if ev.Event.Type != "content_block_delta" || ev.ParentToolUseID != nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	kind, text, ok := deltaText(ev.Event.Raw, &t.buf.text)
	if !ok {
		return false
	}
	t.chunk(kind, ev.Event.Index, text)
	return true
}

// deltaText reads the delta of a content_block_delta event: the chunk
// kind and text of a text_delta or thinking_delta. ok is false for other
// deltas and for keys encoding/json would match another way (escaped or
// in another case).
func deltaText(event []byte, scratch *[]byte) (kind string, text []byte, ok bool) {
	var delta []byte
	var o jsonwalk.Object
	o.Reset(event)
	for k, v, more := o.Next(); more; k, v, more = o.Next() {
		switch string(k) {
		case "delta":
			if delta != nil {
				return "", nil, false // encoding/json would merge the two
			}
			delta = v
		case "type", "index", "message", "content_block", "usage":
		default:
			if unusualKey(k, "delta") {
				return "", nil, false
			}
		}
	}
	var typ, txt, thinking []byte
	o.Reset(delta)
	for k, v, more := o.Next(); more; k, v, more = o.Next() {
		switch string(k) {
		case "type":
			typ = v
		case "text":
			txt = v
		case "thinking":
			thinking = v
		default:
			if unusualKey(k, "type", "text", "thinking", "partial_json") {
				return "", nil, false
			}
		}
	}
	switch string(typ) {
	case `"text_delta"`:
		kind = "agent_message_chunk"
	case `"thinking_delta"`:
		kind, txt = "agent_thought_chunk", thinking
	default:
		return "", nil, false
	}
	if txt == nil {
		return kind, nil, true
	}
	text, ok = jsonwalk.Text(txt, scratch)
	return kind, text, ok
}

// unusualKey reports a key encoding/json might match to one of names
// although it is not spelled the same: escaped, or in another case.
func unusualKey(k []byte, names ...string) bool {
	if bytes.IndexByte(k, '\\') >= 0 {
		return true
	}
	for _, n := range names {
		if bytes.EqualFold(k, []byte(n)) {
			return true
		}
	}
	return false
}

// notifyChunk sends the agent_message_chunk or agent_thought_chunk of
// text. The update is written as json.Marshal writes
// {"sessionId":…,"update":textUpdate(kind, text, messageID)}: keys sorted.
func (t *translator) notifyChunk(kind string, text []byte, messageID string) {
	t.buf.frame = appendChunkParams(t.buf.frame[:0], t.s.ID, kind, text, messageID)
	_ = t.s.agent.conn.Notify("session/update", jsonrpc.Encoded(t.buf.frame))
	if cap(t.buf.frame) > 64<<10 {
		t.buf.frame = nil
	}
}

func appendChunkParams(dst []byte, sessionID, kind string, text []byte, messageID string) []byte {
	dst = jsonwalk.AppendString(append(dst, `{"sessionId":`...), sessionID)
	dst = jsonwalk.AppendString(append(dst, `,"update":{"content":{"text":`...), text)
	dst = append(dst, `,"type":"text"}`...)
	if messageID != "" {
		dst = jsonwalk.AppendString(append(dst, `,"messageId":`...), messageID)
	}
	dst = jsonwalk.AppendString(append(dst, `,"sessionUpdate":`...), kind)
	return append(dst, "}}"...)
}
