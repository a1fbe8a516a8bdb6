package jsonrpc

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"strings"
)

// StreamJSON is the codec of the Claude Code CLI's stream-json control
// protocol (research: claude-cli-protocol.md §3). A control_request is a
// call whose method is its subtype and whose params are its request body; a
// control_response answers one by request_id (subtype success or error); a
// control_cancel_request cancels one. Every other line (user, assistant,
// system, stream_event, result, …) is a notification whose method is its
// type and whose params are the whole line. A line that is not a JSON
// object is reported and skipped: the CLI gets no answer to it.
type StreamJSON struct{}

var _ Codec = StreamJSON{}

// ErrNotObject is the Decode error of a stream-json line that is not an object.
var ErrNotObject = errors.New("stream-json line is not a JSON object")

// Decode implements Codec.
func (StreamJSON) Decode(frame []byte) (Incoming, []byte, error) {
	m, err := Parse(frame)
	if err != nil {
		return Incoming{}, nil, err
	}
	if firstByte(frame) != '{' {
		return Incoming{}, nil, ErrNotObject
	}
	switch m.Type {
	case "control_request":
		return Incoming{Kind: KindRequest, ID: quote(m.RequestID), Method: m.Subtype, Params: clone(m.Request)}, nil, nil
	case "control_response":
		return decodeControlResponse(m.Response)
	case "control_cancel_request":
		return Incoming{Kind: KindNotification, Method: m.Type, Params: clone(frame), Cancels: quote(m.RequestID)}, nil, nil
	}
	return Incoming{Kind: KindNotification, Method: m.Type, Params: clone(trimNewline(frame))}, nil, nil
}

func decodeControlResponse(body json.RawMessage) (Incoming, []byte, error) {
	var r struct {
		Subtype   string          `json:"subtype"`
		RequestID string          `json:"request_id"`
		Response  json.RawMessage `json:"response"`
		Error     json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(body, &r); err != nil || r.RequestID == "" {
		return Incoming{}, nil, errors.New("control_response without a request_id")
	}
	if r.Subtype == "error" {
		return Incoming{Kind: KindError, ID: quote(r.RequestID), Err: &WireError{Code: ErrInternal.Code, Message: errorText(r.Error)}}, nil, nil
	}
	return Incoming{Kind: KindResponse, ID: quote(r.RequestID), Result: clone(r.Response)}, nil, nil
}

func errorText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

const idAlphabet = "0123456789abcdefghijklmnopqrstuvwxyz"

// NewID implements Codec: a random base-36 string, as the SDK makes them.
func (StreamJSON) NewID(int64) json.RawMessage {
	var b [10]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
	}
	return quote(string(b[:]))
}

// EncodeRequest implements Codec: params is the request body without its
// subtype (an object, or empty).
func (StreamJSON) EncodeRequest(id json.RawMessage, method string, params json.RawMessage) ([]byte, error) {
	body, err := withSubtype(method, params)
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		RequestID json.RawMessage `json:"request_id"`
		Type      string          `json:"type"`
		Request   json.RawMessage `json:"request"`
	}{id, "control_request", body})
}

// EncodeNotification implements Codec: params is the whole line; method is
// only checked against its type.
func (StreamJSON) EncodeNotification(method string, params json.RawMessage) ([]byte, error) {
	var t struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(params, &t); err != nil || t.Type != method {
		return nil, errors.New("stream-json notification: params must be a line of type " + method)
	}
	return append([]byte(nil), params...), nil
}

// EncodeResponse implements Codec.
func (StreamJSON) EncodeResponse(id json.RawMessage, result json.RawMessage, werr *WireError) ([]byte, error) {
	type body struct {
		Subtype   string          `json:"subtype"`
		RequestID json.RawMessage `json:"request_id"`
		Response  json.RawMessage `json:"response,omitempty"`
		Error     string          `json:"error,omitempty"`
	}
	b := body{Subtype: "success", RequestID: id, Response: result}
	if werr != nil {
		b = body{Subtype: "error", RequestID: id, Error: werr.Message}
	} else if len(result) == 0 {
		b.Response = json.RawMessage("{}")
	}
	return json.Marshal(struct {
		Type     string `json:"type"`
		Response body   `json:"response"`
	}{"control_response", b})
}

// EncodeCancel implements Canceler: a control_cancel_request.
func (StreamJSON) EncodeCancel(id json.RawMessage) ([]byte, error) {
	return json.Marshal(struct {
		Type      string          `json:"type"`
		RequestID json.RawMessage `json:"request_id"`
	}{"control_cancel_request", id})
}

func withSubtype(subtype string, params json.RawMessage) (json.RawMessage, error) {
	fields := map[string]json.RawMessage{}
	if len(params) > 0 && string(params) != "null" {
		if err := json.Unmarshal(params, &fields); err != nil {
			return nil, errors.New("control request params must be an object")
		}
	}
	fields["subtype"] = quote(subtype)
	return json.Marshal(fields)
}

func quote(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

func trimNewline(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// ArgvSpeaksStreamJSON reports whether a Claude CLI started with argv talks
// stream-json on its stdio (--output-format stream-json, or
// --input-format=stream-json): the CLI an adapter drives, as opposed to a
// one-shot command such as `claude auth status`, whose output is not framed.
func ArgvSpeaksStreamJSON(argv []string) bool {
	for _, a := range argv {
		if a == "stream-json" || strings.HasSuffix(a, "=stream-json") {
			return true
		}
	}
	return false
}
