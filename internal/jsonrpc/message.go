package jsonrpc

import "encoding/json"

// Kind is what a frame is, as far as JSON-RPC 2.0 goes.
type Kind uint8

const (
	// KindOther is JSON that is not a JSON-RPC message (for example a Claude
	// CLI stream-json line, or an array).
	KindOther Kind = iota
	// KindRequest has a method and an id: it wants a response.
	KindRequest
	// KindNotification has a method and no id.
	KindNotification
	// KindResponse has an id and a result.
	KindResponse
	// KindError has an id and an error.
	KindError
)

var kindNames = [...]string{"other", "request", "notification", "response", "error"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Message is the parsed view of one frame. Every json.RawMessage aliases the
// frame it was scanned from; copy it to keep it past the frame's life.
type Message struct {
	Kind    Kind
	JSONRPC string          // the "jsonrpc" member, normally "2.0"
	ID      json.RawMessage // raw id, nil when absent
	Method  string
	Params  json.RawMessage
	Result  json.RawMessage
	Error   json.RawMessage

	// Session is the session the message names: params.sessionId or
	// result.sessionId (ACP), or session_id (Claude CLI stream-json).
	Session string

	// Claude CLI stream-json view: top-level type; subtype (top level, or of
	// the control request/response body); request_id (top level, or of the
	// control response body); the control request and response bodies.
	Type      string
	Subtype   string
	RequestID string
	Request   json.RawMessage
	Response  json.RawMessage

	hasMethod bool
}

func (m *Message) classify() {
	switch {
	case m.hasMethod && m.ID != nil:
		m.Kind = KindRequest
	case m.hasMethod:
		m.Kind = KindNotification
	case m.ID != nil && m.Error != nil:
		m.Kind = KindError
	case m.ID != nil && m.Result != nil:
		m.Kind = KindResponse
	default:
		m.Kind = KindOther
	}
}

// IsCall reports whether m is a request or notification.
func (m *Message) IsCall() bool { return m.Kind == KindRequest || m.Kind == KindNotification }

// IsReply reports whether m is a response or an error response.
func (m *Message) IsReply() bool { return m.Kind == KindResponse || m.Kind == KindError }

// Parse is Scan without a visitor.
func Parse(frame []byte) (Message, error) { return Scan(frame, nil) }
