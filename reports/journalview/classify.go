package journalview

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/airwire/airwire/internal/journal"
)

// probe is what the page reads of a message, whatever its lane: the
// JSON-RPC envelope and session update of the client lane, the frame type
// and stream event of the cli lane, the SSE event of the model lane.
// Members of another shape are skipped.
type probe struct {
	Method *string          `json:"method"`
	ID     *json.RawMessage `json:"id"`
	Error  *json.RawMessage `json:"error"`
	Params *struct {
		Update *struct {
			SessionUpdate string          `json:"sessionUpdate"`
			Title         string          `json:"title"`
			ToolCallID    string          `json:"toolCallId"`
			Content       json.RawMessage `json:"content"`
		} `json:"update"`
		ToolCall *struct {
			Title      string `json:"title"`
			ToolCallID string `json:"toolCallId"`
		} `json:"toolCall"`
	} `json:"params"`
	Type  string `json:"type"`
	Event *struct {
		Type  string `json:"type"`
		Delta *delta `json:"delta"`
	} `json:"event"`
	Delta *delta `json:"delta"`
	// Path and Status are in the model lane's request and response heads.
	Path   string `json:"path"`
	Status int    `json:"status"`
}

// delta is a streamed piece of a content block (Messages API SSE).
type delta struct {
	Type        string `json:"type"`
	Text        string `json:"text"`
	Thinking    string `json:"thinking"`
	PartialJSON string `json:"partial_json"`
}

func (d *delta) text() string {
	if d == nil {
		return ""
	}
	return d.Text + d.Thinking + d.PartialJSON
}

// probeOf reads a message's probe; a message of another shape gives what
// could be read.
func probeOf(msg json.RawMessage) probe {
	var p probe
	if len(msg) > 0 {
		_ = json.Unmarshal(msg, &p) // a member of another type is skipped; the rest is read
	}
	return p
}

// updateKind is the sessionUpdate of a session/update notification, or "".
func (p *probe) updateKind() string {
	if p.Params == nil || p.Params.Update == nil {
		return ""
	}
	return p.Params.Update.SessionUpdate
}

// chunkKinds are the session updates that stream: consecutive ones of a
// session fold into one card.
func isChunk(kind string) bool {
	return kind == "agent_message_chunk" || kind == "agent_thought_chunk" || kind == "user_message_chunk"
}

// streamOf names the stream an entry belongs to for folding: a session of
// the client lane, a CLI process on the cli and model lanes. "" is the
// journal itself: such an entry folds only into the card just before it.
func streamOf(e *journal.Entry) string {
	switch {
	case e.Kind != journal.KindMsg:
		return ""
	case e.Lane == journal.LaneClient:
		return "client|" + e.Session
	case e.Lane == journal.LaneCLI:
		return "cli|" + e.Proc
	case e.Lane == journal.LaneModel:
		return "model|" + e.Proc
	}
	return ""
}

// foldKey is the key under which consecutive messages of one stream fold
// into one card ("": the entry never folds): the agent's message and
// thought chunks of a session, the CLI's stream_event deltas, the model
// API's content_block_delta events of one exchange, and consecutive stderr
// lines of one process.
func foldKey(e *journal.Entry, p *probe) string {
	switch {
	case e.Kind == journal.KindStderr:
		return "stderr|" + e.Proc
	case e.Kind != journal.KindMsg:
		return ""
	case e.Lane == journal.LaneClient && e.Method == "session/update" && isChunk(p.updateKind()):
		return "chunk|" + string(e.Dir) + "|" + e.Session + "|" + p.updateKind()
	case e.Lane == journal.LaneCLI && e.Dir == journal.DirCLI && p.Type == "stream_event" && p.Event != nil &&
		p.Event.Type == "content_block_delta" && p.Event.Delta != nil:
		return "delta|" + e.Proc + "|" + p.Event.Delta.Type
	case e.Lane == journal.LaneModel && e.Dir == journal.DirModel && strings.HasSuffix(e.Method, " content_block_delta") &&
		p.Delta != nil:
		return "sse|" + e.Proc + "|" + string(e.ID) + "|" + p.Delta.Type
	}
	return ""
}

// deltaText is the streamed text a message carries: a chunk's text, a
// stream event's or SSE event's delta.
func deltaText(p *probe) string {
	if k := p.updateKind(); isChunk(k) {
		var c struct{ Text string }
		_ = json.Unmarshal(p.Params.Update.Content, &c) // an image or resource chunk has no text
		return c.Text
	}
	if p.Event != nil {
		return p.Event.Delta.text()
	}
	return p.Delta.text()
}

// toolTitle is the title (else the id) of the tool call a tool_call or
// tool_call_update notification or a permission request names, or "".
func toolTitle(p *probe) string {
	if p.Params == nil {
		return ""
	}
	if u := p.Params.Update; u != nil && (u.SessionUpdate == "tool_call" || u.SessionUpdate == "tool_call_update") {
		return firstOf(u.Title, u.ToolCallID, "tool call")
	}
	if tc := p.Params.ToolCall; tc != nil {
		return firstOf(tc.Title, tc.ToolCallID, "tool call")
	}
	return ""
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// parties says who sent an entry to whom; a process entry (stderr, spawn,
// exit) belongs to its process's party alone.
func parties(e *journal.Entry) (from, to string) {
	switch e.Kind {
	case journal.KindMsg, journal.KindNonJSON, journal.KindNote:
	default:
		return procParty(e.Proc), ""
	}
	switch {
	case e.Lane == journal.LaneClient && e.Dir == journal.DirEditor:
		return PartyEditor, PartyAgent
	case e.Lane == journal.LaneClient && e.Dir == journal.DirAgent:
		return PartyAgent, PartyEditor
	case e.Lane == journal.LaneCLI && e.Dir == journal.DirAgent:
		return PartyAgent, PartyCLI
	case e.Lane == journal.LaneCLI && e.Dir == journal.DirCLI:
		return PartyCLI, PartyAgent
	case e.Lane == journal.LaneModel && e.Dir == journal.DirCLI:
		return PartyCLI, PartyModel
	case e.Lane == journal.LaneModel && e.Dir == journal.DirModel:
		return PartyModel, PartyCLI
	}
	return procParty(e.Proc), ""
}

// procParty is the party a process plays: the agent, or a CLI (cli-N).
func procParty(proc string) string {
	if strings.HasPrefix(proc, "cli") {
		return PartyCLI
	}
	return PartyAgent
}

// labelOf says what an entry is: its method with the part of a JSON-RPC
// exchange (a result, an error) or the session update kind, the CLI frame
// type with its stream event, the model API exchange's event, or the kind
// of a process entry.
func labelOf(e *journal.Entry, p *probe) string {
	switch e.Kind {
	case journal.KindStderr:
		return "stderr"
	case journal.KindSpawn:
		return "started"
	case journal.KindExit:
		return "ended"
	case journal.KindNote:
		return firstOf(joinNonEmpty(e.Method, e.Reason), "note")
	case journal.KindNonJSON:
		return firstOf(joinNonEmpty(e.Method, "not JSON"), "not JSON")
	}
	switch e.Lane {
	case journal.LaneClient:
		return clientLabel(e, p)
	case journal.LaneCLI:
		if p.Type == "stream_event" && p.Event != nil && p.Event.Type != "" {
			return "stream_event: " + p.Event.Type
		}
	case journal.LaneModel:
		return modelLabel(e, p)
	}
	return firstOf(e.Method, "message")
}

// modelLabel is the label of a model-lane message: the exchange's method
// and path with its number, and which part of the exchange it is (an SSE
// event names itself in the method).
func modelLabel(e *journal.Entry, p *probe) string {
	m := firstOf(e.Method, "message")
	if len(e.ID) > 0 {
		m += " [" + string(e.ID) + "]"
	}
	switch {
	case strings.Count(e.Method, " ") >= 2: // an SSE event
		return m
	case e.Dir == journal.DirCLI && p.Method != nil && p.Path != "":
		return m + " request head"
	case e.Dir == journal.DirCLI:
		return m + " request body"
	case p.Status != 0:
		return m + " response " + strconv.Itoa(p.Status)
	}
	return m + " response body"
}

// clientLabel is the label of a client-lane message.
func clientLabel(e *journal.Entry, p *probe) string {
	m := firstOf(e.Method, "message")
	switch {
	case p.Method == nil && p.Error != nil:
		return m + " → error"
	case p.Method == nil && p.ID != nil:
		return m + " → result"
	case p.updateKind() != "":
		return m + ": " + p.updateKind()
	}
	return m
}

func joinNonEmpty(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

// exitText says how a process ended.
func exitText(x *journal.Exit) string {
	if x.Signal != "" {
		return "killed by " + x.Signal
	}
	return "exit " + strconv.Itoa(x.Code)
}

// cutUTF8 is s cut to at most n bytes, at a rune boundary.
func cutUTF8(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
