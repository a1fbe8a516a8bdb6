package journal

import (
	"encoding/json"
	"errors"
	"time"
)

// Version is the journal format version this package writes and reads.
const Version = 1

// ErrUnsupportedVersion is returned by Open for a header of another version.
var ErrUnsupportedVersion = errors.New("unsupported journal version")

// ErrNotJournal is returned by Open when the first line is not a journal header.
var ErrNotJournal = errors.New("not an airwire journal")

// Header is the first line of a journal.
type Header struct {
	Journal  string    `json:"journal"` // always "airwire"
	Version  int       `json:"version"`
	Airwire  string    `json:"airwire"`
	Start    time.Time `json:"start"`
	AgentCmd []string  `json:"agent_cmd,omitempty"`
	// CLICmd is the argv of the first Claude CLI spawn that spoke stream-json;
	// each spawn also has its own spawn entry.
	CLICmd []string `json:"cli_cmd,omitempty"`
	// Env lists the names (never the values) of the agent's environment.
	Env []string `json:"env,omitempty"`
	// Redaction is "on" or "off" (--no-redact).
	Redaction string `json:"redaction,omitempty"`
}

// Kind is what an entry records.
type Kind string

const (
	// KindMsg is one JSON frame, embedded verbatim in msg.
	KindMsg Kind = "msg"
	// KindNonJSON is a frame that is not JSON (or not UTF-8, or truncated,
	// or over the size limit); reason says which.
	KindNonJSON Kind = "non_json"
	// KindStderr is one line a process wrote to its stderr.
	KindStderr Kind = "stderr"
	// KindSpawn is a process start: argv, pid, process id.
	KindSpawn Kind = "spawn"
	// KindExit is a process end: exit code or signal.
	KindExit Kind = "exit"
	// KindNote is something the recorder itself observed (a write to a
	// closed peer, a lost shim connection).
	KindNote Kind = "note"
)

// Lane is which connection an entry belongs to.
type Lane string

const (
	// LaneClient is editor ↔ agent (ACP).
	LaneClient Lane = "client"
	// LaneCLI is agent ↔ Claude Code CLI (stream-json + control protocol).
	LaneCLI Lane = "cli"
	// LaneModel is Claude Code CLI ↔ model API (HTTP), recorded by the
	// loopback reverse proxy of `airwire record --model-lane`.
	LaneModel Lane = "model"
)

// Dir is who sent a frame.
type Dir string

const (
	// DirEditor: the editor sent it to the agent.
	DirEditor Dir = "editor"
	// DirAgent: the agent sent it (to the editor on the client lane, to the CLI on the cli lane).
	DirAgent Dir = "agent"
	// DirCLI: the Claude CLI sent it (to the agent on the cli lane, an HTTP
	// request to the model API on the model lane).
	DirCLI Dir = "cli"
	// DirModel: the model API sent it to the CLI (a response head, an SSE
	// event, a response body, the end of a response).
	DirModel Dir = "model"
)

// Exit describes how a process ended.
type Exit struct {
	Code   int    `json:"code"`
	Signal string `json:"signal,omitempty"`
}

// Entry is one line after the header.
type Entry struct {
	Seq  uint64 `json:"seq"`
	TNs  int64  `json:"t_ns"`
	Kind Kind   `json:"kind"`
	Lane Lane   `json:"lane,omitempty"`
	Dir  Dir    `json:"dir,omitempty"`
	// Proc names the process: "agent", or "cli-1", "cli-2", … per CLI spawn.
	Proc    string `json:"proc,omitempty"`
	Session string `json:"session,omitempty"`
	// Method is the JSON-RPC method (replies: the method of the request
	// they answer) or, on the cli lane, type[/subtype].
	Method string          `json:"method,omitempty"`
	ID     json.RawMessage `json:"id,omitempty"`
	Msg    json.RawMessage `json:"msg,omitempty"`
	Text   *string         `json:"text,omitempty"`
	B64    []byte          `json:"b64,omitempty"`
	Reason string          `json:"reason,omitempty"`
	// Bytes is the size of the frame as it crossed the wire.
	Bytes int      `json:"bytes,omitempty"`
	Argv  []string `json:"argv,omitempty"`
	Pid   int      `json:"pid,omitempty"`
	Exit  *Exit    `json:"exit,omitempty"`
	// Redacted counts the values redaction replaced in this entry.
	Redacted int `json:"redacted,omitempty"`
	// Lead and Trail keep white space around a JSON frame's value other than
	// its final newline (a CR of CRLF, spaces), so Frame rebuilds the bytes.
	Lead  string `json:"lead,omitempty"`
	Trail string `json:"trail,omitempty"`
}

// Frame rebuilds the bytes that crossed the wire for a msg or non_json
// entry (exactly, unless values were redacted).
func (e *Entry) Frame() []byte {
	var b []byte
	switch e.Kind {
	case KindMsg:
		if e.Text != nil { // a whole document: text is exact, msg compacted
			return []byte(*e.Text)
		}
		b = append(b, e.Lead...)
		b = append(b, e.Msg...)
		b = append(b, e.Trail...)
		return append(b, '\n')
	case KindNonJSON:
		if e.B64 != nil {
			b = append(b, e.B64...)
		} else {
			b = append(b, e.TextOf()...)
		}
		if e.Reason != ReasonTruncated && e.Reason != ReasonDocument {
			b = append(b, '\n')
		}
		return b
	}
	return nil
}

// Reasons of non_json entries.
const (
	ReasonTruncated = "truncated: the stream ended without a final newline"
	ReasonTooLong   = "oversized: the line exceeds the recorder's limit; only its first bytes are kept"
	// ReasonEntryTooLong replaces an entry whose journal line would pass
	// MaxLine (a document kept as msg and text, a long line of control
	// characters escaped): text keeps its first bytes, bytes its size.
	ReasonEntryTooLong = "oversized: the entry exceeds the journal's line limit; only its first bytes are kept"
	// ReasonDocument marks the whole output of a CLI run that does not speak
	// stream-json (--version); when it is JSON (auth status --json) the entry
	// is a msg with the compacted JSON in msg and the exact bytes in text.
	ReasonDocument = "document: the whole output of a non-stream-json run"
)

// Reasons of model-lane entries: a body or SSE event that is not journaled
// as msg, and the end note of each HTTP exchange.
const (
	ReasonBodyTooLong = "oversized: the body exceeds the recorder's limit; only its first bytes are kept (it was forwarded whole)"
	ReasonBodyNotJSON = "not JSON: the body is journaled as text (or b64)"
	ReasonBodyEncoded = "encoded: the body has a Content-Encoding; journaled as sent"
	ReasonSSEOther    = "sse: an event block that is not exactly one event line and one JSON data line; text holds it exactly"
	ReasonSSETooLong  = "oversized: an SSE event block over the recorder's limit; the rest of the stream is forwarded unjournaled"
	ReasonSSETail     = "truncated: the stream ended inside an SSE event block"

	// End notes: how the exchange ended.
	ReasonComplete  = "complete"
	ReasonDropped   = "dropped"   // the model API's connection broke mid-response
	ReasonCancelled = "cancelled" // the CLI went away (or the recording ended)
	ReasonFailed    = "failed"    // no response: the upstream could not be reached
)

// TextOf returns the entry's text, or "".
func (e *Entry) TextOf() string {
	if e.Text == nil {
		return ""
	}
	return *e.Text
}
