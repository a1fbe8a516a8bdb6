package reports

import (
	"fmt"
	"strings"
	"testing"
)

// The side-by-side view keeps the changed rows and two equal rows on each
// side; the other equal rows fold into gap rows, and a long line is
// clipped around the part that differs.
func TestTrimRows(t *testing.T) {
	var want, got []string
	for k := range 50 {
		want = append(want, fmt.Sprintf("client agent->editor {\"n\":%d}", k))
	}
	got = append(got, want...)
	long := strings.Repeat("z", 5000)
	want[25], got[25] = `client agent->editor {"v":"`+long+`old"}`, `client agent->editor {"v":"`+long+`new"}`
	rows := trimRows(align(want, got))
	var kinds []string
	for _, r := range rows {
		kinds = append(kinds, fmt.Sprintf("%s%d", r.Kind, r.Gap))
	}
	if got := strings.Join(kinds, " "); got != "gap23 same0 same0 changed0 same0 same0 gap22" {
		t.Fatalf("rows %s", got)
	}
	m := rows[3].WantMark
	if m.Mid != "old" || len(m.Pre) > lineWindow+20 || !strings.HasPrefix(m.Pre, "…(") {
		t.Errorf("changed row not clipped around its difference: %+v", m)
	}
}
