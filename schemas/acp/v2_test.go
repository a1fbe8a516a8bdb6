package acp_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/schemas/acp"
)

// v2Unstable loads the pinned v2 draft's unstable schema, beside the v1
// one; the test is skipped when make deps has not installed it.
func v2Unstable(t *testing.T) *acp.Schema {
	t.Helper()
	p, err := deps.Paths()
	if err != nil || p.ACPSchemaDir == "" {
		deps.Unavailable(t, "ACP schema not installed: %v", err)
	}
	dir := acp.V2Dir(p.ACPSchemaDir)
	if _, err := os.Stat(filepath.Join(dir, acp.UnstableFile)); err != nil {
		deps.Unavailable(t, "the ACP v2 schema is not installed (make deps): %v", err)
	}
	s, err := acp.LoadDir(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestV2MethodTable: the v2 draft's methods, by x-method and x-side.
func TestV2MethodTable(t *testing.T) {
	s := v2Unstable(t)
	for _, tt := range []struct {
		method, req, notif string
		side               acp.Side
	}{
		{method: "auth/login", req: "LoginAuthRequest", side: acp.SideAgent},
		{method: "auth/logout", req: "LogoutAuthRequest", side: acp.SideAgent},
		{method: "terminal/cancel", req: "CancelTerminalRequest", side: acp.SideAgent},
		{method: "tool_call/cancel", req: "CancelToolCallRequest", side: acp.SideAgent},
		{method: "session/resume", req: "ResumeSessionRequest", side: acp.SideAgent},
		{method: "session/delete", req: "DeleteSessionRequest", side: acp.SideAgent},
		{method: "session/request_permission", req: "RequestPermissionRequest", side: acp.SideClient},
		{method: "session/update", notif: "UpdateSessionNotification", side: acp.SideClient},
	} {
		m, ok := s.Method(tt.method)
		side := m.RequestSide
		if tt.notif != "" {
			side = m.NotificationSide
		}
		if !ok || m.Request != tt.req || m.Notification != tt.notif || side != tt.side {
			t.Errorf("%s: %+v", tt.method, m)
		}
	}
	for _, gone := range []string{"fs/read_text_file", "fs/write_text_file", "session/load", "authenticate", "terminal/create", "session/set_mode"} {
		if _, ok := s.Method(gone); ok {
			t.Errorf("%s is in the v2 method table", gone)
		}
	}
}

// TestV2Messages validates messages of the reference adapter's v2 runs:
// a prompt answered with its messageId (a stopReason alone is v1's
// answer) and the state_updates of its turn.
func TestV2Messages(t *testing.T) {
	s := v2Unstable(t)
	for _, tt := range []struct {
		method, kind, msg string
		valid             bool
	}{
		{"session/prompt", "result", `{"messageId":"0b7c3d52-1f0e-4c55-9d7e-5f3f8a1c2b90"}`, true},
		{"session/prompt", "result", `{"stopReason":"end_turn"}`, false},
		{"session/update", "notification", `{"sessionId":"s","update":{"sessionUpdate":"state_update","state":"running","background":[]}}`, true},
		{"session/update", "notification", `{"sessionId":"s","update":{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn","background":[],"usage":{"cachedReadTokens":0,"cachedWriteTokens":0,"inputTokens":10,"outputTokens":12,"totalTokens":22}}}`, true},
		{"session/update", "notification", `{"sessionId":"s","update":{"sessionUpdate":"state_update","state":"idle","stopReason":7}}`, false},
		{"session/update", "notification", `{"sessionId":"s","update":{"sessionUpdate":"user_message","messageId":"0b7c3d52-1f0e-4c55-9d7e-5f3f8a1c2b90","content":[{"type":"text","text":"What is 2 + 2?"}]}}`, true},
		{"initialize", "request", `{"protocolVersion":2,"capabilities":{"elicitation":{"form":{}}},"info":{"name":"airwire-conform","version":"1.0.0"}}`, true},
		{"session/set_config_option", "request", `{"sessionId":"s","configId":"mode","type":"id","value":"default"}`, true},
	} {
		v := decode(t, tt.msg)
		var issues []acp.Issue
		var err error
		if tt.kind == "result" {
			issues, err = s.Result(tt.method, v)
		} else {
			issues, err = s.Params(tt.method, tt.kind == "notification", v)
		}
		if err != nil {
			t.Fatal(err)
		}
		if (len(issues) == 0) != tt.valid {
			t.Errorf("%s %s %s: valid %v, issues %v", tt.method, tt.kind, tt.msg, tt.valid, issues)
		}
	}
}
