package record

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/internal/journal"
)

func TestNewCmdRecord(t *testing.T) {
	tests := []struct {
		name    string
		argv    string
		want    RecordOptions
		wantErr string
	}{
		{name: "agent after dash", argv: "-- node agent.js --flag", want: RecordOptions{Argv: []string{"node", "agent.js", "--flag"}, CLIGrace: 5 * time.Second}},
		{name: "all flags", argv: "--journal j.jsonl --cli-lane --no-redact -q --cli-grace 1s -- claude-acp", want: RecordOptions{Journal: "j.jsonl", CLILane: true, NoRedact: true, Quiet: true, CLIGrace: time.Second, Argv: []string{"claude-acp"}}},
		{name: "model lane", argv: "--cli-lane --model-lane -- a", want: RecordOptions{CLILane: true, ModelLane: true, CLIGrace: 5 * time.Second, Argv: []string{"a"}}},
		{name: "model lane without cli lane", argv: "--model-lane -- a", wantErr: "--model-lane needs --cli-lane"},
		{name: "no agent", argv: "--journal j.jsonl", wantErr: "missing agent command"},
		{name: "agent without dash", argv: "node agent.js", wantErr: "put the agent command after --"},
		{name: "unknown flag", argv: "--bogus -- a", wantErr: "unknown flag"},
		{name: "no cli grace", argv: "--cli-lane --cli-grace 0 -- a", wantErr: "--cli-grace must be positive"},
		{name: "negative cli grace", argv: "--cli-lane --cli-grace -1s -- a", wantErr: "--cli-grace must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := factory.New("test", factory.WithIO(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}))
			var got *RecordOptions
			cmd := NewCmdRecord(f, func(_ context.Context, o *RecordOptions) error { got = o; return nil })
			cmd.SetArgs(strings.Fields(tt.argv))
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &cmdutil.FlagError{Err: err} })
			err := cmd.Execute()
			if tt.wantErr != "" {
				var fe *cmdutil.FlagError
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &fe) {
					t.Fatalf("want FlagError %q, got %v", tt.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got.Argv, " ") != strings.Join(tt.want.Argv, " ") || got.Journal != tt.want.Journal || got.CLILane != tt.want.CLILane || got.ModelLane != tt.want.ModelLane ||
				got.NoRedact != tt.want.NoRedact || got.Quiet != tt.want.Quiet || got.CLIGrace != tt.want.CLIGrace {
				t.Fatalf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestDefaultJournal(t *testing.T) {
	dir := t.TempDir()
	now := func() time.Time { return time.Date(2026, 11, 30, 1, 2, 3, 0, time.UTC) }
	opts := &RecordOptions{Now: now, Getenv: func(k string) string {
		if k == "XDG_STATE_HOME" {
			return dir
		}
		return ""
	}}
	p, err := defaultJournal(opts)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p, dir+"/airwire/journals/20261130T010203Z-") || !strings.HasSuffix(p, ".jsonl") {
		t.Fatalf("default journal %q", p)
	}
	opts.Getenv = func(string) string { return "" }
	if _, err := defaultJournal(opts); err == nil {
		t.Fatal("no HOME and no XDG_STATE_HOME must be an error")
	}
}

// TestRunRecord runs real agents (sh) through runRecord: the editor's bytes
// pass both ways, the journal holds the run, stderr names it unless
// --quiet, and airwire exits with the agent's status.
func TestRunRecord(t *testing.T) {
	state := t.TempDir()
	tests := []struct {
		name    string
		opts    RecordOptions
		stdin   string
		stdout  string
		errOut  string // substring of stderr ("" = stderr must be empty)
		code    int    // the agent's exit status
		wantErr string // an error other than the agent's status
		journal bool   // a journal was written at opts.Journal (or under state)
	}{
		{name: "bytes pass both ways", opts: RecordOptions{Argv: []string{"sh", "-c", "cat; echo done >&2"}},
			stdin: `{"jsonrpc":"2.0","id":0,"method":"initialize"}` + "\n", stdout: `{"jsonrpc":"2.0","id":0,"method":"initialize"}` + "\n",
			errOut: "airwire record: journal ", journal: true},
		{name: "the agent's status is kept", opts: RecordOptions{Argv: []string{"sh", "-c", "exit 3"}}, errOut: "airwire record: journal ", code: 3, journal: true},
		{name: "quiet", opts: RecordOptions{Argv: []string{"true"}, Quiet: true}, journal: true},
		{name: "default journal under the state directory", opts: RecordOptions{Argv: []string{"true"}, Journal: "-"},
			errOut: "airwire record: journal " + filepath.Join(state, "airwire", "journals") + "/", journal: true},
		{name: "cli lane without the airwire binary", opts: RecordOptions{Argv: []string{"true"}, CLILane: true},
			wantErr: "--cli-lane: cannot find the airwire binary"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			o := tt.opts
			o.IO = factory.IOStreams{In: strings.NewReader(tt.stdin), Out: &out, ErrOut: &errOut}
			o.Environ = func() []string { return []string{"PATH=" + os.Getenv("PATH")} }
			o.Getenv = func(k string) string {
				if k == "XDG_STATE_HOME" {
					return state
				}
				return ""
			}
			o.Exe = func() (string, error) { return "", errors.New("no executable in this test") }
			o.Now, o.Version, o.CLIGrace = time.Now, "test", time.Second
			switch o.Journal {
			case "":
				o.Journal = filepath.Join(t.TempDir(), "j.jsonl")
			case "-":
				o.Journal = ""
			}
			err := runRecord(context.Background(), &o)
			var exit *cmdutil.ExitError
			switch {
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			case tt.code != 0:
				if !errors.As(err, &exit) || exit.Code != tt.code {
					t.Fatalf("err = %v, want exit status %d", err, tt.code)
				}
			case err != nil:
				t.Fatal(err)
			}
			if out.String() != tt.stdout {
				t.Errorf("stdout %q, want %q", out.String(), tt.stdout)
			}
			if tt.errOut == "" && errOut.Len() > 0 || !strings.Contains(errOut.String(), tt.errOut) {
				t.Errorf("stderr %q, want %q", errOut.String(), tt.errOut)
			}
			path := o.Journal
			if path == "" {
				line := strings.TrimSpace(errOut.String())
				path = line[strings.LastIndex(line, " ")+1:]
			}
			_, entries, err := journal.ReadAll(path)
			if err != nil {
				t.Fatalf("journal %s: %v", path, err)
			}
			last := entries[len(entries)-1]
			if entries[0].Kind != journal.KindSpawn || last.Kind != journal.KindExit || last.Exit.Code != tt.code {
				t.Errorf("journal: first %s, last %s %+v", entries[0].Kind, last.Kind, last.Exit)
			}
		})
	}
}
