package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"

	"github.com/airwire/airwire/internal/lookup"
)

// Message is one conversation message of a stored session, in the shape
// the reference's SDK (getSessionMessages) gives it to the replay: the main
// thread's user and assistant messages on the active branch, in order.
type Message struct {
	// Type is "user" or "assistant".
	Type string
	// UUID is the transcript row's uuid; a user message's ACP messageId.
	UUID      string
	SessionID string
	// Message is the API message object (role, content, and for an
	// assistant id and model), as stored.
	Message json.RawMessage
	// Meta is the SDK's is_meta: the row is meta, a compact summary or
	// visible in the transcript only.
	Meta bool
	// CompactSummary marks the summary a compaction left.
	CompactSummary bool
	// OriginKind and OriginSubkind are the row's origin.kind and
	// origin.subkind ("" when absent).
	OriginKind, OriginSubkind string
	Timestamp                 string
	// ParentToolUseID is the launch of the subagent whose transcript holds
	// the message ("" for the session's own messages; see ReadSubagent).
	ParentToolUseID string
}

// entry is the part of a transcript row that the chain and the messages
// read. Rows other than user and assistant keep no message.
type entry struct {
	Type        string          `json:"type"`
	Subtype     string          `json:"subtype"`
	UUID        string          `json:"uuid"`
	ParentUUID  *string         `json:"parentUuid"`
	SessionID   string          `json:"sessionId"`
	Timestamp   string          `json:"timestamp"`
	IsSidechain bool            `json:"isSidechain"`
	TeamName    json.RawMessage `json:"teamName"`
	AgentID     string          `json:"agentId"`
	IsMeta      bool            `json:"isMeta"`
	IsCompact   bool            `json:"isCompactSummary"`
	VisibleOnly bool            `json:"isVisibleInTranscriptOnly"`
	SourceTool  string          `json:"sourceToolAssistantUUID"`
	Message     json.RawMessage `json:"message"`
	Origin      *struct {
		Kind    string `json:"kind"`
		Subkind string `json:"subkind"`
	} `json:"origin"`
	Attachment *struct {
		Type string `json:"type"`
	} `json:"attachment"`
	CompactMetadata *compactMetadata `json:"compactMetadata"`

	// index is the row's position among the kept rows, in file order.
	index int
	// msgID and toolUses/toolResults are read from Message once.
	msgID       string
	toolUses    []string
	toolResults []string
}

// compactMetadata is where a compact_boundary row says which messages
// before it stay in the conversation.
type compactMetadata struct {
	PreservedSegment *struct {
		HeadUUID   string `json:"headUuid"`
		AnchorUUID string `json:"anchorUuid"`
		TailUUID   string `json:"tailUuid"`
	} `json:"preservedSegment"`
	PreservedMessages *struct {
		AnchorUUID string   `json:"anchorUuid"`
		UUIDs      []string `json:"uuids"`
	} `json:"preservedMessages"`
}

func (e *entry) parent() string {
	if e.ParentUUID == nil {
		return ""
	}
	return *e.ParentUUID
}

func (e *entry) hasTeam() bool {
	return len(e.TeamName) > 0 && !bytes.Equal(e.TeamName, []byte("null")) && !bytes.Equal(e.TeamName, []byte(`""`))
}

// conversationRow reports whether a row type takes part in the chain, as
// the SDK keeps them: user, assistant, progress, system and attachment
// rows with a uuid.
func conversationRow(t string) bool {
	switch t {
	case "user", "assistant", "progress", "system", "attachment":
		return true
	}
	return false
}

// LargeTranscript is the size above which a transcript is read from its
// last compaction on only, as the reference's SDK does (5 MiB): the history
// before a full compaction is not part of the conversation any more.
const LargeTranscript = 5 << 20

// ReadMessages reads the transcript file at path into the messages that
// `session/load` replays: the main thread's user and assistant messages on
// the branch that ends at the latest leaf, without meta rows. Lines that
// are not JSON are skipped. A transcript larger than LargeTranscript keeps
// in memory only what follows its last full compaction.
func ReadMessages(path string) ([]Message, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	entries, err := readEntries(f, st.Size() > LargeTranscript)
	if err != nil {
		return nil, err
	}
	return messagesOf(chain(entries)), nil
}

// readEntries parses the conversation rows of r, one JSON object a line;
// bad lines are skipped. With fromLastCompaction, a compact_boundary row
// that keeps no earlier segment drops the rows read so far.
func readEntries(r io.Reader, fromLastCompaction bool) ([]*entry, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var out []*entry
	for {
		line, err := br.ReadBytes('\n')
		if e := parseEntry(line); e != nil {
			if fromLastCompaction && e.fullCompaction() {
				out = out[:0]
			}
			e.index = len(out)
			out = append(out, e)
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// parseEntry decodes one line; nil for a blank or bad line or a row that
// is not part of the conversation.
func parseEntry(line []byte) *entry {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return nil
	}
	var e entry
	if json.Unmarshal(line, &e) != nil || e.UUID == "" || !conversationRow(e.Type) {
		return nil
	}
	if e.Type != "user" && e.Type != "assistant" {
		e.Message = nil
	}
	e.readMessage()
	return &e
}

// fullCompaction reports a compact_boundary that keeps nothing before it.
func (e *entry) fullCompaction() bool {
	if e.Type != "system" || e.Subtype != "compact_boundary" {
		return false
	}
	m := e.CompactMetadata
	return m == nil || (m.PreservedSegment == nil && m.PreservedMessages == nil)
}

// readMessage reads the message id and the tool use and tool result ids.
func (e *entry) readMessage() {
	if len(e.Message) == 0 {
		return
	}
	var m struct {
		ID      json.RawMessage `json:"id"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(e.Message, &m) != nil {
		return
	}
	if e.Type == "assistant" {
		_ = json.Unmarshal(m.ID, &e.msgID)
	}
	var blocks []struct {
		Type      string `json:"type"`
		ID        any    `json:"id"`
		ToolUseID any    `json:"tool_use_id"`
	}
	if json.Unmarshal(m.Content, &blocks) != nil {
		return
	}
	for _, b := range blocks {
		if id, ok := b.ID.(string); ok && b.Type == "tool_use" {
			e.toolUses = append(e.toolUses, id)
		}
		if id, ok := b.ToolUseID.(string); ok && b.Type == "tool_result" {
			e.toolResults = append(e.toolResults, id)
		}
	}
}

// replayHiddenOrigins are the origin kinds of messages from other agents,
// sessions and channels: the SDK keeps such meta rows and the reference's
// replay drops them.
var replayHiddenOrigins = lookup.Set{
	"peer", "channel", "observer", "observer-activity",
	"slack-ping",
}

// messagesOf keeps the user and assistant rows of the main thread that
// the SDK returns and the replay does not hide.
func messagesOf(rows []*entry) []Message {
	var out []Message
	for _, e := range rows {
		if e.Type != "user" && e.Type != "assistant" {
			continue
		}
		kind := ""
		if e.Origin != nil {
			kind = e.Origin.Kind
		}
		// The SDK keeps a meta row only from another agent or channel; the
		// replay hides such a user row.
		if e.IsSidechain || e.hasTeam() || (e.IsMeta && !replayHiddenOrigins.Has(kind)) {
			continue
		}
		m := Message{Type: e.Type, UUID: e.UUID, SessionID: e.SessionID, Message: e.Message,
			Meta: e.IsMeta || e.IsCompact || e.VisibleOnly, CompactSummary: e.IsCompact, OriginKind: kind, Timestamp: e.Timestamp}
		if e.Origin != nil {
			m.OriginSubkind = e.Origin.Subkind
		}
		if e.Type == "user" && m.Meta && replayHiddenOrigins.Has(kind) {
			continue
		}
		out = append(out, m)
	}
	return out
}
