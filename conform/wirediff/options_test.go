package wirediff

import (
	"slices"
	"strings"
	"testing"
)

const (
	modeOption  = `{"currentValue":"default","id":"mode","name":"Mode","type":"select"}`
	modelOption = `{"currentValue":"opus","id":"model","name":"Model","type":"select"}`
	agentOption = `{"currentValue":"general","id":"agent","name":"Subagent type","type":"select"}`
)

func sessionNew(options ...string) string {
	return `client agent->editor {"id":1,"jsonrpc":"2.0","result":{"configOptions":[` + strings.Join(options, ",") +
		`],"sessionId":"<session-1>"}}`
}

// TestOptionAddedIsAdditive: a config option inserted before the others is
// one additive finding, not a rename of every following option; the
// reverse is one removal; a change inside an option is named by its id;
// options in another order are one change.
func TestOptionAddedIsAdditive(t *testing.T) {
	newSession := `client editor->agent {"id":1,"jsonrpc":"2.0","method":"session/new","params":{}}`
	two := run(t, initPlain, newSession, sessionNew(modeOption, modelOption))
	three := run(t, initPlain, newSession, sessionNew(agentOption, modeOption, modelOption))
	r := Diff(two, three, nil)
	if got, want := rulesOf(r), []string{`ADDITIVE_OPTION_ADDED added $.result.configOptions[id="agent"]`}; !slices.Equal(got, want) {
		t.Errorf("added: got %q, want %q", got, want)
	}
	if r.Breaking() != 0 {
		t.Errorf("an added option is breaking: %s", r.Summary())
	}
	if got, want := rulesOf(Diff(three, two, nil)), []string{`WIRE_FIELD_REMOVED removed $.result.configOptions[id="agent"]`}; !slices.Equal(got, want) {
		t.Errorf("removed: got %q, want %q", got, want)
	}
	auto := run(t, initPlain, newSession, sessionNew(agentOption, strings.Replace(modeOption, `"default"`, `"auto"`, 1), modelOption))
	if got, want := rulesOf(Diff(three, auto, nil)), []string{`WIRE_VALUE_CHANGED changed $.result.configOptions[id="mode"].currentValue`}; !slices.Equal(got, want) {
		t.Errorf("changed: got %q, want %q", got, want)
	}
	swapped := run(t, initPlain, newSession, sessionNew(modelOption, modeOption))
	if got, want := rulesOf(Diff(two, swapped, nil)), []string{`WIRE_VALUE_CHANGED changed $.result.configOptions[*].id`}; !slices.Equal(got, want) {
		t.Errorf("reordered: got %q, want %q", got, want)
	}
}
