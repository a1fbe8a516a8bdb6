package diff

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform/wirediff"
)

func TestNewCmdDiff(t *testing.T) {
	all := wirediff.DefaultBreaking
	tests := []struct {
		name    string
		argv    string
		want    DiffOptions
		flagErr bool
	}{
		{name: "defaults", argv: "a b", want: DiffOptions{Old: "a", New: "b", Format: "text", Breaking: all}},
		{name: "github", argv: "--format github-actions a b", want: DiffOptions{Old: "a", New: "b", Format: "github-actions", Breaking: all}},
		{name: "markdown", argv: "--markdown a b", want: DiffOptions{Old: "a", New: "b", Format: "markdown", Breaking: all}},
		{name: "wire only", argv: "--breaking wire a b", want: DiffOptions{Old: "a", New: "b", Format: "text", Breaking: []wirediff.Category{wirediff.CategoryWire}}},
		{name: "list rules", argv: "--list-rules", want: DiffOptions{Format: "text", ListRules: true}},
		{name: "one recording", argv: "a", flagErr: true},
		{name: "three recordings", argv: "a b c", flagErr: true},
		{name: "bad format", argv: "--format yaml a b", flagErr: true},
		{name: "markdown as format", argv: "--format markdown a b", flagErr: true},
		{name: "markdown and format", argv: "--markdown --format json a b", flagErr: true},
		{name: "additive cannot break", argv: "--breaking WIRE,ADDITIVE a b", flagErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := factory.New("test", factory.WithIO(&bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}), factory.WithEnv(nil))
			var got *DiffOptions
			cmd := NewCmdDiff(f, func(o *DiffOptions) error { got = o; return nil })
			cmd.SetArgs(strings.Fields(tt.argv))
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			err := cmd.Execute()
			if tt.flagErr {
				// cobra's own argument errors become FlagErrors in cli
				// (markUsageErrors); ours are FlagErrors already.
				if err == nil {
					t.Fatal("want a usage error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Old != tt.want.Old || got.New != tt.want.New || got.Format != tt.want.Format || got.ListRules != tt.want.ListRules ||
				!tt.want.ListRules && !slices.Equal(got.Breaking, tt.want.Breaking) {
				t.Errorf("got %+v, want %+v", *got, tt.want)
			}
		})
	}
}

// real is the recorded pair of conform/wirediff (TestRealPair says how
// it was made).
func real(name string) string {
	return filepath.Join("..", "..", "conform", "wirediff", "testdata", "real", name)
}

func TestRunDiff(t *testing.T) {
	tests := []struct {
		name      string
		opts      DiffOptions
		wantOut   []string
		wantError bool
	}{
		{name: "changed option id fails", opts: DiffOptions{Old: real("base"), New: real("optid"), Format: "text"},
			wantOut: []string{"breaking  WIRE_ENUM_VALUE_CHANGED", `"allow-with-updates" → "allow-with-updates-x"`, "BREAKING (1 finding in WIRE,AIR,CLI): WIRE 1"}, wantError: true},
		{name: "annotations", opts: DiffOptions{Old: real("base"), New: real("optid"), Format: "github-actions"},
			wantOut: []string{"::error file=" + real("optid") + "/bash-foreground/zed.golden,line=16,title=WIRE_ENUM_VALUE_CHANGED::bash-foreground/zed session <session-1>: session/request_permission"}, wantError: true},
		{name: "new _meta key passes", opts: DiffOptions{Old: real("base"), New: real("meta"), Format: "markdown"},
			wantOut: []string{"### ✅ airwire diff: compatible: ADDITIVE 5", "| ℹ️ | `ADDITIVE_META_KEY_ADDED` | bash-foreground/zed | session <session-1> | 11 |"}},
		{name: "json", opts: DiffOptions{Old: real("base"), New: real("meta"), Format: "json"},
			wantOut: []string{`"rule": "ADDITIVE_META_KEY_ADDED"`, `"path": "$.params.update._meta[\"_claude/mutated\"]"`}},
		{name: "rules", opts: DiffOptions{ListRules: true}, wantOut: []string{"WIRE_MESSAGE_MOVED                 WIRE      A message is sent at another place"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			tt.opts.IO = factory.IOStreams{Out: &out, ErrOut: &bytes.Buffer{}}
			err := runDiff(&tt.opts)
			if tt.wantError != errors.Is(err, cmdutil.ErrMismatch) {
				t.Errorf("error = %v, want a mismatch: %v", err, tt.wantError)
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}
