package wirediff

import (
	"bytes"
	"strings"
	"testing"
)

// TestTextGroupsCauses: a change found in three runs (the new value names
// each run's own session) and a message missing from a run without it are
// two causes, said first with their counts of runs and an example; a
// message missing only from a run that has the change comes with it; the
// findings follow.
func TestTextGroupsCauses(t *testing.T) {
	r := &Report{}
	for i, run := range []string{"a/air", "b/air", "c/air"} {
		r.Findings = append(r.Findings, Finding{Rule: "value-changed", Category: "WIRE", Change: "changed", Run: run,
			Tag: "client agent->editor", Kind: "session/new", Path: "$.result.configOptions[0].currentValue",
			Old: `"default"`, New: `"auto for <session-` + string(rune('1'+i)) + `>"`, Session: "<session-" + string(rune('1'+i)) + ">"})
	}
	r.Findings = append(r.Findings, Finding{Rule: "message-missing", Category: "WIRE", Change: "missing", Run: "b/air",
		Tag: "cli:1 agent->cli", Kind: "control_request"},
		Finding{Rule: "message-missing", Category: "WIRE", Change: "missing", Run: "d/air",
			Tag: "client agent->editor", Kind: "session/update plan"})
	var out bytes.Buffer
	if err := WriteReport(&out, r, FormatText); err != nil {
		t.Fatal(err)
	}
	want := "causes (2, most runs first):\n" +
		"  #1 wire      value-changed, 3 runs, e.g. a/air: session/new: $.result.configOptions[0].currentValue \"default\" → \"auto for <session-1>\"\n" +
		"      with it: missing message control_request (cli:1 agent->cli)\n" +
		"  #2 wire      message-missing, 1 run, e.g. d/air: missing message session/update plan (client agent->editor)\n"
	if !strings.HasPrefix(out.String(), want) {
		t.Errorf("text:\n%s\nwant it to start with:\n%s", out.String(), want)
	}
	if strings.Count(out.String(), "currentValue") != 4 {
		t.Errorf("the findings do not follow the causes:\n%s", out.String())
	}
}

// TestCausesFold: the same change in different messages (responses to
// different requests) and the same option at another argv index are one
// cause each; changes seen in exactly the same two runs fold into one;
// a value change seen in only some of a cause's runs stays its own cause.
func TestCausesFold(t *testing.T) {
	f := func(run, kind, path, old, new string) Finding {
		return Finding{Rule: "value-changed", Category: "WIRE", Change: "changed", Run: run, Tag: "client agent->editor",
			Kind: kind, Path: path, Old: old, New: new}
	}
	r := &Report{Findings: []Finding{
		f("a/air", "response 1", "$.result.modes.currentModeId", `"default"`, `"auto"`),
		f("b/air", "response 3", "$.result.modes.currentModeId", `"default"`, `"auto"`),
		f("a/air", "spawn", "$.argv[9]", `"--permission-mode=default"`, `"--permission-mode=auto"`),
		f("b/air", "spawn", "$.argv[10]", `"--permission-mode=default"`, `"--permission-mode=auto"`),
		f("a/air", "session/update usage_update", "$.params.update.used", `1`, `2`),
	}}
	causes := r.Causes()
	if len(causes) != 2 {
		t.Fatalf("%d causes, want 2: %+v", len(causes), causes)
	}
	if causes[0].Runs != 2 || len(causes[0].Also) != 1 || !strings.Contains(causes[0].Also[0].Path, "argv") {
		t.Errorf("the mode change: %+v", causes[0])
	}
	if causes[1].Runs != 1 || causes[1].Path != "$.params.update.used" || len(causes[1].Also) != 0 {
		t.Errorf("a change in one of the runs was folded: %+v", causes[1])
	}
}
