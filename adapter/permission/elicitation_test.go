package permission

import (
	"encoding/json"
	"testing"

	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/internal/testroot"

	"github.com/airwire/airwire/adapter/caps"
)

// TestGoldenMCPElicitation replays the scripted MCP elicitation of
// mcp-elicitation through AskMCP and Answer.
func TestGoldenMCPElicitation(t *testing.T) {
	root := testroot.Root(t)
	for _, profile := range []string{"plain", "zed", "air"} {
		t.Run(profile, func(t *testing.T) {
			lines := goldentest.Read(t, goldentest.Path(t, "mcp-elicitation", profile))
			s := goldenSession(t, lines)
			frames := cliRequests(t, root, "mcp-elicitation", profile, "elicitation")
			exchanges, responses := goldenExchanges(lines, MethodCreateElicitation)
			if len(frames) != 1 || len(exchanges) != 1 || len(responses) != 1 {
				t.Fatalf("%d frames, %d requests, %d responses", len(frames), len(exchanges), len(responses))
			}
			e, err := ParseMCPElicitation(frames[0].Request)
			if err != nil {
				t.Fatal(err)
			}
			prompt, now := AskMCP(e, s.ID, s.Client)
			if now != nil {
				t.Fatalf("immediate decision %s", now.Response)
			}
			assertJSON(t, "request params", prompt.Params, exchanges[0].Params)
			d := prompt.Answer(exchanges[0].Answer)
			assertJSON(t, "control_response", d.ControlResponse(requestIDOf(t, responses[0])), responses[0])
		})
	}
}

// TestMCPElicitationSupport checks the answers that never reach the editor
// and the mapping of each editor action.
func TestMCPElicitationSupport(t *testing.T) {
	form := caps.Parse(json.RawMessage(`{"elicitation":{"form":{}}}`))
	url := caps.Parse(json.RawMessage(`{"elicitation":{"url":{}}}`))
	none := caps.Parse(json.RawMessage(`{}`))
	formReq := MCPElicitation{Message: "m", RequestedSchema: json.RawMessage(`{"type":"object"}`)}
	urlReq := MCPElicitation{Message: "m", Mode: "url", URL: "https://x.test/a", ElicitationID: "e1"}
	tests := []struct {
		name   string
		req    MCPElicitation
		client caps.Client
		now    string // immediate response, "" when prompted
		params string
	}{
		{"no elicitation: the SDK's decline", formReq, none, `{"action":"decline"}`, ""},
		{"form request, url-only client", formReq, url, `{"action":"cancel"}`, ""},
		{"url request, form-only client", urlReq, form, `{"action":"cancel"}`, ""},
		{"url request without url", MCPElicitation{Mode: "url"}, url, `{"action":"cancel"}`, ""},
		{"form gets type and properties", formReq, form, "",
			`{"mode":"form","sessionId":"s","message":"m","requestedSchema":{"type":"object","properties":{}}}`},
		{"url keeps its id", urlReq, url, "",
			`{"mode":"url","sessionId":"s","message":"m","url":"https://x.test/a","elicitationId":"e1"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, d := AskMCP(tt.req, "s", tt.client)
			if tt.now != "" {
				if d == nil {
					t.Fatalf("prompted %s", p.Params)
				}
				assertJSON(t, "response", d.Response, json.RawMessage(tt.now))
				return
			}
			if p == nil {
				t.Fatalf("immediate %s", d.Response)
			}
			if string(p.Params) != tt.params {
				t.Errorf("params %s, want %s", p.Params, tt.params)
			}
		})
	}
	p, _ := AskMCP(formReq, "s", form)
	for result, want := range map[string]string{
		`{"action":"accept","content":{"a":1}}`: `{"action":"accept","content":{"a":1}}`,
		`{"action":"accept","content":[1]}`:     `{"action":"accept","content":{}}`,
		`{"action":"decline"}`:                  `{"action":"decline"}`,
		`{"action":"cancel"}`:                   `{"action":"cancel"}`,
		`{"action":"later"}`:                    `{"action":"cancel"}`,
	} {
		assertJSON(t, result, p.Answer(json.RawMessage(result)).Response, json.RawMessage(want))
	}
	assertJSON(t, "aborted", p.Aborted().Response, json.RawMessage(`{"action":"cancel"}`))
	assertJSON(t, "failed", p.Fail("boom").Response, json.RawMessage(`{"action":"cancel"}`))
}
