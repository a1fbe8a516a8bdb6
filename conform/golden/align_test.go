package golden_test

import (
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/golden"
)

// transcript is a small canonical transcript: a prompt, three updates and
// the response.
var transcript = []string{
	`client editor->agent {"id":2,"method":"session/prompt","params":{"sessionId":"<session-1>"}}`,
	`client agent->editor {"method":"session/update","params":{"update":{"sessionUpdate":"tool_call","toolCallId":"toolu_a"}}}`,
	`client agent->editor {"method":"session/update","params":{"update":{"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"toolu_a"}}}`,
	`client agent->editor {"method":"session/update","params":{"update":{"content":{"text":"Done."},"sessionUpdate":"agent_message_chunk"}}}`,
	`client agent->editor {"id":2,"result":{"stopReason":"end_turn"}}`,
	`cli:1 agent->cli {"type":"user"}`,
}

// edit returns transcript with its lines in the given order (indexes into
// transcript; a string replaces that line).
func edit(lines ...any) []byte {
	var out []string
	for _, l := range lines {
		switch v := l.(type) {
		case int:
			out = append(out, transcript[v])
		case string:
			out = append(out, v)
		}
	}
	return []byte(strings.Join(out, "\n") + "\n")
}

func TestCompareAligns(t *testing.T) {
	want := edit(0, 1, 2, 3, 4, 5)
	changedUpdate := strings.Replace(transcript[2], `"completed"`, `"failed"`, 1)
	plan := `client agent->editor {"method":"session/update","params":{"update":{"entries":[],"sessionUpdate":"plan"}}}`
	tests := map[string]struct {
		got               []byte
		kind              string
		line, gotLine     int
		path, wantV, gotV string
		text              string
	}{
		"a missing message is missing, at its own line": {
			got: edit(0, 1, 3, 4, 5), kind: golden.Missing, line: 3, gotLine: 3, wantV: transcript[2], gotV: "(absent)",
			text: "first difference on line 3 (client agent->editor): missing: the actual transcript lacks it (it would be its line 3)",
		},
		"an extra message is extra": {
			got: edit(0, 1, 3, 2, 3, 4, 5), kind: golden.Extra, line: 3, gotLine: 3, wantV: "(absent)", gotV: transcript[3],
			text: "extra: line 3 of the actual transcript is not in the golden",
		},
		"two messages swapped are a move": {
			got: edit(0, 2, 1, 3, 4, 5), kind: golden.Moved, line: 2, gotLine: 3, wantV: transcript[1], gotV: "(at line 3)",
			text: "first difference on line 2 (client agent->editor): moved: it is line 3 of the actual transcript",
		},
		"a message missing before a changed one is missing, not compared with it": {
			got: edit(0, changedUpdate, 3, 4, 5), kind: golden.Missing, line: 2, gotLine: 2, wantV: transcript[1], gotV: "(absent)",
		},
		"the same message with another value is changed at its JSON path": {
			got: edit(0, 1, changedUpdate, 3, 4, 5), kind: golden.Changed, line: 3, gotLine: 3,
			path: "$.params.update.status", wantV: `"completed"`, gotV: `"failed"`,
			text: `first difference on line 3 (client agent->editor) at JSON path $.params.update.status: expected "completed", got "failed"`,
		},
		"an extra message before a changed one is extra": {
			got: edit(0, 1, plan, changedUpdate, 3, 4, 5), kind: golden.Extra, line: 3, gotLine: 3, wantV: "(absent)", gotV: plan,
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			e := golden.Compare("x.golden", want, tt.got)
			if e.Kind != tt.kind || e.Line != tt.line || e.GotLine != tt.gotLine || e.Path != tt.path || e.Want != tt.wantV || e.Got != tt.gotV {
				t.Errorf("got kind %q line %d got line %d path %q want %s got %s\n%s", e.Kind, e.Line, e.GotLine, e.Path, e.Want, e.Got, e)
			}
			if !strings.Contains(e.Error(), tt.text) {
				t.Errorf("error text lacks %q:\n%s", tt.text, e)
			}
		})
	}
}

func TestFirstDiffAlignsArrays(t *testing.T) {
	row := func(id, title string) string {
		return `{"_meta":{"archived":false},"sessionId":"` + id + `","title":"` + title + `"}`
	}
	list := func(rows ...string) string {
		return `client agent->editor {"id":1,"result":{"sessions":[` + strings.Join(rows, ",") + `]}}` + "\n"
	}
	tests := map[string]struct {
		got                     string
		kind, path, wantV, got2 string
	}{
		"reversed rows are a move, not a changed key": {
			got: list(row("<session-2>", "B"), row("<session-1>", "A")), kind: golden.Moved,
			path: "$.result.sessions[0]", wantV: row("<session-1>", "A"), got2: "(at $.result.sessions[1])",
		},
		"rows that differ only in id, reversed": {
			got: list(row("<session-2>", "A"), row("<session-1>", "A")), kind: golden.Moved,
			path: "$.result.sessions[0]", wantV: row("<session-1>", "A"), got2: "(at $.result.sessions[1])",
		},
		"a missing row": {
			got: list(row("<session-1>", "A")), kind: golden.Missing, path: "$.result.sessions[1]", wantV: row("<session-2>", "B"), got2: "(absent)",
		},
		"an extra row": {
			got: list(row("<session-1>", "A"), row("<session-3>", "C"), row("<session-2>", "B")), kind: golden.Extra,
			path: "$.result.sessions[1]", wantV: "(absent)", got2: row("<session-3>", "C"),
		},
		"a changed row is compared inside": {
			got: list(row("<session-1>", "A"), row("<session-2>", "X")), kind: golden.Changed, path: "$.result.sessions[1].title", wantV: `"B"`, got2: `"X"`,
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			want := list(row("<session-1>", "A"), row("<session-2>", "B"))
			if name == "rows that differ only in id, reversed" {
				want = list(row("<session-1>", "A"), row("<session-2>", "A"))
			}
			e := golden.Compare("x.golden", []byte(want), []byte(tt.got))
			if e.Kind != tt.kind || e.Path != tt.path || e.Want != tt.wantV || e.Got != tt.got2 || e.Line != 1 {
				t.Errorf("got kind %q line %d path %q want %s got %s", e.Kind, e.Line, e.Path, e.Want, e.Got)
			}
			if tt.kind != golden.Changed && !strings.Contains(e.Error(), "at JSON path "+tt.path+": "+tt.kind+": ") {
				t.Errorf("error text does not say %s at %s:\n%s", tt.kind, tt.path, e)
			}
		})
	}
}
