package adapter

import (
	"strings"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/adapter/compaction"
	"github.com/airwire/airwire/internal/jsonrpc"
	"github.com/airwire/airwire/internal/jsonwalk"
)

// The streamed text of a turn is almost all of its CLI lines: one
// text_delta (or thinking_delta) stream_event per few words. Those lines
// go from the CLI to the editor on a short path: the frame's delta (read
// in the frame's one walk of the line) becomes the chunk update, written
// into a reused buffer, byte for byte what the map form marshals to.

// rootText is the root conversation's text output: the streamed chunks
// of the message under way, the tail of a consolidated message that was
// not streamed, notices and local command output.
type rootText struct {
	s          *Session
	compaction *compaction.Lifecycle // the translator's
	// messageID is the API message id of the stream under way (from its
	// message_start): every chunk of that message carries it.
	messageID string
	// streamed holds, per content block index of the current message, the
	// text already sent as chunks, so the consolidated assistant message
	// sends only the tail that was not streamed.
	streamed map[int]*strings.Builder
	// shown: a message chunk went out since the last result.
	shown bool
	// noticed holds the CLI notices sent as `notice` updates since the last
	// result (notices.Normalize), noticedTools the tool uses they named.
	noticed      []string
	noticedTools map[string]bool
	frame        []byte // the session/update params being built, reused
}

// begin starts the stream of message id ("" for none).
func (t *rootText) begin(id string) {
	t.messageID = id
	clear(t.streamed)
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
	t.text.chunk(kind, f.Event.Index, text)
	return true
}

// notifyChunk sends the agent_message_chunk or agent_thought_chunk of
// text. The update is written as json.Marshal writes
// {"sessionId":…,"update":textUpdate(kind, text, messageID)}: keys sorted.
// An ACP v2 client gets the same frame unless the v2 mapping changes the
// chunk (acpv2.Updates.ChunkAsIs): then it goes through that mapping.
func (t *rootText) notifyChunk(kind, text, messageID string) {
	if v2 := t.s.agent.v2.Load(); v2 != nil && !v2.updates.ChunkAsIs(t.s.ID, kind, messageID) {
		v2.notify(t.s.agent.conn, t.s.ID, textUpdate(kind, text, messageID))
		return
	}
	t.frame = appendChunkParams(t.frame[:0], t.s.ID, kind, text, messageID)
	_ = t.s.agent.conn.Notify("session/update", jsonrpc.Encoded(t.frame))
	if cap(t.frame) > 64<<10 {
		t.frame = nil
	}
}

// chunk sends streamed text of block index and remembers it.
func (t *rootText) chunk(kind string, index int, text string) {
	if len(text) == 0 {
		return
	}
	b := t.streamed[index]
	if b == nil {
		b = &strings.Builder{}
		t.streamed[index] = b
	}
	b.WriteString(text)
	if kind == "agent_message_chunk" && !t.showing(text) {
		return
	}
	t.notifyChunk(kind, text, t.messageID)
}

// unstreamedTail returns the part of a consolidated block's text that no
// streamed block of the current message already sent.
func (t *rootText) unstreamedTail(text string) string {
	for i, b := range t.streamed {
		if sent := b.String(); strings.HasPrefix(text, sent) {
			delete(t.streamed, i)
			return text[len(sent):]
		}
	}
	return text
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
