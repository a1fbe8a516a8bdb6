package wirediff

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestMarkdownWithinBudget: a diff of 344 runs, each with the same change
// and a few of its own, fits in MarkdownBudget: the causes first with
// their counts of runs, the findings in a collapsed <details>, cut with a
// pointer to the full report, and the runs of one side only listed.
func TestMarkdownWithinBudget(t *testing.T) {
	r := &Report{Old: "old/", New: "new/", Gate: DefaultBreaking}
	for i := range 344 {
		run := fmt.Sprintf("scenario-%03d/air", i)
		r.Findings = append(r.Findings, Finding{Rule: WireValueChanged, Category: CategoryWire, Change: "changed", Breaking: true,
			Run: run, Session: "session <session-1>", Tag: "client agent->editor", Kind: "session/new",
			Path: `$.result.configOptions[id="mode"].currentValue`, Old: `"default"`, New: `"auto"`})
		for j := range 5 {
			r.Findings = append(r.Findings, Finding{Rule: TextChanged, Category: CategoryCosmetic, Change: "changed", Run: run,
				Session: "session <session-1>", Tag: "client agent->editor", Kind: "session/update agent_message_chunk",
				Path: "$.params.update.content.text", Old: `"` + strings.Repeat("x", 1000) + `"`, New: fmt.Sprintf(`"%d"`, i*10+j)})
		}
	}
	r.OnlyOld = []string{"gone-1/air", "gone-2/zed"}
	var out bytes.Buffer
	if err := WriteReport(&out, r, FormatMarkdown); err != nil {
		t.Fatal(err)
	}
	md := out.String()
	if n := utf8.RuneCountInString(md); n > MarkdownBudget || len(md) > MarkdownBudget {
		t.Errorf("markdown is %d characters (%d bytes), over %d", n, len(md), MarkdownBudget)
	}
	for _, want := range []string{"2 runs only in old (old/): gone-1/air, gone-2/zed", "**1721 causes**",
		"| ❌ | `WIRE_VALUE_CHANGED` | 344 | scenario-000/air |", "<details><summary>All 2064 findings</summary>",
		"</details>", "more rows did not fit in this comment: `airwire diff old/ new/` prints the full report."} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md[:min(len(md), 3000)])
		}
	}
	if strings.Index(md, "causes**") > strings.Index(md, "<details>") {
		t.Errorf("the causes do not come first")
	}

	small := &Report{Old: "a", New: "b", Gate: DefaultBreaking, Findings: r.Findings[:2]}
	out.Reset()
	if err := WriteReport(&out, small, FormatMarkdown); err != nil {
		t.Fatal(err)
	}
	if md := out.String(); strings.Contains(md, "did not fit") || strings.Count(md, "scenario-000/air") != 4 {
		t.Errorf("a small diff is cut or incomplete:\n%s", md)
	}
}
