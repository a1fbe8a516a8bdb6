package reports

import (
	"fmt"
	"testing"
)

// TestMovedIsOneCauseWherever: the same line moved to another line in
// each run is one cause; moved to the same place as a change elsewhere is
// not.
func TestMovedIsOneCauseWherever(t *testing.T) {
	line := `client agent->editor {"method":"session/update","params":{"sessionId":"<agent-1>"}}`
	r := &Report{}
	for i, at := range []string{"(at line 28)", "(at line 29)", "(at $.params.x[3])"} {
		d := Difference{Kind: "moved", Line: 26 + i, Tag: "client agent->editor", Expected: line, Actual: at}
		r.Add(Run{Scenario: "s", Profile: fmt.Sprint(i), Status: StatusFail, Failure: &Failure{Check: CheckGolden, Differences: []Difference{d}}})
	}
	d := Difference{Kind: "missing", Line: 3, Tag: "client agent->editor", Expected: line, Actual: "(absent)"}
	r.Add(Run{Scenario: "t", Profile: "air", Status: StatusFail, Failure: &Failure{Check: CheckGolden, Differences: []Difference{d}}})
	r.Group()
	if len(r.Causes) != 2 || r.Causes[0].Runs != 3 || r.Causes[0].New != "" || r.Causes[1].Kind != "missing" {
		t.Errorf("causes %+v", r.Causes)
	}
}

// TestMethodAt: a request and a notification name their own method; a
// response the method of the request with its id on its lane, sent the
// other way, before it.
func TestMethodAt(t *testing.T) {
	lines := []string{
		`client editor->agent {"id":1,"method":"session/new","params":{}}`,
		`client agent->editor {"id":"x","method":"session/request_permission","params":{}}`,
		`client agent->editor {"id":1,"result":{}}`,
		`client editor->agent {"id":"x","result":{}}`,
		`client agent->editor {"id":2,"result":{}}`,
		`cli:1 spawn {"argv":[]}`,
		`not json`,
	}
	for n, want := range []string{"", "session/new", "session/request_permission", "session/new", "session/request_permission", "", "", "", ""} {
		if got := MethodAt(lines, n); got != want {
			t.Errorf("line %d: %q, want %q", n, got, want)
		}
	}
}
