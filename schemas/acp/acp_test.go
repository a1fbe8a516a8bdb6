package acp_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/schemas/acp"
)

var (
	loadOnce sync.Once
	loaded   *acp.Schema
	loadErr  error
)

// unstable loads the pinned v1 unstable schema once; the test is skipped, with
// the reason, when make deps has not run.
func unstable(t *testing.T) *acp.Schema {
	t.Helper()
	p, err := deps.Paths()
	if err != nil {
		deps.Unavailable(t, "ACP schema not installed: %v", err)
	}
	dir, err := p.RequireACPSchemaDir()
	if err != nil {
		deps.Unavailable(t, "ACP schema not installed: %v", err)
	}
	loadOnce.Do(func() { loaded, loadErr = acp.LoadDir(dir, true) })
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return loaded
}

func decode(t *testing.T, s string) any {
	t.Helper()
	v, err := acp.Decode(json.RawMessage(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestMethodTable(t *testing.T) {
	s := unstable(t)
	tests := []struct {
		method             string
		req, resp, notif   string
		reqSide, notifSide acp.Side
	}{
		{method: "session/prompt", req: "PromptRequest", resp: "PromptResponse", reqSide: acp.SideAgent},
		{method: "session/update", notif: "SessionNotification", notifSide: acp.SideClient},
		{method: "session/request_permission", req: "RequestPermissionRequest", resp: "RequestPermissionResponse", reqSide: acp.SideClient},
		{method: "session/fork", req: "ForkSessionRequest", resp: "ForkSessionResponse", reqSide: acp.SideAgent},
		{method: "mcp/message", req: "MessageMcpRequest", resp: "MessageMcpResponse", notif: "MessageMcpNotification", reqSide: acp.SideClient, notifSide: acp.SideAgent},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			m, ok := s.Method(tt.method)
			if !ok {
				t.Fatal("missing")
			}
			if m.Request != tt.req || m.Response != tt.resp || m.Notification != tt.notif || m.RequestSide != tt.reqSide || m.NotificationSide != tt.notifSide {
				t.Errorf("got %+v", m)
			}
		})
	}
	if _, ok := s.Method("_session/goal"); ok {
		t.Error("extension method in the ACP table")
	}
}

func TestParamsByMethod(t *testing.T) {
	s := unstable(t)
	tests := []struct {
		name    string
		method  string
		notif   bool
		params  string
		wantDef string // "" = valid
		wantPtr string
		wantKw  string
	}{
		{name: "agent message chunk", method: "session/update", notif: true,
			params: `{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}`},
		{name: "tool call with AIR meta", method: "session/update", notif: true,
			params: `{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"npm test","kind":"execute","status":"pending","_meta":{"jetbrains":{"air":{"version":1,"commandTitle":"Run"}}}}}`},
		{name: "garbage params are not accepted", method: "session/update", notif: true,
			params: `{"foo":1}`, wantDef: "SessionNotification", wantPtr: "/sessionId", wantKw: "required"},
		{name: "bad tool call status names the branch", method: "session/update", notif: true,
			params:  `{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"x","status":"done"}}`,
			wantDef: "SessionUpdate[sessionUpdate=tool_call]", wantPtr: "/update/status"},
		{name: "unknown sessionUpdate", method: "session/update", notif: true,
			params:  `{"sessionId":"s","update":{"sessionUpdate":"async_task_spawned","asyncTaskId":"a"}}`,
			wantDef: "SessionUpdate", wantPtr: "/update/sessionUpdate", wantKw: "enum"},
		{name: "missing discriminator", method: "session/update", notif: true,
			params:  `{"sessionId":"s","update":{"content":{"type":"text","text":"x"}}}`,
			wantDef: "SessionUpdate", wantPtr: "/update/sessionUpdate", wantKw: "required"},
		{name: "nested content block union", method: "session/update", notif: true,
			params:  `{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text"}}}`,
			wantDef: "ContentBlock[type=text]", wantPtr: "/update/content/text", wantKw: "required"},
		{name: "diff block without path", method: "session/update", notif: true,
			params:  `{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","content":[{"type":"diff","oldText":null,"newText":""}]}}`,
			wantDef: "ToolCallContent[type=diff]", wantPtr: "/update/content/0/path", wantKw: "required"},
		{name: "prompt request", method: "session/prompt", params: `{"sessionId":"s","prompt":[{"type":"text","text":"hello"}]}`},
		{name: "prompt with an unknown block type", method: "session/prompt", params: `{"sessionId":"s","prompt":[{"type":"video"}]}`,
			wantDef: "ContentBlock", wantPtr: "/prompt/0/type", wantKw: "enum"},
		{name: "initialize protocolVersion as string", method: "initialize", params: `{"protocolVersion":"1"}`,
			wantDef: "InitializeRequest", wantPtr: "/protocolVersion", wantKw: "invalid_type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			issues, err := s.Params(tt.method, tt.notif, decode(t, tt.params))
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantDef == "" {
				if len(issues) > 0 {
					t.Fatalf("want valid, got %v", issues)
				}
				return
			}
			for _, is := range issues {
				if is.Def == tt.wantDef && is.Pointer == tt.wantPtr && (tt.wantKw == "" || is.Keyword == tt.wantKw) {
					return
				}
			}
			t.Fatalf("want %s at %s (%s), got %+v", tt.wantDef, tt.wantPtr, tt.wantKw, issues)
		})
	}
}

func TestResultAndError(t *testing.T) {
	s := unstable(t)
	is, err := s.Result("session/prompt", decode(t, `{"stopReason":"end_turn"}`))
	if err != nil || len(is) > 0 {
		t.Fatalf("valid result: %v %v", is, err)
	}
	is, _ = s.Result("session/prompt", decode(t, `{"stopReason":"finished"}`))
	if len(is) == 0 || is[0].Pointer != "/stopReason" {
		t.Fatalf("bad stopReason: %+v", is)
	}
	is, _ = s.Result("session/prompt", decode(t, `{"stopReason":"end_turn","usage":{"inputTokens":1,"outputTokens":2,"totalTokens":null}}`))
	if len(is) == 0 || !is[len(is)-1].Lenient {
		t.Fatalf("null totalTokens under a default-on-error usage: %+v", is)
	}
	is, _ = s.Result("session/prompt", decode(t, `{"stopReason":"finished"}`))
	if len(is) == 0 || is[0].Lenient {
		t.Fatalf("stopReason is not lenient: %+v", is)
	}
	is, _ = s.Error(decode(t, `{"code":"x","message":"m"}`))
	if len(is) == 0 {
		t.Fatal("string error code accepted")
	}
}

func TestCheckKeywords(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{name: "plain", doc: `{"$defs":{"A":{"type":"object","properties":{"prefixItems":{"type":"string"}}}}}`},
		{name: "unevaluatedProperties true is a no-op", doc: `{"anyOf":[{"unevaluatedProperties":true}]}`},
		{name: "unevaluatedProperties false", doc: `{"anyOf":[{"unevaluatedProperties":false}]}`, want: "unevaluatedProperties"},
		{name: "prefixItems", doc: `{"$defs":{"T":{"prefixItems":[{"type":"string"}]}}}`, want: "prefixItems"},
		{name: "dynamicRef", doc: `{"$defs":{"T":{"items":{"$dynamicRef":"#x"}}}}`, want: "$dynamicRef"},
		{name: "dependentSchemas", doc: `{"dependentSchemas":{}}`, want: "dependentSchemas"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc any
			if err := json.Unmarshal([]byte(tt.doc), &doc); err != nil {
				t.Fatal(err)
			}
			err := acp.CheckKeywords(doc)
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := acp.Parse([]byte(`{"$defs":{"A":{"x-method":"a","x-side":"agent","prefixItems":[]}}}`)); err == nil {
		t.Fatal("Parse accepted prefixItems")
	}
}

func TestPinnedFilesPassTheKeywordGuard(t *testing.T) {
	unstable(t)
	p, _ := deps.Paths()
	dir, _ := p.RequireACPSchemaDir()
	s, err := acp.LoadDir(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Method("session/fork"); ok {
		t.Error("stable v1 has session/fork")
	}
	if n := len(s.Methods()); n < 20 {
		t.Errorf("stable table has %d methods", n)
	}
}
