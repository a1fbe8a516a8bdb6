package jsonrpc

import (
	"encoding/json"
	"strconv"

	"github.com/airwire/airwire/internal/jsonwalk"
)

// Incoming is one decoded frame, as the Conn sees it.
type Incoming struct {
	// Kind is KindRequest, KindNotification, KindResponse or KindError.
	Kind Kind
	// ID is the raw id: of the request, or of the request a reply answers.
	ID     json.RawMessage
	Method string
	Params json.RawMessage
	Result json.RawMessage
	Err    *WireError
	// Cancels, on a notification, names the id of a request of the peer's
	// that the peer no longer wants answered; the Conn cancels its context.
	Cancels json.RawMessage
}

// Codec maps frames to the Conn's model of calls and replies and back. One
// Conn serves both wires of the agent: JSON-RPC 2.0 to the editor (JSONRPC)
// and the Claude CLI's stream-json control protocol (StreamJSON).
type Codec interface {
	// Decode reads one frame. A frame that is not a message yields either
	// reply (a frame to send back, such as a -32700 error) or neither; err
	// describes it for the log.
	Decode(frame []byte) (in Incoming, reply []byte, err error)
	// NewID returns the id of the n-th call this side makes (n from 0).
	NewID(n int64) json.RawMessage
	EncodeRequest(id json.RawMessage, method string, params json.RawMessage) ([]byte, error)
	EncodeNotification(method string, params json.RawMessage) ([]byte, error)
	// EncodeResponse writes a result, or err when it is not nil.
	EncodeResponse(id json.RawMessage, result json.RawMessage, err *WireError) ([]byte, error)
}

// Canceler is a Codec that can tell the peer a call is no longer wanted;
// Conn.Call sends it when the call's context ends first.
type Canceler interface {
	EncodeCancel(id json.RawMessage) ([]byte, error)
}

// JSONRPC is the JSON-RPC 2.0 codec, with the answers the ACP TypeScript
// SDK gives to frames that are not messages: -32700 "Parse error" for a line
// that is not JSON, -32600 for a batch or a value that is not a message, both
// with `id: null`.
type JSONRPC struct{}

var _ Codec = JSONRPC{}

// Decode implements Codec.
func (JSONRPC) Decode(frame []byte) (Incoming, []byte, error) {
	m, err := Parse(frame)
	if err != nil {
		return Incoming{}, nullIDError(&WireError{Code: ErrParse.Code, Message: "Parse error"}), err
	}
	switch m.Kind {
	case KindRequest, KindNotification:
		if m.JSONRPC != "2.0" && m.JSONRPC != "" {
			break
		}
		in := Incoming{Kind: m.Kind, Method: m.Method, Params: clone(m.Params)}
		if m.Kind == KindRequest {
			in.ID = clone(m.ID)
		}
		if m.Method == "$/cancel_request" {
			in.Cancels = cancelTarget(m.Params)
		}
		return in, nil, nil
	case KindResponse:
		return Incoming{Kind: KindResponse, ID: clone(m.ID), Result: clone(m.Result)}, nil, nil
	case KindError:
		var we WireError
		if json.Unmarshal(m.Error, &we) != nil {
			we = WireError{Code: ErrInternal.Code, Message: "malformed error object"}
		}
		return Incoming{Kind: KindError, ID: clone(m.ID), Err: &we}, nil, nil
	}
	msg := "Invalid request"
	if len(frame) > 0 && firstByte(frame) == '[' {
		msg = "Invalid request: JSON-RPC batches are not supported"
	}
	return Incoming{}, nullIDError(&WireError{Code: ErrInvalidRequest.Code, Message: msg}), ErrInvalidRequest
}

func cancelTarget(params json.RawMessage) json.RawMessage {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil
	}
	return p.RequestID
}

// NewID implements Codec: the n-th call has id n, as the ACP SDK numbers them.
func (JSONRPC) NewID(n int64) json.RawMessage { return strconv.AppendInt(nil, n, 10) }

type wireMsg struct {
	ID      json.RawMessage `json:"id,omitempty"`
	JSONRPC string          `json:"jsonrpc"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *WireError      `json:"error,omitempty"`
}

// EncodeRequest implements Codec.
func (JSONRPC) EncodeRequest(id json.RawMessage, method string, params json.RawMessage) ([]byte, error) {
	return json.Marshal(wireMsg{ID: id, JSONRPC: "2.0", Method: method, Params: params})
}

// EncodeNotification implements Codec.
func (JSONRPC) EncodeNotification(method string, params json.RawMessage) ([]byte, error) {
	return json.Marshal(wireMsg{JSONRPC: "2.0", Method: method, Params: params})
}

// appendNotification writes what EncodeNotification writes when params
// are already in json.Marshal's form (which json.Marshal leaves as is).
func (JSONRPC) appendNotification(dst []byte, method string, params []byte) []byte {
	dst = append(dst, `{"jsonrpc":"2.0"`...)
	if method != "" {
		dst = jsonwalk.AppendString(append(dst, `,"method":`...), method)
	}
	if len(params) > 0 {
		dst = append(append(dst, `,"params":`...), params...)
	}
	return append(dst, '}')
}

// EncodeResponse implements Codec. A result that is absent is sent as null.
func (JSONRPC) EncodeResponse(id json.RawMessage, result json.RawMessage, err *WireError) ([]byte, error) {
	if err != nil {
		return json.Marshal(wireMsg{ID: id, JSONRPC: "2.0", Error: err})
	}
	if len(result) == 0 {
		result = json.RawMessage("null")
	}
	return json.Marshal(wireMsg{ID: id, JSONRPC: "2.0", Result: result})
}

// EncodeCancel implements Canceler: ACP's `$/cancel_request`.
func (JSONRPC) EncodeCancel(id json.RawMessage) ([]byte, error) {
	params, _ := json.Marshal(map[string]json.RawMessage{"requestId": id})
	return json.Marshal(wireMsg{JSONRPC: "2.0", Method: "$/cancel_request", Params: params})
}

func nullIDError(e *WireError) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *WireError      `json:"error"`
	}{"2.0", json.RawMessage("null"), e})
	return b
}

func clone(b json.RawMessage) json.RawMessage {
	if b == nil {
		return nil
	}
	return append(json.RawMessage(nil), b...)
}

func firstByte(b []byte) byte {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return c
		}
	}
	return 0
}
