package record

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
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
