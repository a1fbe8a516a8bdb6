package reports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const baselineText = `# known failures of the AIR profile
bash-foreground:air: issue 9, stopReason after a cancelled permission
read:zed:golden: DEVIATIONS.md 3
write-new:air:diff-patch-text: issue 9
edit-rejected:plain:run: the agent times out
`

func writeBaseline(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "expected-failures.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadBaseline(t *testing.T) {
	b, err := LoadBaseline(writeBaseline(t, baselineText))
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Scenario: "bash-foreground", Profile: "air", Reason: "issue 9, stopReason after a cancelled permission", Line: 2},
		{Scenario: "read", Profile: "zed", Check: "golden", Reason: "DEVIATIONS.md 3", Line: 3},
		{Scenario: "write-new", Profile: "air", Check: "diff-patch-text", Reason: "issue 9", Line: 4},
		{Scenario: "edit-rejected", Profile: "plain", Check: "run", Reason: "the agent times out", Line: 5},
	}
	if len(b.Entries) != len(want) {
		t.Fatalf("entries %+v", b.Entries)
	}
	for i, e := range b.Entries {
		e.File = ""
		if e != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, e, want[i])
		}
	}
	if rule, err := LoadBaseline(writeBaseline(t, `"x:air:acp:#/$defs/SessionUpdate": schema`)); err != nil || rule.Entries[0].Check != "acp:#/$defs/SessionUpdate" {
		t.Errorf("a rule id with colons: %+v, %v", rule, err)
	}
	if empty, err := LoadBaseline(writeBaseline(t, "# nothing known\n")); err != nil || len(empty.Entries) != 0 {
		t.Errorf("an empty baseline: %+v, %v", empty, err)
	}
}

func TestLoadBaselineErrors(t *testing.T) {
	tests := map[string]struct{ text, want string }{
		"no reason":    {"read:air:\n", ":1: read:air: give the reason"},
		"no profile":   {"read: issue 9\n", `:1: "read": want scenario:profile`},
		"empty check":  {"'read:air:': issue 9\n", "empty check"},
		"listed twice": {"read:air: a\nread:air:golden: b\n", ":2: read/air is listed on line 1 already"},
		"a list":       {"- read:air\n", "want a mapping"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := LoadBaseline(writeBaseline(t, tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestBaselineMark: a listed failure becomes expected-fail when its check
// matches; a failure of another check stays a failure, with a note.
func TestBaselineMark(t *testing.T) {
	b, err := LoadBaseline(writeBaseline(t, baselineText))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		run      Run
		want     Status
		wantNote string
	}{
		{"any check listed", Run{Scenario: "bash-foreground", Profile: "air", Status: StatusFail, Failure: &Failure{Check: CheckRun}}, StatusExpectedFail, ""},
		{"golden as listed", Run{Scenario: "read", Profile: "zed", Status: StatusFail, Failure: &Failure{Check: CheckGolden}}, StatusExpectedFail, ""},
		{"validate instead of golden", Run{Scenario: "read", Profile: "zed", Status: StatusFail, Failure: &Failure{Check: CheckValidate, Rules: []string{"x"}}},
			StatusFail, ":3: read:zed:golden expects check golden, but the run failed validate (rules x)"},
		{"listed rule", Run{Scenario: "write-new", Profile: "air", Status: StatusFail, Failure: &Failure{Check: CheckValidate, Rules: []string{"a", "diff-patch-text"}}}, StatusExpectedFail, ""},
		{"other rule", Run{Scenario: "write-new", Profile: "air", Status: StatusFail, Failure: &Failure{Check: CheckValidate, Rules: []string{"a"}}}, StatusFail, "expects check diff-patch-text"},
		{"not listed", Run{Scenario: "read", Profile: "air", Status: StatusFail, Failure: &Failure{Check: CheckGolden}}, StatusFail, ""},
		{"passing run", Run{Scenario: "read", Profile: "zed", Status: StatusPass}, StatusPass, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.run
			note := b.Mark(&r)
			if r.Status != tt.want || (tt.wantNote == "") != (note == "") || !strings.Contains(note, tt.wantNote) {
				t.Errorf("status %s note %q, want %s %q", r.Status, note, tt.want, tt.wantNote)
			}
			if (r.Status == StatusExpectedFail) != (r.Baseline != nil) {
				t.Errorf("status %s with baseline entry %v", r.Status, r.Baseline)
			}
		})
	}
	var none *Baseline
	r := Run{Status: StatusFail, Failure: &Failure{Check: CheckGolden}}
	if none.Mark(&r) != "" || r.Status != StatusFail || none.Stale([]Run{r}) != nil {
		t.Error("a nil baseline changed something")
	}
}

// TestBaselineStale: an entry whose run passes is stale, named by file and
// line; entries of runs that failed or did not run are not.
func TestBaselineStale(t *testing.T) {
	path := writeBaseline(t, baselineText)
	b, err := LoadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	runs := []Run{
		{Scenario: "bash-foreground", Profile: "air", Status: StatusExpectedFail},
		{Scenario: "read", Profile: "zed", Status: StatusPass},
		{Scenario: "write-new", Profile: "air", Status: StatusSkip},
		{Scenario: "read", Profile: "air", Status: StatusPass},
	}
	stale := b.Stale(runs)
	want := path + ":3: read:zed:golden passes now: remove this line (stale expected failure: DEVIATIONS.md 3)"
	if len(stale) != 1 || stale[0] != want {
		t.Errorf("stale = %q, want [%q]", stale, want)
	}
}

// TestBaselineKnown: an entry naming a scenario the suite lacks, a profile
// that does not exist or one its scenario does not run is an error naming
// the file and line; a scenario file that did not load accepts any profile.
func TestBaselineKnown(t *testing.T) {
	runs := map[string][]string{
		"read":       {"plain", "zed", "air"},
		"plain-only": {"plain"},
		"broken":     nil,
	}
	good := writeBaseline(t, "read:air: a\nplain-only:plain:golden: b\nbroken:zed: c\n")
	if b, err := LoadBaseline(good); err != nil || b.Known(runs, []string{"plain", "zed", "air"}) != nil {
		t.Fatalf("known entries: %v, %v", err, b.Known(runs, []string{"plain", "zed", "air"}))
	}
	path := writeBaseline(t, "read:air: a\nplan-mode:air: b\nread:zde: c\nplain-only:air: d\n")
	b, err := LoadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	err = b.Known(runs, []string{"plain", "zed", "air"})
	for _, want := range []string{
		path + `:2: plan-mode:air: the suite has no scenario "plan-mode"`,
		path + `:3: read:zde: no profile "zde" (the profiles are plain, zed, air)`,
		path + `:4: plain-only:air: scenario plain-only does not run profile air (it runs plain)`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want %q", err, want)
		}
	}
	if err != nil && strings.Contains(err.Error(), ":1:") {
		t.Errorf("a known entry is reported: %v", err)
	}
}
