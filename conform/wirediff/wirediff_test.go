package wirediff

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/reports"
)

const (
	initPlain = `client editor->agent {"id":0,"jsonrpc":"2.0","method":"initialize","params":{"clientCapabilities":{"_meta":{"terminal_output":true}}}}`
	initAIR   = `client editor->agent {"id":0,"jsonrpc":"2.0","method":"initialize","params":{"clientCapabilities":{"_meta":{"jetbrains":{"air":{"version":1}}}}}}`
	prompt    = `client editor->agent {"id":3,"jsonrpc":"2.0","method":"session/prompt","params":{"sessionId":"<session-1>"}}`
	chunk     = `client agent->editor {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"<session-1>","update":{"content":{"text":"Hi","type":"text"},"sessionUpdate":"agent_message_chunk"}}}`
	toolCall  = `client agent->editor {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"<session-1>","update":{"kind":"execute","sessionUpdate":"tool_call","status":"pending","title":"ls","toolCallId":"t1"}}}`
	endTurn   = `client agent->editor {"id":3,"jsonrpc":"2.0","result":{"stopReason":"end_turn"}}`
)

func run(t *testing.T, lines ...string) Set {
	t.Helper()
	msgs, err := ParseCanonical([]byte(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return Set{"s/p": {Key: "s/p", File: "x.golden", Messages: msgs}}
}

func rulesOf(r *Report) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.Rule+" "+f.Change+" "+f.Path)
	}
	return out
}

func TestDiffClasses(t *testing.T) {
	tests := []struct {
		name     string
		old, new []string
		want     []string
		breaking bool
	}{
		{"equal", []string{initPlain, prompt, chunk, endTurn}, []string{initPlain, prompt, chunk, endTurn}, nil, false},
		{"removed field",
			[]string{initPlain, prompt, toolCall}, []string{initPlain, prompt, strings.Replace(toolCall, `"kind":"execute",`, "", 1)},
			[]string{"WIRE_FIELD_REMOVED removed $.params.update.kind"}, true},
		{"changed type",
			[]string{initPlain, prompt, toolCall}, []string{initPlain, prompt, strings.Replace(toolCall, `"toolCallId":"t1"`, `"toolCallId":1`, 1)},
			[]string{"WIRE_TYPE_CHANGED type $.params.update.toolCallId"}, true},
		{"changed stopReason",
			[]string{initPlain, prompt, endTurn}, []string{initPlain, prompt, strings.Replace(endTurn, "end_turn", "max_tokens", 1)},
			[]string{"WIRE_ENUM_VALUE_CHANGED changed $.result.stopReason"}, true},
		{"changed sessionUpdate kind pairs by method",
			[]string{initPlain, prompt, chunk, endTurn}, []string{initPlain, prompt, strings.Replace(chunk, "agent_message_chunk", "agent_thought_chunk", 1), endTurn},
			[]string{"WIRE_ENUM_VALUE_CHANGED changed $.params.update.sessionUpdate"}, true},
		{"reordered messages are moved",
			[]string{initPlain, prompt, toolCall, chunk, endTurn}, []string{initPlain, prompt, chunk, toolCall, endTurn},
			[]string{"WIRE_MESSAGE_MOVED moved "}, true},
		{"missing message",
			[]string{initPlain, prompt, toolCall, chunk, endTurn}, []string{initPlain, prompt, chunk, endTurn},
			[]string{"WIRE_MESSAGE_MISSING missing "}, true},
		{"method now errors",
			[]string{initPlain, prompt, endTurn}, []string{initPlain, prompt, `client agent->editor {"id":3,"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"}}`},
			[]string{"WIRE_METHOD_NOW_ERRORS errors $.error"}, true},
		{"AIR key to a plain client",
			[]string{initPlain, prompt, toolCall}, []string{initPlain, prompt, strings.Replace(toolCall, `"kind"`, `"_meta":{"jetbrains":{"air":{"x":1}}},"kind"`, 1)},
			[]string{"WIRE_AIR_KEY_TO_NON_AIR_CLIENT added $.params.update._meta.jetbrains"}, true},
		{"AIR key to an AIR client is additive",
			[]string{initAIR, prompt, toolCall}, []string{initAIR, prompt, strings.Replace(toolCall, `"kind"`, `"_meta":{"jetbrains":{"air":{"x":1}}},"kind"`, 1)},
			[]string{"ADDITIVE_META_KEY_ADDED added $.params.update._meta.jetbrains"}, false},
		{"AIR value changed",
			[]string{initAIR, prompt, strings.Replace(toolCall, `"kind"`, `"_meta":{"jetbrains":{"air":{"action":"retry"}}},"kind"`, 1)},
			[]string{initAIR, prompt, strings.Replace(toolCall, `"kind"`, `"_meta":{"jetbrains":{"air":{"action":"resume"}}},"kind"`, 1)},
			[]string{"AIR_ENUM_VALUE_CHANGED changed $.params.update._meta.jetbrains.air.action"}, true},
		{"new _meta key is additive",
			[]string{initPlain, prompt, toolCall}, []string{initPlain, prompt, strings.Replace(toolCall, `"kind"`, `"_meta":{"claudeCode":{"toolName":"Bash"}},"kind"`, 1)},
			[]string{"ADDITIVE_META_KEY_ADDED added $.params.update._meta.claudeCode"}, false},
		{"new key outside _meta",
			[]string{initPlain, prompt, toolCall}, []string{initPlain, prompt, strings.Replace(toolCall, `"kind"`, `"extra":1,"kind"`, 1)},
			[]string{"WIRE_KEY_ADDED_OUTSIDE_META added $.params.update.extra"}, true},
		{"new notification kind is additive",
			[]string{initPlain, prompt, chunk, endTurn}, []string{initPlain, prompt, chunk, strings.Replace(chunk, "agent_message_chunk", "plan", 1), endTurn},
			[]string{"ADDITIVE_NOTIFICATION_KIND_ADDED extra "}, false},
		{"one more message of a known kind",
			[]string{initPlain, prompt, chunk, endTurn}, []string{initPlain, prompt, chunk, chunk, endTurn},
			[]string{"WIRE_MESSAGE_ADDED extra "}, true},
		{"title text is cosmetic",
			[]string{initPlain, prompt, toolCall}, []string{initPlain, prompt, strings.Replace(toolCall, `"title":"ls"`, `"title":"List"`, 1)},
			[]string{"COSMETIC_TEXT_CHANGED changed $.params.update.title"}, false},
		{"CLI lane",
			[]string{initPlain, `cli:1 agent->cli {"request":{"subtype":"get_settings"},"type":"control_request"}`},
			[]string{initPlain, `cli:1 agent->cli {"request":{"subtype":"get_context_usage"},"type":"control_request"}`},
			[]string{"CLI_TRAFFIC_CHANGED changed $.request.subtype"}, true},
		{"CLI message of another type is another message",
			[]string{initPlain, `cli:1 agent->cli {"type":"user"}`}, []string{initPlain, `cli:1 agent->cli {"type":"control"}`},
			[]string{"CLI_TRAFFIC_CHANGED missing ", "CLI_TRAFFIC_CHANGED extra "}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Diff(run(t, tt.old...), run(t, tt.new...), nil)
			if got := rulesOf(r); !slices.Equal(got, tt.want) {
				t.Errorf("findings\n got %q\nwant %q", got, tt.want)
			}
			if got := r.Breaking() > 0; got != tt.breaking {
				t.Errorf("breaking = %v, want %v (%s)", got, tt.breaking, r.Summary())
			}
		})
	}
}

// TestGate: a team without AIR clients does not fail on AIR changes.
func TestGate(t *testing.T) {
	old := run(t, initAIR, prompt, strings.Replace(toolCall, `"kind"`, `"_meta":{"jetbrains":{"air":{"x":1}}},"kind"`, 1))
	new := run(t, initAIR, prompt, toolCall)
	if r := Diff(old, new, []Category{CategoryWire}); r.Breaking() != 0 || r.Count(CategoryAIR) != 1 {
		t.Errorf("--breaking WIRE: %s", r.Summary())
	}
	if r := Diff(old, new, nil); r.Breaking() != 1 {
		t.Errorf("default gate: %s", r.Summary())
	}
}

// TestRealPair diffs bash-foreground/zed as recorded today from the
// reference (testdata/real/base, a copy of goldens/bash-foreground/zed.golden)
// against the same scenario re-recorded (airwire conform --update
// --no-validate --profile zed) from a copy of the reference package with
// one mutation each:
//
//	optid: dist/permissions/options/shared.js, PERMISSION_OPTION_ID
//	       allowWithUpdates "allow-with-updates" → "allow-with-updates-x"
//	meta:  dist/acp-agent.js, attachUsageModel adds "_claude/mutated": true
//	       beside "_claude/model" in every usage_update's _meta
func TestRealPair(t *testing.T) {
	base := loadDir(t, "base")
	optid := Diff(base, loadDir(t, "optid"), nil)
	if got, want := rulesOf(optid), []string{"WIRE_ENUM_VALUE_CHANGED changed $.params.options[1].optionId"}; !slices.Equal(got, want) {
		t.Errorf("optid: got %q, want %q", got, want)
	}
	if f := optid.Findings; len(f) == 1 && (f[0].Line != 16 || f[0].Run != "bash-foreground/zed" || f[0].Kind != "session/request_permission" || !f[0].Breaking) {
		t.Errorf("optid finding: %+v", f[0])
	}
	meta := Diff(base, loadDir(t, "meta"), nil)
	if meta.Breaking() != 0 || len(meta.Findings) != 5 {
		t.Fatalf("meta: %s %q", meta.Summary(), rulesOf(meta))
	}
	for _, f := range meta.Findings {
		if f.Rule != MetaKeyAdded || f.Path != `$.params.update._meta["_claude/mutated"]` || f.Kind != "session/update usage_update" {
			t.Errorf("meta finding: %+v", f)
		}
	}
}

func loadDir(t *testing.T, name string) Set {
	t.Helper()
	s, err := Load(filepath.Join("testdata", "real", name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGoldensAgainstThemselves loads the repository's golden set twice:
// every run pairs and nothing differs.
func TestGoldensAgainstThemselves(t *testing.T) {
	dir := filepath.Join("..", "..", "goldens")
	a, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Load(dir)
	r := Diff(a, b, nil)
	if len(a) < 100 || len(r.Findings) != 0 || len(r.OnlyOld)+len(r.OnlyNew) != 0 {
		t.Errorf("%d runs: %s", len(a), r.Summary())
	}
}

// TestJournals diffs two journals of cmd/validate's testdata: the second
// sends _meta.jetbrains to a client that declared no AIR.
func TestJournals(t *testing.T) {
	dir := filepath.Join("..", "..", "cmd", "validate", "testdata")
	clean, err := Load(filepath.Join(dir, "clean.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	leak, err := Load(filepath.Join(dir, "leak.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	r := Diff(clean, leak, nil)
	if got, want := rulesOf(r), []string{"WIRE_AIR_KEY_TO_NON_AIR_CLIENT added $.result._meta.jetbrains"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if f := r.Findings[0]; f.Kind != "response 0" || f.Session != "connection" {
		t.Errorf("finding %+v", f)
	}
}

// TestReportJSONs: two conform reports carrying the real pair's transcripts
// diff as the goldens do; a run without a transcript is left out.
func TestReportJSONs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, variant string) string {
		data, err := os.ReadFile(filepath.Join("testdata", "real", variant, "bash-foreground", "zed.golden"))
		if err != nil {
			t.Fatal(err)
		}
		r := &reports.Report{Agent: "a", Sections: []string{}}
		r.Add(reports.Run{Scenario: "bash-foreground", Profile: "zed", Status: reports.StatusPass, Covers: []string{},
			Transcript: strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")})
		r.Add(reports.Run{Scenario: "never-ran", Profile: "air", Status: reports.StatusSkip, Covers: []string{}})
		p := filepath.Join(dir, name)
		if err := r.WriteJSON(p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	old, err := Load(write("old.json", "base"))
	if err != nil {
		t.Fatal(err)
	}
	nw, err := Load(write("new.json", "optid"))
	if err != nil {
		t.Fatal(err)
	}
	if len(old) != 1 || old["bash-foreground/zed"] == nil {
		t.Fatalf("runs loaded: %v", old)
	}
	if got, want := rulesOf(Diff(old, nw, nil)), []string{"WIRE_ENUM_VALUE_CHANGED changed $.params.options[1].optionId"}; !slices.Equal(got, want) {
		t.Errorf("reports: got %q, want %q", got, want)
	}
}
