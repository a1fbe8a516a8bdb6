package mockapi

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

const exampleScript = `
turns:
  - when: {text: "List the files"}
    reply:
      - thinking: "The user wants a listing."
      - text: "I'll look."
      - toolUse: {id: toolu_ls, name: Bash, input: {command: "ls -la", description: "List files"}}
  - when: {toolResult: toolu_ls}
    reply: [{text: "There are two files."}]
  - when: {text: "Write the changelog"}
    errors: [{status: 529}, {status: 429, retryAfter: 2}]
    repeatErrors: true
  - when: {text: "slow"}
    reply: [{text: "one two three"}]
    stream: {eventDelay: 200ms}
side:
  title: "Fix the build"
  default: "ok"
`

func TestParseYAML(t *testing.T) {
	s, err := ParseYAML([]byte(exampleScript))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Turns) != 4 {
		t.Fatalf("turns: got %d, want 4", len(s.Turns))
	}
	ls := s.Turns[0]
	if ls.Reply[2].ToolUse.Input["command"] != "ls -la" || ls.stopReason() != "tool_use" {
		t.Errorf("turn 0: got %+v, stop %q", ls.Reply[2].ToolUse, ls.stopReason())
	}
	if s.Turns[1].stopReason() != "end_turn" {
		t.Errorf("turn 1 stop reason: got %q", s.Turns[1].stopReason())
	}
	if e := s.Turns[2].Errors[1]; e.RetryAfter == nil || *e.RetryAfter != 2 || e.withDefaults().Type != "rate_limit_error" {
		t.Errorf("turn 2 error 1: got %+v", e)
	}
	if got := time.Duration(s.Turns[3].Stream.EventDelay); got != 200*time.Millisecond {
		t.Errorf("eventDelay: got %v", got)
	}
	if s.Side.Title != "Fix the build" {
		t.Errorf("side title: got %q", s.Side.Title)
	}
}

func TestParseJSON(t *testing.T) {
	s, err := ParseJSON([]byte(`{"turns":[{"when":{"text":"hi"},"reply":[{"text":"hello"}],"stream":{"eventDelay":"1s"}}],"side":{"title":"T"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Turns[0].Reply[0].Text != "hello" || time.Duration(s.Turns[0].Stream.EventDelay) != time.Second {
		t.Errorf("got %+v", s.Turns[0])
	}
	if _, err := ParseJSON([]byte(`{"turns":[{"when":{"txt":"hi"},"reply":[{"text":"x"}]}]}`)); err == nil || !strings.Contains(err.Error(), "txt") {
		t.Errorf("unknown JSON key: got %v, want an error naming txt", err)
	}
}

func TestParseFile(t *testing.T) {
	scenario := "name: demo\ncovers: [Text]\nmodel:\n  turns:\n    - when: {text: hi}\n      reply: [{text: hello}]\n"
	s, err := ParseFile([]byte(scenario))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Turns) != 1 || s.Turns[0].Reply[0].Text != "hello" {
		t.Errorf("scenario model: got %+v", s)
	}
	bare, err := ParseFile([]byte(exampleScript))
	if err != nil || len(bare.Turns) != 4 {
		t.Errorf("bare script: got %v, %v", bare, err)
	}
	if _, err := ParseFile([]byte("model:\n  turns:\n    - when: {text: hi}\n      replies: [{text: hello}]\n")); err == nil || !strings.Contains(err.Error(), "replies") {
		t.Errorf("typo under model: got %v, want an error naming replies", err)
	}
	if _, err := ParseFile([]byte("name: demo\n")); err == nil {
		t.Error("a scenario without model: parsed as a script")
	}
}

func TestParseYAMLRejects(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"unknown key", "turns:\n  - when: {text: a}\n    reply: [{text: b}]\n    stopreason: end_turn\n", "stopreason"},
		{"unknown block key", "turns:\n  - when: {text: a}\n    reply: [{txt: b}]\n", "txt"},
		{"empty when", "turns:\n  - when: {}\n    reply: [{text: b}]\n", "when: set text, toolResult or reminder"},
		{"no reply", "turns:\n  - when: {text: a}\n", "reply: empty"},
		{"two kinds in a block", "turns:\n  - when: {text: a}\n    reply: [{text: b, thinking: c}]\n", "exactly one"},
		{"tool use without id", "turns:\n  - when: {text: a}\n    reply: [{toolUse: {name: Bash}}]\n", "id and name"},
		{"bad status", "turns:\n  - when: {text: a}\n    reply: [{text: b}]\n    errors: [{status: 418}]\n", "status 418"},
		{"repeat without errors", "turns:\n  - when: {text: a}\n    reply: [{text: b}]\n    repeatErrors: true\n", "needs errors"},
		{"bad stop reason", "turns:\n  - when: {text: a}\n    reply: [{text: b}]\n    stopReason: done\n", "stopReason"},
		{"bad duration", "turns:\n  - when: {text: a}\n    reply: [{text: b}]\n    stream: {eventDelay: soon}\n", "duration"},
		{"drop and hang", "turns:\n  - when: {text: a}\n    reply: [{text: b}]\n    stream: {dropAfter: 2, hang: true}\n", "at most one"},
		{"capture without group", "turns:\n  - when: {text: a}\n    reply: [{text: b}]\n    capture: {path: 'at \\S+'}\n", "has no group"},
		{"capture bad regexp", "turns:\n  - when: {text: a}\n    reply: [{text: b}]\n    capture: {path: 'at (\\S+'}\n", "capture path"},
		{"bad cache lifetime", "turns:\n  - when: {text: a}\n    reply: [{text: b}]\n    usage: {cacheTTL: 2h}\n", "cacheTTL"},
		{"capture bad name", "turns:\n  - when: {text: a}\n    reply: [{text: b}]\n    capture: {plan-file: 'at (\\S+)'}\n", "name \"plan-file\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseYAML([]byte(tt.yaml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestErrorsOnlyTurnIsValid(t *testing.T) {
	if _, err := ParseYAML([]byte("turns:\n  - when: {text: a}\n    errors: [{status: 401}]\n    repeatErrors: true\n")); err != nil {
		t.Fatal(err)
	}
}

func TestLastUserMessage(t *testing.T) {
	msgs := []message{
		{Role: "user", Content: []byte(`"first"`)},
		{Role: "assistant", Content: []byte(`[{"type":"text","text":"x"}]`)},
		{Role: "user", Content: []byte(`[{"type":"text","text":"<system-reminder>\nList the files, said nobody\n</system-reminder>\n"},{"type":"tool_result","tool_use_id":"toolu_a","content":"ok"},{"type":"text","text":"Go on"}]`)},
		{Role: "system", Content: []byte(`[{"type":"text","text":"# Environment"}]`)},
	}
	u := lastUserMessage(msgs)
	if u.Text != "Go on" || len(u.ToolResults) != 1 || u.ToolResults[0] != "toolu_a" {
		t.Errorf("got %+v", u)
	}
	if (When{Text: "List the files"}).matches(u) {
		t.Error("a system reminder's text matched")
	}
	if !(When{ToolResult: "toolu_a", Text: "Go"}).matches(u) || (When{ToolResult: "toolu_b"}).matches(u) {
		t.Error("tool result matching is wrong")
	}
	if !(When{Reminder: "said nobody"}).matches(u) || (When{Reminder: "Go on"}).matches(u) {
		t.Error("reminder matching is wrong: it must see the reminder sections, and only them")
	}
	n := lastUserMessage([]message{{Role: "user", Content: []byte(`"<system-reminder>\n<task-notification>b1 done</task-notification>\n</system-reminder>"`)}})
	if n.Text != "" || !(When{Reminder: "<task-notification>"}).matches(n) {
		t.Errorf("a turn the CLI starts on a task notification: got %+v", n)
	}
}

func TestToolInputStreamsWholeMembers(t *testing.T) {
	// The pieces must not depend on the values' lengths (a run's path).
	for _, path := range []string{"/tmp/aw-1/work/a.txt", "/tmp/aw-1234567890/work/a.txt"} {
		got := splitMembers(map[string]any{"file_path": path, "content": "x", "n": 1})
		want := []string{"{", `"content":"x"`, `,"file_path":"` + path + `"`, `,"n":1`, "}"}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	if got := splitMembers(map[string]any{}); strings.Join(got, "") != "{}" {
		t.Errorf("empty input: %q", got)
	}
}

// A cache lifetime breaks the cache written down in cache_creation, as
// the API reports it.
func TestUsageCacheLifetime(t *testing.T) {
	for ttl, want := range map[string]string{
		"":   `{"cache_creation_input_tokens":5,"cache_read_input_tokens":0,"input_tokens":10,"output_tokens":1}`,
		"1h": `{"cache_creation":{"ephemeral_1h_input_tokens":5,"ephemeral_5m_input_tokens":0},"cache_creation_input_tokens":5,"cache_read_input_tokens":0,"input_tokens":10,"output_tokens":1}`,
		"5m": `{"cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":5},"cache_creation_input_tokens":5,"cache_read_input_tokens":0,"input_tokens":10,"output_tokens":1}`,
	} {
		got, _ := json.Marshal(Usage{InputTokens: 10, CacheCreationTokens: 5, CacheTTL: ttl}.wire(1))
		if string(got) != want {
			t.Errorf("%q: %s, want %s", ttl, got, want)
		}
	}
}
