package view

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/internal/deps"
)

const turn = "../../../reports/journalview/testdata/bash-turn.jsonl"

// schemaDir is the ACP schema `make deps` installed; without it the test
// is skipped, and fails under CI=true.
func schemaDir(t *testing.T) func(context.Context, string) (string, error) {
	t.Helper()
	p, err := deps.Paths()
	var dir string
	if err == nil {
		dir, err = p.RequireACPSchemaDir()
	}
	if err != nil {
		deps.Unavailable(t, "the ACP schema is not installed (run make deps): %v", err)
	}
	return func(context.Context, string) (string, error) { return dir, nil }
}

func TestFlags(t *testing.T) {
	var got *ViewOptions
	f := factory.New("test")
	for _, tc := range []struct {
		args    []string
		flagErr bool
		want    ViewOptions
	}{
		{args: []string{"j.jsonl"}, flagErr: true},
		{args: []string{"j.jsonl", "-o", "p.html"}, want: ViewOptions{Journal: "j.jsonl", Output: "p.html"}},
		{args: []string{"j.jsonl", "--output", "-", "--no-validate"}, want: ViewOptions{Journal: "j.jsonl", Output: "-", NoValidate: true}},
		{args: []string{"--acp-schema", "s/v1", "j.jsonl", "-o", "p.html"}, want: ViewOptions{Journal: "j.jsonl", Output: "p.html", ACPSchema: "s/v1"}},
	} {
		got = nil
		cmd := NewCmdView(f, func(o *ViewOptions) error { got = o; return nil })
		cmd.SetArgs(tc.args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		err := cmd.Execute()
		var fe *cmdutil.FlagError
		if tc.flagErr != errors.As(err, &fe) {
			t.Errorf("%q: err = %v, flag error wanted: %v", tc.args, err, tc.flagErr)
			continue
		}
		if tc.flagErr {
			continue
		}
		if got == nil || got.Journal != tc.want.Journal || got.Output != tc.want.Output || got.NoValidate != tc.want.NoValidate || got.ACPSchema != tc.want.ACPSchema {
			t.Errorf("%q: options %+v, want %+v", tc.args, got, tc.want)
		}
	}
}

// The page of the recorded turn shows the validator's finding on the
// editor's permission answer, as airwire validate reports it.
func TestViewShowsFindings(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p.html")
	errOut := &bytes.Buffer{}
	opts := &ViewOptions{IO: factory.IOStreams{Out: &bytes.Buffer{}, ErrOut: errOut}, ACPSchemaDir: schemaDir(t), Journal: turn, Output: out}
	if err := runView(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`{"seq":82,"t":"+3.230 s","cls":"from-editor lane-client has-finding"`, `"rule":"permission-answer-offered"`,
		`"pointer":"/result/outcome/optionId"`, "1 finding:"} {
		if !strings.Contains(string(page), w) {
			t.Errorf("the page lacks %q", w)
		}
	}
	if strings.Contains(string(page), `id="note"`) || errOut.Len() > 0 {
		t.Errorf("a note or a warning although the schema is there: %s", errOut)
	}
}

// Without the ACP schema the page is still drawn; it says that the
// messages were not checked, and stderr says why.
func TestViewWithoutSchema(t *testing.T) {
	out, errOut := &bytes.Buffer{}, &bytes.Buffer{}
	opts := &ViewOptions{IO: factory.IOStreams{Out: out, ErrOut: errOut}, Journal: turn, Output: "-",
		ACPSchemaDir: func(context.Context, string) (string, error) { return "", errors.New("no schema here") }}
	if err := runView(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "The messages were not checked: the ACP schema is not available") ||
		!strings.Contains(out.String(), `{"seq":82,`) || strings.Contains(out.String(), `lane-client has-finding"`) {
		t.Errorf("the page does not say that the messages were not checked, or lacks its cards")
	}
	if !strings.Contains(errOut.String(), "warning: the messages are not checked: no schema here") {
		t.Errorf("stderr: %q", errOut)
	}
}

// A journal that does not open is an error; no page is written.
func TestViewNotAJournal(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "x.jsonl")
	os.WriteFile(bad, []byte("hello\n"), 0o600)
	opts := &ViewOptions{IO: factory.IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, NoValidate: true, Journal: bad,
		Output: filepath.Join(dir, "p.html")}
	if err := runView(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "not an airwire journal") {
		t.Errorf("err = %v", err)
	}
	if _, err := os.Stat(opts.Output); err == nil {
		t.Error("a page was written for a file that is not a journal")
	}
}
