package adapter

import (
	"encoding/json"
	"strings"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/internal/jsonrpc"
	"github.com/airwire/airwire/internal/lazyre"
)

// turn is one session/prompt: the editor's request, answered when the
// CLI's result for it arrives.
type turn struct {
	reqID      json.RawMessage
	promptUUID string
	cancelled  bool
	localOnly  bool               // a command the CLI answers locally (localcommand.go)
	goal       bool               // a `_session/goal` request's prompt: answered {} (goal.go)
	fileChange *fileChangeRequest // its AIR file-change report request, if any
}

// A failed turn ends its prompt with an error, shaped as the reference
// shapes it for a client without AIR session failures: an auth failure is
// -32000 "Authentication required" (the client starts its login flow);
// anything else is -32603 "Internal error: <detail>" with data.errorKind
// naming the CLI's error marker of the turn's last assistant message.

// errAuthRequired is the SDK's authRequired error.
var errAuthRequired = &jsonrpc.WireError{Code: -32000, Message: "Authentication required"}

var loginRequired = lazyre.New(`(?i)\brun /login\b`)

// isAuthErrorKind tells the assistant error markers that mean "log in again".
func isAuthErrorKind(kind string) bool {
	return kind == "authentication_failed" || kind == "oauth_org_not_allowed"
}

// turnError is the error that ends a failed turn; errorKind is the error
// marker of the turn's last assistant message ("" when none).
func turnError(r *claude.Frame, errorKind string) error {
	detail := resultDetail(r)
	if isAuthErrorKind(errorKind) || (r.Subtype == "success" && loginRequired.MatchString(r.Result)) {
		return errAuthRequired
	}
	e := &jsonrpc.WireError{Code: jsonrpc.ErrInternal.Code, Message: "Internal error"}
	if detail != "" {
		e.Message += ": " + detail
	}
	if errorKind != "" {
		e.Data, _ = json.Marshal(map[string]string{"errorKind": errorKind})
	}
	return e
}

// resultDetail is a failed result's text: the result of a "success"
// subtype, else its errors (or the subtype).
func resultDetail(r *claude.Frame) string {
	if r.Subtype == "success" {
		return r.Result
	}
	if len(r.Errors) > 0 {
		return strings.Join(r.Errors, ", ")
	}
	return r.Subtype
}
