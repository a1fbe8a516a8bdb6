package conform

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/reports"
)

// TestConformBaselineNamesNoRun: an expected-failures entry naming a
// scenario the suite lacks or a profile its scenario does not run is a
// usage error naming the file and line, before any run; an entry of a
// known run that --scenario does not select is ignored.
func TestConformBaselineNamesNoRun(t *testing.T) {
	tests := []struct{ name, baseline, scenario, want string }{
		{"unknown scenario", "beta:air: a\ngamma:air: b\n", "", `:2: gamma:air: the suite has no scenario "gamma"`},
		{"unknown profile", "beta:zde: a\n", "", `:1: beta:zde: no profile "zde"`},
		{"profile the scenario does not run", "beta:zed: a\n", "", `:1: beta:zed: scenario beta does not run profile zed (it runs plain, air)`},
		{"known run not selected", "alpha:air: a\n", "beta", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc := newFakeConform(t, []string{"alpha", "beta"}, nil, func(string) error { return nil })
			fc.opts.Scenario = tt.scenario
			fc.opts.ExpectedFailures = filepath.Join(t.TempDir(), "known.yaml")
			if err := os.WriteFile(fc.opts.ExpectedFailures, []byte(tt.baseline), 0o644); err != nil {
				t.Fatal(err)
			}
			err := runConform(context.Background(), &fc.opts)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("err = %v\n%s", err, fc.err.String())
				}
				return
			}
			var fe *cmdutil.FlagError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), fc.opts.ExpectedFailures+tt.want) {
				t.Fatalf("err = %v, want a usage error with %q", err, tt.want)
			}
			if len(fc.runs) != 0 {
				t.Errorf("runs started before the baseline was checked: %v", fc.runs)
			}
		})
	}
}

// TestReportDocsBaselineExample: the expected-failures example in
// docs/report.md loads with the real parser and names runs of the
// built-in suite (the checkout's scenarios, which the binary embeds).
func TestReportDocsBaselineExample(t *testing.T) {
	root := repoRoot(t)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)## Expected failures\n.*?```yaml\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/report.md has no yaml example under ## Expected failures")
	}
	path := filepath.Join(t.TempDir(), "known.yaml")
	if err := os.WriteFile(path, m[1], 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := reports.LoadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	scs, err := scenario.LoadDir(filepath.Join(root, "scenarios"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string][]string{}
	for _, sc := range scs {
		known[sc.Name] = runNames(sc, nil)
	}
	if len(b.Entries) == 0 {
		t.Fatal("the example lists no entry")
	}
	if err := b.Known(known, profileNames()); err != nil {
		t.Errorf("the docs/report.md example names runs the suite lacks:\n%v", err)
	}
}
