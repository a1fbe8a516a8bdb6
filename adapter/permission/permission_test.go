package permission

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/adapter/caps"
)

var allModes = []string{"default", "acceptEdits", "plan", "auto", "bypassPermissions"}

// testSession is a root session of a plain client in testCwd.
func testSession() Session {
	return Session{ID: "s", Cwd: testCwd, Home: testHome, Modes: allModes,
		Client: caps.Parse(json.RawMessage(`{"elicitation":{"form":{}}}`))}
}

// mustRequest parses a can_use_tool request body.
func mustRequest(t *testing.T, raw string) Request {
	t.Helper()
	r, err := ParseRequest(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// ask runs Ask with a minimal tool call and fails on an immediate decision.
func ask(t *testing.T, raw string, s Session) *Prompt {
	t.Helper()
	req := mustRequest(t, raw)
	p, d := Ask(req, json.RawMessage(`{"toolCallId":"`+req.ToolUseID+`","content":[]}`), s)
	if d != nil {
		t.Fatalf("immediate decision %s %s", d.Response, d.Error)
	}
	return p
}

// optionSummary is "id=name" per option, in order.
func optionSummary(opts []Option) []string {
	var out []string
	for _, o := range opts {
		out = append(out, o.OptionID+"="+o.Name)
	}
	return out
}

// selected is the editor's answer selecting id.
func selected(id string) json.RawMessage {
	return json.RawMessage(`{"outcome":{"outcome":"selected","optionId":"` + id + `"}}`)
}

const bashRule = `{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"npm test"}],"behavior":"allow","destination":"localSettings"}`

// TestAnswers checks the PermissionResult of each kind of choice.
func TestAnswers(t *testing.T) {
	tests := []struct {
		name    string
		req     string
		session func(*Session)
		answer  json.RawMessage
		want    string // the response object, or the error prefixed with "error: "
		check   func(*testing.T, Decision)
	}{
		{"web fetch generated rule", `{"tool_name":"WebFetch","input":{"url":"https://example.com/x"},"tool_use_id":"t"}`, nil, selected(OptionAllowWithUpdates),
			`{"behavior":"allow","updatedInput":{"url":"https://example.com/x"},"updatedPermissions":[{"type":"addRules","rules":[{"toolName":"WebFetch","ruleContent":"domain:example.com"}],"behavior":"allow","destination":"localSettings"}],"toolUseID":"t","decisionClassification":"user_permanent"}`, nil},
		{"skill prefix rule", `{"tool_name":"Skill","input":{"skill":"commit -m fix"},"tool_use_id":"t"}`, nil, selected(OptionAllowSkillPrefix),
			`{"behavior":"allow","updatedInput":{"skill":"commit -m fix"},"updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Skill","ruleContent":"commit:*"}],"behavior":"allow","destination":"localSettings"}],"toolUseID":"t","decisionClassification":"user_permanent"}`, nil},
		{"whole-tool rule", `{"tool_name":"WebSearch","input":{"query":"q"},"tool_use_id":"t"}`, nil, selected(OptionAllowWithUpdates),
			`{"behavior":"allow","updatedInput":{"query":"q"},"updatedPermissions":[{"type":"addRules","rules":[{"toolName":"WebSearch"}],"behavior":"allow","destination":"localSettings"}],"toolUseID":"t","decisionClassification":"user_permanent"}`, nil},
		{"exit plan auto without auto support falls back", `{"tool_name":"ExitPlanMode","input":{},"tool_use_id":"t"}`, func(s *Session) { s.AutoUnavailable = true }, selected(OptionExitPlanAuto),
			`{"behavior":"allow","updatedInput":{},"updatedPermissions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}],"toolUseID":"t","decisionClassification":"user_permanent"}`,
			func(t *testing.T, d Decision) {
				if d.Mode != "acceptEdits" || !d.AutoFallback || !d.Allow {
					t.Errorf("decision %+v", d)
				}
			}},
		{"exit plan clear context", `{"tool_name":"ExitPlanMode","input":{"plan":"\n1. Fix\n"},"tool_use_id":"t"}`, nil, selected(OptionExitPlanClearAuto),
			`{"behavior":"deny","message":"User accepted the plan and requested a fresh context","interrupt":true,"toolUseID":"t","decisionClassification":"user_reject"}`,
			func(t *testing.T, d Decision) {
				if d.ClearContextMode != "auto" || !d.Interrupt || d.Mode != "" || d.Plan != "1. Fix" {
					t.Errorf("decision %+v", d)
				}
			}},
		{"background subagent reads cancelled as a refusal", `{"tool_name":"Bash","input":{},"tool_use_id":"t","agent_id":"a"}`, func(s *Session) { s.Background = true },
			json.RawMessage(`{"outcome":{"outcome":"cancelled"}}`),
			`{"behavior":"deny","message":"User refused permission to run tool","toolUseID":"t","decisionClassification":"user_reject"}`, nil},
		{"an option that was not offered", `{"tool_name":"Bash","input":{},"tool_use_id":"t"}`, nil, selected(OptionAllowWithUpdates),
			"error: Permission option was not offered: allow-with-updates", nil},
		{"a malformed answer aborts", `{"tool_name":"Bash","input":{},"tool_use_id":"t"}`, nil, json.RawMessage(`{}`),
			"error: Tool use aborted", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := testSession()
			if tt.session != nil {
				tt.session(&s)
			}
			d := ask(t, tt.req, s).Answer(tt.answer)
			if msg, ok := strings.CutPrefix(tt.want, "error: "); ok {
				if d.Error != msg || d.Response != nil {
					t.Errorf("decision %s %q, want error %q", d.Response, d.Error, msg)
				}
			} else if string(d.Response) != tt.want {
				t.Errorf("response\n got %s\nwant %s", d.Response, tt.want)
			}
			if tt.check != nil {
				tt.check(t, d)
			}
		})
	}
}

// TestFailures checks aborts, editor errors and the control_response frame.
func TestFailures(t *testing.T) {
	p := ask(t, `{"tool_name":"Bash","input":{},"tool_use_id":"t"}`, testSession())
	if got := string(p.Aborted().ControlResponse("r1")); got != `{"type":"control_response","response":{"subtype":"error","request_id":"r1","error":"Tool use aborted"}}` {
		t.Errorf("aborted: %s", got)
	}
	if d := p.Fail("Internal error"); d.Error != "Internal error" {
		t.Errorf("fail: %+v", d)
	}
	d := Deny(mustRequest(t, `{"tool_name":"Bash","input":{},"tool_use_id":"t"}`), "Session not found")
	if got := string(d.ControlResponse("r2")); got != `{"type":"control_response","response":{"subtype":"success","request_id":"r2","response":{"behavior":"deny","message":"Session not found","toolUseID":"t"}}}` {
		t.Errorf("deny: %s", got)
	}
}

// TestToolCallOverlay checks what Ask adds to the rendered tool call (Tool
// call of the request).
func TestToolCallOverlay(t *testing.T) {
	zed := testSession()
	air := testSession()
	air.Client = caps.Parse(json.RawMessage(`{"_meta":{"jetbrains":{"air":{"version":1,"capabilities":[]}}}}`))
	sub := testSession()
	sub.ParentToolUseID = "toolu_agent"
	tests := []struct {
		name     string
		req      string
		toolCall string
		s        Session
		want     string
	}{
		{"network host title and input block", `{"tool_name":"SandboxNetworkAccess","input":{"host":" registry.npmjs.org "},"tool_use_id":"n"}`,
			`{"toolCallId":"n","title":"SandboxNetworkAccess","content":[]}`, zed,
			"{\"toolCallId\":\"n\",\"title\":\"registry.npmjs.org\",\"content\":[{\"content\":{\"text\":\"```json\\n{\\n  \\\"host\\\": \\\" registry.npmjs.org \\\"\\n}\\n```\",\"type\":\"text\"},\"type\":\"content\"}]}"},
		{"AIR gets no input block", `{"tool_name":"SandboxNetworkAccess","input":{"host":"h"},"tool_use_id":"n"}`,
			`{"toolCallId":"n","title":"x"}`, air, `{"toolCallId":"n","title":"h"}`},
		{"blocked path becomes a location", `{"tool_name":"Bash","input":{},"tool_use_id":"b","blocked_path":"/w/tmp"}`,
			`{"toolCallId":"b","locations":[{"path":"/w/a"}]}`, zed, `{"toolCallId":"b","locations":[{"path":"/w/a"},{"path":"/w/tmp"}]}`},
		{"a known blocked path is not repeated", `{"tool_name":"Bash","input":{},"tool_use_id":"b","blocked_path":"/w/tmp"}`,
			`{"toolCallId":"b","locations":[{"path":"/w/tmp"}]}`, zed, `{"toolCallId":"b","locations":[{"path":"/w/tmp"}]}`},
		{"mcp server and subagent parent", `{"tool_name":"mcp__d__c","input":{},"tool_use_id":"m","mcp_server":{"name":"d","source":"user"}}`,
			`{"toolCallId":"m"}`, sub, `{"toolCallId":"m","_meta":{"claudeCode":{"toolName":"mcp__d__c","parentToolUseId":"toolu_agent","mcpServer":{"name":"d","source":"user"}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, d := Ask(mustRequest(t, tt.req), json.RawMessage(tt.toolCall), tt.s)
			if d != nil {
				t.Fatalf("immediate %s", d.Error)
			}
			var params struct {
				ToolCall json.RawMessage `json:"toolCall"`
			}
			_ = json.Unmarshal(p.Params, &params)
			if string(params.ToolCall) != tt.want {
				t.Errorf("toolCall\n got %s\nwant %s", params.ToolCall, tt.want)
			}
		})
	}
}

// TestQuestions checks the AskUserQuestion form and its answers (Question
// custom answers).
func TestQuestions(t *testing.T) {
	const req = `{"tool_name":"AskUserQuestion","tool_use_id":"q","input":{"questions":[` +
		`{"question":"Pick tools","header":"Tools","multiSelect":true,"options":[{"label":"a"},{"label":"b, c"}]},` +
		`{"question":"Pick one","options":[{"label":"x","preview":"px"}]},` +
		`{"question":"bad"}]}}`
	s := testSession()
	p := ask(t, req, s)
	want := `{"mode":"form","sessionId":"s","toolCallId":"q","message":"Please answer the following questions.","requestedSchema":{"type":"object","properties":{` +
		`"question_0":{"type":"array","title":"Tools","description":"Pick tools","items":{"anyOf":[{"const":"a","title":"a"},{"const":"b, c","title":"b, c"}]}},` +
		`"question_0_custom":{"type":"string","title":"Other","description":"Type your own answer to add to your selection above (optional)."},` +
		`"question_1":{"type":"string","description":"Pick one","oneOf":[{"const":"x","title":"x","_meta":{"_claude/askUserQuestionOption":{"preview":"px"}}}]},` +
		`"question_1_custom":{"type":"string","title":"Other","description":"Type your own answer, or add a note to the option you chose above (optional)."}}}}`
	if string(p.Params) != want {
		t.Errorf("params\n got %s\nwant %s", p.Params, want)
	}
	input := `"questions":[{"question":"Pick tools","header":"Tools","multiSelect":true,"options":[{"label":"a"},{"label":"b, c"}]},{"question":"Pick one","options":[{"label":"x","preview":"px"}]},{"question":"bad"}]`
	for _, tt := range []struct{ answer, want string }{
		{`{"action":"accept","content":{"question_0":["a","b, c"],"question_0_custom":" mine ","question_1":"x","question_1_custom":"note"}}`,
			`{"behavior":"allow","updatedInput":{` + input + `,"answers":{"Pick tools":"a, \"b, c\", mine","Pick one":"x"},"annotations":{"Pick one":{"notes":"note"}}},"toolUseID":"q"}`},
		{`{"action":"accept","content":{"question_1_custom":"typed"}}`,
			`{"behavior":"allow","updatedInput":{` + input + `,"answers":{"Pick one":"typed"}},"toolUseID":"q"}`},
		{`{"action":"decline"}`,
			`{"behavior":"allow","updatedInput":{` + input + `,"answers":{}},"toolUseID":"q"}`},
	} {
		if got := string(p.Answer(json.RawMessage(tt.answer)).Response); got != tt.want {
			t.Errorf("answer %s\n got %s\nwant %s", tt.answer, got, tt.want)
		}
	}
	s.ReportUnanswered = true
	p = ask(t, req, s)
	if got := string(p.Answer(json.RawMessage(`{"action":"decline"}`)).Response); !strings.Contains(got, `"annotations":{"Pick tools":{"unanswered":"dismissed"},"Pick one":{"unanswered":"dismissed"}}`) {
		t.Errorf("decline with unanswered report: %s", got)
	}
	if got := string(p.Answer(json.RawMessage(`{"action":"accept","content":{"question_1_custom":"typed"}}`)).Response); !strings.Contains(got, `"annotations":{"Pick tools":{"unanswered":"skipped"}}`) {
		t.Errorf("skipped with unanswered report: %s", got)
	}
	if d := p.Answer(json.RawMessage(`{"action":"cancel"}`)); d.Error != ErrToolUseAborted {
		t.Errorf("cancel: %+v", d)
	}
	if d := p.Fail("x"); string(d.Response) != `{"behavior":"deny","message":"Could not present the question to the user.","toolUseID":"q"}` {
		t.Errorf("fail: %s", d.Response)
	}
	if _, d := Ask(mustRequest(t, `{"tool_name":"AskUserQuestion","tool_use_id":"q","input":{"questions":[]}}`), nil, s); d == nil ||
		string(d.Response) != `{"behavior":"deny","message":"AskUserQuestion called with no valid questions.","toolUseID":"q"}` {
		t.Errorf("no questions: %+v", d)
	}
}

// TestWithoutFormElicitation checks that AskUserQuestion is disabled for an
// editor without form elicitation, and refused should it still arrive.
func TestWithoutFormElicitation(t *testing.T) {
	plain := caps.Parse(json.RawMessage(`{"fs":{"readTextFile":true}}`))
	if got := DisallowedTools(plain); !slices.Equal(got, []string{"AskUserQuestion"}) {
		t.Errorf("disallowed %v", got)
	}
	if got := DisallowedTools(testSession().Client); got != nil {
		t.Errorf("disallowed with form elicitation %v", got)
	}
	s := testSession()
	s.Client = plain
	_, d := Ask(mustRequest(t, `{"tool_name":"AskUserQuestion","tool_use_id":"q","input":{}}`), nil, s)
	if d == nil || d.Error == "" {
		t.Errorf("AskUserQuestion without form elicitation: %+v", d)
	}
}
