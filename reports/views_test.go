package reports

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The HTML report links each failed run that kept its journal to the
// journal's view, written beside the page (journals/<run>.html) with the
// run's findings on their messages' cards. A passing run, a run without a
// journal and a journal that cannot be read get no link, and the report
// is written all the same.
func TestHTMLLinksJournalViews(t *testing.T) {
	journal, err := filepath.Abs("journalview/testdata/bash-turn.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	fail := func(scenario string) *Failure {
		return &Failure{Check: CheckGolden, Message: scenario + " does not match"}
	}
	r := &Report{Agent: "test"}
	r.Add(Run{Scenario: "bash-foreground", Profile: "plain", Status: StatusFail, Journal: journal, Failure: fail("a"),
		Findings: []Finding{{Seq: 82, Rule: "permission-answer-offered", Severity: "error", Pointer: "/result/outcome/optionId",
			Message: "the client must return an option id of the request unchanged"}}})
	r.Add(Run{Scenario: "gone", Profile: "zed", Status: StatusFail, Journal: filepath.Join(t.TempDir(), "missing.jsonl"), Failure: fail("b")})
	r.Add(Run{Scenario: "no-journal", Profile: "air", Status: StatusFail, Failure: fail("c")})
	r.Add(Run{Scenario: "passed", Profile: "air", Status: StatusPass, Journal: journal})
	dir := t.TempDir()
	if err := r.WriteHTML(dir); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	links := regexp.MustCompile(`href="(journals/[^"]+)"`).FindAllStringSubmatch(string(index), -1)
	if len(links) != 2 || links[0][1] != "journals/bash-foreground-plain.html" || links[1][1] != links[0][1] {
		t.Fatalf("the page links %v, want journals/bash-foreground-plain.html from the failure and the runs table", links)
	}
	view, err := os.ReadFile(filepath.Join(dir, "journals", "bash-foreground-plain.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`{"seq":82,"t":"+3.230 s","cls":"from-editor lane-client has-finding"`, `"rule":"permission-answer-offered"`,
		"airwire journal view: bash-foreground/plain"} {
		if !strings.Contains(string(view), w) {
			t.Errorf("the view lacks %q", w)
		}
	}
	if m := regexp.MustCompile(`(?i)<(script|img|link|iframe)[^>]+(src|href)=|url\(|@import`).FindString(string(view)); m != "" {
		t.Errorf("the view loads something: %q", m)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "journals"))
	if len(entries) != 1 {
		t.Errorf("journals/ holds %d files, want the one view", len(entries))
	}
}

func TestViewName(t *testing.T) {
	if got := viewName(Run{Scenario: "a/../b c", Profile: "zed"}); got != "a_.._b_c-zed.html" {
		t.Errorf("viewName = %q", got)
	}
}
