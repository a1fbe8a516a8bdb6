package conform

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/internal/execwrap"
	"github.com/airwire/airwire/reports"
)

// A replayed run whose cassette does not apply is its own verdict: the
// progress line and the summary say "cassette does not apply", and the
// JSON, JUnit and HTML reports carry the check "cassette" with the
// difference the player named, not a golden mismatch.
func TestConformCassetteDoesNotApply(t *testing.T) {
	refused := &conform.CassetteError{Cassette: "beta/air.cassette",
		Reasons: []string{"stream-json spawn #1: the CLI was started with `--permission-mode=default` where the recording has `--permission-mode=auto`"}}
	fc := newFakeConform(t, []string{"alpha", "beta"}, nil, func(name string) error {
		if name == "beta/air" {
			return refused
		}
		return nil
	})
	out := t.TempDir()
	fc.opts.JSON, fc.opts.JUnit, fc.opts.HTML = filepath.Join(out, "r.json"), filepath.Join(out, "junit.xml"), filepath.Join(out, "html")
	if err := runConform(context.Background(), &fc.opts); !errors.Is(err, cmdutil.ErrMismatch) {
		t.Fatalf("err = %v, want a mismatch\n%s", err, fc.err.String())
	}
	text := fc.err.String()
	for _, want := range []string{"FAIL beta/air (", ", cassette does not apply)", "  beta/air (cassette does not apply: run it with --live)",
		"cassette does not apply (beta/air.cassette): stream-json spawn #1: the CLI was started with `--permission-mode=default`", "--live"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text output lacks %q:\n%s", want, text)
		}
	}
	rep, err := reports.Read(fc.opts.JSON)
	if err != nil {
		t.Fatal(err)
	}
	var run *reports.Run
	for i := range rep.Runs {
		if rep.Runs[i].ID() == "beta/air" {
			run = &rep.Runs[i]
		}
	}
	if run == nil || run.Status != reports.StatusFail || run.Failure == nil || run.Failure.Check != reports.CheckCassette ||
		!strings.Contains(run.Failure.Message, "`--permission-mode=default`") || run.Failure.Difference != nil {
		t.Fatalf("the refused run in the JSON report: %+v", run)
	}
	junit, err := os.ReadFile(fc.opts.JUnit)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(junit), `type="cassette"`) || !strings.Contains(string(junit), "cassette does not apply (beta/air.cassette)") {
		t.Errorf("the JUnit XML lacks the cassette failure:\n%s", junit)
	}
	page, err := os.ReadFile(filepath.Join(fc.opts.HTML, reports.HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "check cassette") || !strings.Contains(string(page), "cassette does not apply") {
		t.Errorf("the HTML report lacks the cassette verdict")
	}
}

// A live run says which Claude CLI ran: the header and the summary name
// its version, and so does the JSON report.
func TestConformLiveNamesTheCLIVersion(t *testing.T) {
	t.Setenv("CONFORM_TEST_CLI_VERSION", "2.1.999")
	cli := filepath.Join(t.TempDir(), execwrap.Name("claude"))
	if err := execwrap.Write(cli, os.Args[0]); err != nil {
		t.Fatal(err)
	}
	fc := newFakeConform(t, []string{"alpha"}, nil, func(string) error { return nil })
	fc.opts.Getenv = func(k string) string {
		if k == deps.EnvReferenceCLI {
			return cli
		}
		return ""
	}
	fc.opts.Live = true
	fc.opts.JSON = filepath.Join(t.TempDir(), "r.json")
	if err := runConform(context.Background(), &fc.opts); err != nil {
		t.Fatalf("err = %v\n%s", err, fc.err.String())
	}
	if !strings.Contains(fc.err.String(), "live with Claude CLI 2.1.999, comparing with") {
		t.Errorf("the header does not name the CLI version:\n%s", fc.err.String())
	}
	if !strings.Contains(fc.out.String(), ", Claude CLI 2.1.999)") {
		t.Errorf("the summary does not name the CLI version: %q", fc.out.String())
	}
	rep, err := reports.Read(fc.opts.JSON)
	if err != nil {
		t.Fatal(err)
	}
	if rep.CLI != "2.1.999" {
		t.Errorf("the JSON report's cli = %q, want 2.1.999", rep.CLI)
	}
}
