package cli

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/factory"
)

func TestRunExitCodes(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	tests := []struct {
		name   string
		args   []string
		code   ExitCode
		out    string
		errOut string
		// notOut and notErr must not appear on stdout and stderr.
		notOut, notErr string
	}{
		{name: "version", args: []string{"version"}, code: ExitOK, out: "airwire test ("},
		{name: "help teaches record", args: []string{"--help"}, code: ExitOK, out: "airwire record"},
		{name: "shim is hidden", args: []string{"--help"}, code: ExitOK, out: "Available Commands", notOut: "__cli-shim"},
		{name: "unknown command is usage", args: []string{"bogus"}, code: ExitUsage, errOut: `unknown command "bogus" for "airwire"`},
		{name: "unknown subcommand of a noun is usage", args: []string{"journal", "bogus"}, code: ExitUsage, errOut: `unknown command "bogus" for "airwire journal"`},
		{name: "a noun alone shows its help", args: []string{"journal"}, code: ExitOK, out: "Available Commands"},
		{name: "unknown flag is usage", args: []string{"version", "--bogus"}, code: ExitUsage, errOut: "unknown flag"},
		{name: "unknown agent flag is usage", args: []string{"agent", "--bogus"}, code: ExitUsage, errOut: "unknown flag: --bogus"},
		{name: "agent help", args: []string{"agent", "--help"}, code: ExitOK, out: "--claude-path"},
		{name: "too many arguments is usage", args: []string{"journal", "cat", "a", "b"}, code: ExitUsage, errOut: "accepts 1 arg(s), received 2"},
		{name: "an argument where none is taken is usage", args: []string{"version", "x"}, code: ExitUsage, errOut: "see 'airwire version --help'", notErr: "Usage:"},
		{name: "record without agent is usage", args: []string{"record"}, code: ExitUsage, errOut: "missing agent command"},
		{name: "completion", args: []string{"completion", "bash"}, code: ExitOK, out: "bash completion"},
		{name: "a failing command is 1", args: []string{"journal", "stats", "/nonexistent/j.jsonl"}, code: ExitError, errOut: "no such file", notErr: "--help"},
		// Runtime errors whose text looks like cobra's must not pass for usage errors.
		{name: "runtime error naming an invalid argument", args: []string{"journal", "cat", missing + " invalid argument.jsonl"}, code: ExitError, errOut: "no such file", notErr: "--help"},
		{name: "runtime error naming accepts", args: []string{"journal", "stats", missing + " accepts 1.jsonl"}, code: ExitError, errOut: "no such file", notErr: "--help"},
		{name: "runtime error naming unknown command", args: []string{"journal", "stats", missing + " unknown command.jsonl"}, code: ExitError, errOut: "no such file", notErr: "--help"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			f := factory.New("test", factory.WithIO(strings.NewReader(""), &out, &errOut))
			code := Run(context.Background(), f, tt.args)
			bad := code != tt.code || !strings.Contains(out.String(), tt.out) || !strings.Contains(errOut.String(), tt.errOut) ||
				tt.notOut != "" && strings.Contains(out.String(), tt.notOut) || tt.notErr != "" && strings.Contains(errOut.String(), tt.notErr)
			if bad {
				t.Fatalf("code %d (want %d)\nstdout: %s\nstderr: %s", code, tt.code, out.String(), errOut.String())
			}
		})
	}
}

// TestRegistryNames: each registry name is its command's Name, so that
// Run finds the one command it builds.
func TestRegistryNames(t *testing.T) {
	f := factory.New("test", factory.WithIO(strings.NewReader(""), io.Discard, io.Discard))
	for _, v := range registry {
		if got := v.make(f).Name(); got != v.name {
			t.Errorf("registry name %q builds command %q", v.name, got)
		}
	}
}

// TestOneVerbHelpIsTheFullTreeHelp: a verb's help is the same whether Run
// builds only that verb or the whole tree.
func TestOneVerbHelpIsTheFullTreeHelp(t *testing.T) {
	for _, v := range registry {
		if c := v.make(factory.New("test")); c.DisableFlagParsing && c.Hidden {
			continue // __cli-shim: every argument is the CLI's
		}
		var lazy, full strings.Builder
		for _, c := range []struct {
			only string
			out  *strings.Builder
		}{{v.name, &lazy}, {"", &full}} {
			f := factory.New("test", factory.WithIO(strings.NewReader(""), c.out, io.Discard))
			root := NewCmdRoot(f, c.only)
			root.SetArgs([]string{v.name, "--help"})
			if err := root.Execute(); err != nil {
				t.Fatalf("%s --help: %v", v.name, err)
			}
		}
		if lazy.String() != full.String() || lazy.Len() == 0 {
			t.Errorf("%s --help differs when only %q is built:\n%s\n---\n%s", v.name, v.name, lazy.String(), full.String())
		}
	}
}

// A usage error is one line plus where the help is, never the whole
// usage text of the command.
func TestUsageErrorIsShort(t *testing.T) {
	for _, args := range [][]string{{"conform", "--bogus"}, {"journal", "cat", "a", "b"}, {"conform", "--jobs", "0"}, {"record"}} {
		var errOut bytes.Buffer
		f := factory.New("test", factory.WithIO(strings.NewReader(""), io.Discard, &errOut))
		if code := Run(context.Background(), f, args); code != ExitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, ExitUsage)
		}
		lines := strings.Split(strings.TrimRight(errOut.String(), "\n"), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "airwire: ") || !strings.HasPrefix(lines[1], "see 'airwire ") || !strings.HasSuffix(lines[1], " --help'") {
			t.Errorf("%q: stderr is %d lines, want the error and where the help is:\n%s", args, len(lines), errOut.String())
		}
	}
}
