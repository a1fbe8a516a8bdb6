package sessionindex

import "fmt"

// JSON-RPC codes of the session index (contract: "Session index", "Errors").
const (
	CodeInvalidParams  = -32602
	CodeInvalidRequest = -32600
	CodeNotFound       = -32002
)

// Error is a request the session index refuses; the adapter sends Code,
// Message and Data as the JSON-RPC error.
type Error struct {
	Code    int
	Message string
	Data    any // nil for none
}

func (e *Error) Error() string { return e.Message }

// invalidParams is -32602 with the reference's "Invalid params: " message.
func invalidParams(data any, format string, args ...any) *Error {
	return &Error{Code: CodeInvalidParams, Message: "Invalid params: " + fmt.Sprintf(format, args...), Data: data}
}

// NotFound is the -32002 of an unknown session, with data.sessionId.
func NotFound(sessionID string) *Error {
	return &Error{Code: CodeNotFound, Message: "Session not found: " + sessionID, Data: map[string]string{"sessionId": sessionID}}
}
