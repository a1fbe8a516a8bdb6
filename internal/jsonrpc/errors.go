package jsonrpc

import (
	"encoding/json"
	"fmt"
)

// WireError is a JSON-RPC error object. Errors with the same code match with
// errors.Is, so a wrapped error still maps to its code.
type WireError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *WireError) Error() string { return fmt.Sprintf("jsonrpc %d: %s", e.Code, e.Message) }

// Is reports whether target is a *WireError with the same code.
func (e *WireError) Is(target error) bool {
	t, ok := target.(*WireError)
	return ok && t.Code == e.Code
}

// The error codes of the JSON-RPC 2.0 specification.
var (
	// ErrParse: the line is not JSON (-32700).
	ErrParse = &WireError{Code: -32700, Message: "Parse error"}
	// ErrInvalidRequest: JSON, but not a JSON-RPC request (-32600).
	ErrInvalidRequest = &WireError{Code: -32600, Message: "Invalid Request"}
	// ErrMethodNotFound: no handler for the method (-32601).
	ErrMethodNotFound = &WireError{Code: -32601, Message: "Method not found"}
	// ErrInvalidParams: params do not decode into what the method takes (-32602).
	ErrInvalidParams = &WireError{Code: -32602, Message: "Invalid params"}
	// ErrInternal: the agent failed; the message never carries details (-32603).
	ErrInternal = &WireError{Code: -32603, Message: "Internal error"}
)

// Errorf returns a WireError with code's code and a formatted message.
func Errorf(code *WireError, format string, args ...any) *WireError {
	return &WireError{Code: code.Code, Message: fmt.Sprintf(format, args...)}
}
