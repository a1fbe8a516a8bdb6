package validate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/schemas/acp"
	checks "github.com/airwire/airwire/schemas/validate"
)

func TestNewCmdValidate(t *testing.T) {
	tests := []struct {
		name     string
		argv     string
		want     ValidateOptions
		flagErr  bool
		argsFail bool
	}{
		{name: "defaults", argv: "j.jsonl", want: ValidateOptions{Journal: "j.jsonl", Side: checks.SideBoth, Format: FormatText}},
		{name: "agent side json", argv: "--side agent --format json j.jsonl", want: ValidateOptions{Journal: "j.jsonl", Side: checks.SideAgent, Format: FormatJSON}},
		{name: "client side stable", argv: "--side client --stable j.jsonl", want: ValidateOptions{Journal: "j.jsonl", Side: checks.SideClient, Format: FormatText, Stable: true}},
		{name: "schema dir", argv: "--acp-schema s/v1 j.jsonl", want: ValidateOptions{Journal: "j.jsonl", Side: checks.SideBoth, Format: FormatText, ACPSchema: "s/v1"}},
		{name: "bad side", argv: "--side cli j.jsonl", flagErr: true},
		{name: "bad format", argv: "--format yaml j.jsonl", flagErr: true},
		{name: "no journal", argv: "", argsFail: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := factory.New("test", factory.WithIO(&bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}), factory.WithEnv(nil))
			var got *ValidateOptions
			cmd := NewCmdValidate(f, func(o *ValidateOptions) error { got = o; return nil })
			cmd.SetArgs(strings.Fields(tt.argv))
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			err := cmd.Execute()
			var fe *cmdutil.FlagError
			switch {
			case tt.flagErr:
				if !errors.As(err, &fe) {
					t.Fatalf("want FlagError, got %v", err)
				}
				return
			case tt.argsFail:
				if err == nil {
					t.Fatal("want an args error")
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if got.Journal != tt.want.Journal || got.Side != tt.want.Side || got.Format != tt.want.Format || got.Stable != tt.want.Stable || got.ACPSchema != tt.want.ACPSchema {
				t.Errorf("got %+v, want %+v", *got, tt.want)
			}
		})
	}
}

// schemaDir is the schema `make deps` installed in the checkout; the test
// is skipped without it.
func schemaDir(t *testing.T) func(context.Context, string) (string, error) {
	t.Helper()
	p, err := deps.Paths()
	if err != nil {
		t.Skipf("ACP schema not installed: %v", err)
	}
	dir, err := p.RequireACPSchemaDir()
	if err != nil {
		t.Skipf("ACP schema not installed: %v", err)
	}
	return func(context.Context, string) (string, error) { return dir, nil }
}

func TestRunValidate(t *testing.T) {
	tests := []struct {
		name     string
		opts     ValidateOptions
		mismatch bool
		want     []string // substrings of stdout
		wantNot  []string
	}{
		{name: "clean text", opts: ValidateOptions{Journal: "testdata/clean.jsonl", Format: FormatText},
			want: []string{"2 messages, 1 AIR payload checked: 0 errors, 0 warnings"}},
		{name: "leak text", opts: ValidateOptions{Journal: "testdata/leak.jsonl", Format: FormatText}, mismatch: true,
			want: []string{"seq 2 client agent→editor error", "/result/_meta/jetbrains", `rule air-not-declared · section "Compatibility rule"`, "1 error,"}},
		{name: "leak seen from the client side only", opts: ValidateOptions{Journal: "testdata/leak.jsonl", Format: FormatText, Side: checks.SideClient},
			want: []string{"0 errors"}},
		{name: "leak json", opts: ValidateOptions{Journal: "testdata/leak.jsonl", Format: FormatJSON}, mismatch: true,
			want: []string{`"rule": "air-not-declared"`, `"severity": "error"`, `"pointer": "/result/_meta/jetbrains"`, `"section": "Compatibility rule"`}},
		{name: "entries the format forbids", opts: ValidateOptions{Journal: "testdata/bad-entries.jsonl", Format: FormatText}, mismatch: true,
			want: []string{`seq 4 client dir "martian" error`, `dir "martian" is no sender of the client lane`,
				"seq 5 client agent→editor error", "a msg entry without msg", `rule journal-entry · section "Journal entries"`,
				"seq 6 - - error", "t_ns -1 is negative", "3 errors"},
			wantNot: []string{"editor→agent", "EOF", `dir ""`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := &bytes.Buffer{}
			opts := tt.opts
			opts.IO = factory.IOStreams{Out: out, ErrOut: &bytes.Buffer{}}
			opts.ACPSchemaDir = schemaDir(t)
			err := runValidate(context.Background(), &opts)
			if tt.mismatch != errors.Is(err, cmdutil.ErrMismatch) {
				t.Fatalf("err = %v, mismatch wanted: %v", err, tt.mismatch)
			}
			if !tt.mismatch && err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(out.String(), w) {
					t.Errorf("output has %q:\n%s", w, out)
				}
			}
			if opts.Format == FormatJSON {
				var doc map[string]any
				if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
					t.Fatalf("not JSON: %v", err)
				}
			}
		})
	}
}

// TestRunValidateWithoutSchema: with no schema anywhere and no npm to
// fetch it, validate fails and says what to do.
func TestRunValidateWithoutSchema(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	errOut := &bytes.Buffer{}
	f := factory.New("test", factory.WithIO(&bytes.Buffer{}, &bytes.Buffer{}, errOut), factory.WithEnv(nil))
	opts := ValidateOptions{Journal: "testdata/clean.jsonl", Format: FormatText, IO: f.IO, ACPSchemaDir: f.ACPSchemaDir}
	err := runValidate(context.Background(), &opts)
	if !errors.Is(err, acp.ErrNoNPM) || !strings.Contains(err.Error(), "--acp-schema DIR") || !strings.Contains(err.Error(), "install Node.js") {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(errOut.String(), "fetching it with npm pack") {
		t.Errorf("stderr does not say what it tried:\n%s", errOut)
	}
}
