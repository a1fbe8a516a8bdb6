package golden_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/golden"
)

// TestCompareListsEveryDifference: a comparison lists every difference, not
// only the first: two changed values on two lines, a missing line, an extra
// array element; the first-difference fields stay those of the first.
func TestCompareListsEveryDifference(t *testing.T) {
	want := `client agent->editor {"id":1,"result":{"configOptions":[{"currentValue":"default"}],"n":1}}
client agent->editor {"method":"session/update","params":{"update":{"sessionUpdate":"plan","entries":["a"]}}}
cli:1 agent->cli {"type":"user"}
cli:1 cli->agent {"type":"result"}
`
	got := `client agent->editor {"id":1,"result":{"configOptions":[{"currentValue":"auto"}],"n":2}}
client agent->editor {"method":"session/update","params":{"update":{"sessionUpdate":"plan","entries":["a","b"]}}}
cli:1 agent->cli {"type":"user"}
`
	e := golden.Compare("x.golden", []byte(want), []byte(got))
	if e.Path != "$.result.configOptions[0].currentValue" {
		t.Errorf("first difference at %q", e.Path)
	}
	var listed []string
	for _, d := range e.Diffs {
		listed = append(listed, fmt.Sprintf("%s %d %s %s %s -> %s", d.Kind, d.Line, d.Tag, d.Path, d.Want, d.Got))
	}
	wantListed := []string{
		`changed 1 client agent->editor $.result.configOptions[0].currentValue "default" -> "auto"`,
		`changed 1 client agent->editor $.result.n 1 -> 2`,
		`extra 2 client agent->editor $.params.update.entries[1] (absent) -> "b"`,
		`missing 4 cli:1 cli->agent  cli:1 cli->agent {"type":"result"} -> (absent)`,
	}
	if strings.Join(listed, "\n") != strings.Join(wantListed, "\n") {
		t.Errorf("differences:\n%s\nwant:\n%s", strings.Join(listed, "\n"), strings.Join(wantListed, "\n"))
	}
	if e.More {
		t.Error("More set with 4 differences")
	}
}

// TestCompareBoundsTheDifferences: past MaxDiffs, the list stops and More
// says so; long values are clipped.
func TestCompareBoundsTheDifferences(t *testing.T) {
	var want, got strings.Builder
	big := strings.Repeat("x", 10000)
	for i := range 30 {
		fmt.Fprintf(&want, "client agent->editor {\"id\":%d,\"result\":{\"v\":\"%s0\"}}\n", i, big)
		fmt.Fprintf(&got, "client agent->editor {\"id\":%d,\"result\":{\"v\":\"%s1\"}}\n", i, big)
	}
	e := golden.Compare("x.golden", []byte(want.String()), []byte(got.String()))
	if len(e.Diffs) != golden.MaxDiffs || !e.More {
		t.Fatalf("%d differences, more %v; want %d and more", len(e.Diffs), e.More, golden.MaxDiffs)
	}
	for _, d := range e.Diffs {
		if len(d.Want) > 3*golden.Window || len(d.Got) > 3*golden.Window {
			t.Fatalf("value not clipped: %d bytes", len(d.Want))
		}
	}
}

// One line replaced by one other message (here its update kind changed)
// is one change at its JSON path, as the first difference says, not a
// missing and an extra line.
func TestCompareOneLineReplaced(t *testing.T) {
	want := "client agent->editor {\"id\":1}\nclient agent->editor {\"params\":{\"update\":{\"sessionUpdate\":\"agent_thought_chunk\"}}}\ncli:1 agent->cli {}\n"
	got := strings.Replace(want, "agent_thought_chunk", "agent_message_chunk", 1)
	e := golden.Compare("x.golden", []byte(want), []byte(got))
	if len(e.Diffs) != 1 || e.Diffs[0].Kind != golden.Changed || e.Diffs[0].Path != "$.params.update.sessionUpdate" || e.Diffs[0].Path != e.Path {
		t.Errorf("differences %+v; first %s", e.Diffs, e.Path)
	}
}
