package reach

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/testroot"
	"github.com/airwire/airwire/schemas/validate"
)

// tabledSections must have a row for each of their subsections.
var tabledSections = []string{"Negotiation", "Diff patch", "Permission presentation", "Async tasks", "Agent file-change report",
	"Session failure", "Session index"}

// TestRuleTable: every row names a contract section, has a validator rule
// or a scenario or a reason, and cites only validator rules and scenarios
// that exist; the tabled sections have a row per subsection.
func TestRuleTable(t *testing.T) {
	rows, err := RuleTable()
	if err != nil {
		t.Fatal(err)
	}
	scs, err := scenario.LoadDir(filepath.Join(testroot.Root(t), "scenarios"))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, sc := range scs {
		names[sc.Name] = true
	}
	seen := map[string]bool{}
	for i, r := range rows {
		seen[r.Section] = true
		if !scenario.IsSection(r.Section) && !scenario.IsSubsection(r.Section) || strings.TrimSpace(r.Rule) == "" {
			t.Errorf("row %d: %q is no contract section, or the row has no rule text", i+1, r.Section)
		}
		if len(r.Validator) == 0 && len(r.Scenarios) == 0 && strings.TrimSpace(r.Reason) == "" {
			t.Errorf("row %d (%s: %s): neither a validator rule, a scenario nor a reason", i+1, r.Section, r.Rule)
		}
		for _, v := range r.Validator {
			if !validate.IsRule(v) {
				t.Errorf("row %d (%s): %q is no validator rule (validate.Rules)", i+1, r.Section, v)
			}
		}
		for _, s := range r.Scenarios {
			if !names[s] {
				t.Errorf("row %d (%s): no scenario %q", i+1, r.Section, s)
			}
		}
	}
	for _, sec := range tabledSections {
		for _, sub := range scenario.SubsectionsOf(sec) {
			if name := sec + scenario.SubsectionSep + sub; !seen[name] && !strings.HasPrefix(sub, "Relation to") {
				t.Errorf("no row for %q", name)
			}
		}
	}
	if tot := TotalsOf(rows); tot.Rules < 100 || tot.NeitherWithoutReason != 0 {
		t.Errorf("totals %+v: want at least 100 rules and none without a check or a reason", tot)
	}
}

func TestTotalsOf(t *testing.T) {
	rows := []WireRule{
		{Rule: "a", Validator: []string{"x"}, Scenarios: []string{"s"}},
		{Rule: "b", Validator: []string{"x"}},
		{Rule: "c", Scenarios: []string{"s"}},
		{Rule: "d", Reason: "why"},
		{Rule: "e"},
	}
	want := RuleTotals{Rules: 5, WithScenario: 2, WithRule: 2, Both: 1, Neither: 2, NeitherWithoutReason: 1}
	if got := TotalsOf(rows); got != want {
		t.Errorf("TotalsOf = %+v, want %+v", got, want)
	}
	var b strings.Builder
	if err := WriteRuleText(&b, rows); err != nil || !strings.Contains(b.String(), "all  ") || !strings.Contains(b.String(), "reason: why") {
		t.Errorf("WriteRuleText: %v\n%s", err, b.String())
	}
}
