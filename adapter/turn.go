package adapter

import "encoding/json"

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
