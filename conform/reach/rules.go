package reach

import (
	_ "embed"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"go.yaml.in/yaml/v3"
)

// rulesYAML is the rule table: the contract's wire rules, each with the
// validator rules that check it, the scenarios that pin it, or the reason
// it has neither (rules.yaml; docs/reach.md, "Rule table").
//
//go:embed rules.yaml
var rulesYAML []byte

// WireRule is one row of the rule table.
type WireRule struct {
	// Section is "Section" or "Section > Subsection" of air-extensions.md.
	Section string `yaml:"section" json:"section"`
	// Rule is the rule in short.
	Rule string `yaml:"rule" json:"rule"`
	// Validator are validator rule ids (validate.Rules) that check it on
	// every run.
	Validator []string `yaml:"validator,omitempty" json:"validator,omitempty"`
	// Scenarios are scenarios whose goldens pin it.
	Scenarios []string `yaml:"scenarios,omitempty" json:"scenarios,omitempty"`
	// Reason says why a row has neither.
	Reason string `yaml:"reason,omitempty" json:"reason,omitempty"`
}

// RuleTotals counts the rows of the rule table.
type RuleTotals struct {
	Rules        int `json:"rules"`
	WithScenario int `json:"withScenario"`
	WithRule     int `json:"withValidatorRule"`
	Both         int `json:"both"`
	Neither      int `json:"neither"`
	// NeitherWithoutReason must be 0 (TestRuleTable).
	NeitherWithoutReason int `json:"neitherWithoutReason"`
}

// RuleTable reads the rule table.
func RuleTable() ([]WireRule, error) {
	var rows []WireRule
	if err := yaml.Unmarshal(rulesYAML, &rows); err != nil {
		return nil, fmt.Errorf("rules.yaml: %w", err)
	}
	return rows, nil
}

// TotalsOf counts rows.
func TotalsOf(rows []WireRule) RuleTotals {
	t := RuleTotals{Rules: len(rows)}
	for _, r := range rows {
		s, v := len(r.Scenarios) > 0, len(r.Validator) > 0
		switch {
		case s && v:
			t.Both++
		case !s && !v:
			t.Neither++
			if strings.TrimSpace(r.Reason) == "" {
				t.NeitherWithoutReason++
			}
		}
		if s {
			t.WithScenario++
		}
		if v {
			t.WithRule++
		}
	}
	return t
}

// WriteRuleText writes the totals, per section and in all, then the rows
// that have neither a scenario nor a validator rule, with their reasons.
func WriteRuleText(w io.Writer, rows []WireRule) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Rule table: the contract's wire rules (conform/reach/rules.yaml; docs/reach.md)\n\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SECTION\tRULES\tSCENARIO\tVALIDATOR\tBOTH\tNEITHER\t")
	for _, sec := range ruleSections(rows) {
		writeTotals(tw, sec, TotalsOf(rowsOf(rows, sec)))
	}
	writeTotals(tw, "all", TotalsOf(rows))
	tw.Flush()
	fmt.Fprintf(&b, "\nNeither a scenario nor a validator rule:\n")
	for _, r := range rows {
		if len(r.Scenarios) == 0 && len(r.Validator) == 0 {
			fmt.Fprintf(&b, "  %s: %s\n    reason: %s\n", r.Section, r.Rule, dash(r.Reason))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeTotals(w io.Writer, name string, t RuleTotals) {
	fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\t\n", name, t.Rules, t.WithScenario, t.WithRule, t.Both, t.Neither)
}

// ruleSections are the top-level sections of rows, in their order.
func ruleSections(rows []WireRule) []string {
	var out []string
	for _, r := range rows {
		sec, _, _ := strings.Cut(r.Section, " > ")
		if len(out) == 0 || out[len(out)-1] != sec {
			out = append(out, sec)
		}
	}
	return out
}

func rowsOf(rows []WireRule, sec string) []WireRule {
	var out []WireRule
	for _, r := range rows {
		if r.Section == sec || strings.HasPrefix(r.Section, sec+" > ") {
			out = append(out, r)
		}
	}
	return out
}
