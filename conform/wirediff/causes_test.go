package wirediff

import (
	"bytes"
	"strings"
	"testing"
)

// TestTextGroupsCauses: a change found in three runs (the new value names
// each run's own session) and one found in one run are two causes, said first with their
// counts of runs and an example; the findings follow.
func TestTextGroupsCauses(t *testing.T) {
	r := &Report{}
	for i, run := range []string{"a/air", "b/air", "c/air"} {
		r.Findings = append(r.Findings, Finding{Rule: "value-changed", Category: "WIRE", Change: "changed", Run: run,
			Tag: "client agent->editor", Kind: "session/new", Path: "$.result.configOptions[0].currentValue",
			Old: `"default"`, New: `"auto for <session-` + string(rune('1'+i)) + `>"`, Session: "<session-" + string(rune('1'+i)) + ">"})
	}
	r.Findings = append(r.Findings, Finding{Rule: "message-missing", Category: "WIRE", Change: "missing", Run: "b/air",
		Tag: "cli:1 agent->cli", Kind: "control_request"})
	var out bytes.Buffer
	if err := WriteReport(&out, r, FormatText); err != nil {
		t.Fatal(err)
	}
	want := "causes (2, most runs first):\n" +
		"  #1 wire      value-changed, 3 runs, e.g. a/air: session/new: $.result.configOptions[0].currentValue \"default\" → \"auto for <session-1>\"\n" +
		"  #2 wire      message-missing, 1 run, e.g. b/air: missing message control_request (cli:1 agent->cli)\n"
	if !strings.HasPrefix(out.String(), want) {
		t.Errorf("text:\n%s\nwant it to start with:\n%s", out.String(), want)
	}
	if strings.Count(out.String(), "currentValue") != 4 {
		t.Errorf("the findings do not follow the causes:\n%s", out.String())
	}
}
