package jsonrpc

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestScanEnvelope(t *testing.T) {
	tests := []struct {
		name    string
		frame   string
		kind    Kind
		id      string
		method  string
		session string
		typ     string
		subtype string
		reqID   string
	}{
		{name: "request", frame: `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}` + "\n", kind: KindRequest, id: "1", method: "session/prompt", session: "s1"},
		{name: "string id stays raw", frame: `{"jsonrpc":"2.0","id":"1","method":"x"}`, kind: KindRequest, id: `"1"`, method: "x"},
		{name: "float id stays raw", frame: `{"jsonrpc":"2.0","id":1.0,"method":"x"}`, kind: KindRequest, id: `1.0`, method: "x"},
		{name: "notification", frame: `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"abc","update":{"sessionId":"nested"}}}`, kind: KindNotification, method: "session/update", session: "abc"},
		{name: "response", frame: `{"jsonrpc":"2.0","id":7,"result":{"sessionId":"new"}}`, kind: KindResponse, id: "7", session: "new"},
		{name: "error", frame: `{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"m"}}`, kind: KindError, id: "7"},
		{name: "null result is a response", frame: `{"jsonrpc":"2.0","id":2,"result":null}`, kind: KindResponse, id: "2"},
		{name: "cli control request", frame: `{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Write"}}`, kind: KindOther, typ: "control_request", subtype: "can_use_tool", reqID: "r1"},
		{name: "cli control response", frame: `{"type":"control_response","response":{"subtype":"success","request_id":"r2","response":{}}}`, kind: KindOther, typ: "control_response", subtype: "success", reqID: "r2"},
		{name: "cli system", frame: `{"type":"system","subtype":"init","session_id":"sid","uuid":"u"}`, kind: KindOther, typ: "system", subtype: "init", session: "sid"},
		{name: "escaped method", frame: `{"id":1,"method":"a\/b"}`, kind: KindRequest, id: "1", method: "a/b"},
		{name: "escaped key", frame: `{"\u0069d":3,"method":"m"}`, kind: KindRequest, id: "3", method: "m"},
		{name: "array is other", frame: `[1,2]`, kind: KindOther},
		{name: "crlf", frame: "{\"id\":1,\"method\":\"m\"}\r\n", kind: KindRequest, id: "1", method: "m"},
		{name: "huge number", frame: `{"id":123456789012345678901234567890,"method":"m"}`, kind: KindRequest, id: "123456789012345678901234567890", method: "m"},
		{name: "duplicate keys: last wins", frame: `{"id":1,"id":2,"method":"m"}`, kind: KindRequest, id: "2", method: "m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse([]byte(tt.frame))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if m.Kind != tt.kind || string(m.ID) != tt.id || m.Method != tt.method || m.Session != tt.session ||
				m.Type != tt.typ || m.Subtype != tt.subtype || m.RequestID != tt.reqID {
				t.Fatalf("got kind=%v id=%s method=%q session=%q type=%q subtype=%q reqid=%q",
					m.Kind, m.ID, m.Method, m.Session, m.Type, m.Subtype, m.RequestID)
			}
		})
	}
}

func TestScanRejects(t *testing.T) {
	bad := map[string]string{
		"empty":           "",
		"blank":           "  \n",
		"truncated":       `{"id":1,"method":"m"`,
		"trailing data":   `{"id":1} {}`,
		"bad utf8":        "{\"a\":\"\xff\"}",
		"control char":    "{\"a\":\"\x01\"}",
		"bad escape":      `{"a":"\q"}`,
		"bad unicode":     `{"a":"\u12G4"}`,
		"leading zero":    `{"a":01}`,
		"bare word":       `{"a":nul}`,
		"missing colon":   `{"a" 1}`,
		"trailing comma":  `{"a":1,}`,
		"single quotes":   `{'a':1}`,
		"deep nesting":    strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1),
		"lone minus":      `{"a":-}`,
		"exponent digits": `{"a":1e}`,
	}
	for name, frame := range bad {
		t.Run(name, func(t *testing.T) {
			if _, err := Parse([]byte(frame)); err == nil {
				t.Fatalf("Parse(%q) accepted invalid JSON", frame)
			}
			if json.Valid([]byte(frame)) && name != "bad utf8" {
				t.Fatalf("test is wrong: encoding/json accepts %q", frame)
			}
		})
	}
}

func TestScanVisitor(t *testing.T) {
	frame := []byte(`{"params":{"apiKey":"sk-1","list":["a",{"token":"t"}],"n":1}}`)
	var got []string
	_, err := Scan(frame, func(key []byte, s, e int) { got = append(got, string(key)+"="+string(frame[s:e])) })
	if err != nil {
		t.Fatal(err)
	}
	want := "apiKey=sk-1 list=a token=t"
	if strings.Join(got, " ") != want {
		t.Fatalf("visited %q, want %q", strings.Join(got, " "), want)
	}
}
