// Package cli builds the airwire root command and maps errors to exit codes
// in one place (Main). Every verb lives in its own package under cmd/.
package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/cmd/version"
)

// Version is set at build time with -ldflags "-X github.com/airwire/airwire/cmd/cli.Version=…".
var Version = "dev"

// ExitCode is what airwire returns to the shell.
type ExitCode int

const (
	// ExitOK means success.
	ExitOK ExitCode = 0
	// ExitError means the command failed or a check (conformance, validation) failed.
	ExitError ExitCode = 1
	// ExitUsage means the command line was wrong; usage was printed.
	ExitUsage ExitCode = 2
	// ExitInterrupted means SIGINT/SIGTERM stopped the command.
	ExitInterrupted ExitCode = 130
)

// Main runs airwire with os.Args and returns the exit code.
func Main() ExitCode {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	f := factory.New(Version)
	if path := os.Getenv("AIRWIRE_CPUPROFILE"); path != "" { // for benchmarks: go tool pprof
		if pf, err := os.Create(path); err == nil {
			if pprof.StartCPUProfile(pf) == nil {
				defer pprof.StopCPUProfile()
			}
		}
	}
	return Run(ctx, f, os.Args[1:])
}

// Run executes the root command with args and maps its error to an exit code.
func Run(ctx context.Context, f *factory.Factory, args []string) ExitCode {
	root := NewCmdRoot(f)
	root.SetArgs(args)
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	cmd, err := root.ExecuteContextC(ctx)
	return exitCode(f, cmd, err)
}

func exitCode(f *factory.Factory, cmd *cobra.Command, err error) ExitCode {
	if err == nil {
		return ExitOK
	}
	var exitErr *cmdutil.ExitError
	if errors.As(err, &exitErr) {
		return ExitCode(exitErr.Code)
	}
	if errors.Is(err, cmdutil.ErrSilent) {
		return ExitError
	}
	var flagErr *cmdutil.FlagError
	if errors.As(err, &flagErr) || isCobraUsageError(err) {
		fmt.Fprintf(f.IO.ErrOut, "airwire: %s\n", err)
		if cmd != nil {
			fmt.Fprintf(f.IO.ErrOut, "\n%s", cmd.UsageString())
		}
		return ExitUsage
	}
	if errors.Is(err, context.Canceled) {
		return ExitInterrupted
	}
	fmt.Fprintf(f.IO.ErrOut, "airwire: %s\n", err)
	return ExitError
}

// isCobraUsageError recognises cobra's own argument and flag errors, which are
// plain errors without a type.
func isCobraUsageError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument", "invalid argument", "accepts ", "requires at least", "requires exactly", "required flag"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// NewCmdRoot builds the airwire command tree.
func NewCmdRoot(f *factory.Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "airwire <command>",
		Short: "ACP agent, recording proxy and conformance suite for Claude Code",
		Long: `airwire speaks the Agent Client Protocol (ACP) between editors and Claude Code.

It is three tools in one binary:
  - a recording proxy that sits between an editor and any ACP agent and
    journals every message, byte for byte (airwire record);
  - tools that read those journals (airwire journal cat|stats);
  - a conformance suite and validator for the JetBrains AIR extensions.

Put "airwire record --journal session.jsonl --" in front of your agent
command in the editor's agent settings to record a real session.`,
		Example: `  # record an editor session with the reference adapter, both lanes
  airwire record --journal /tmp/s.jsonl --cli-lane -- npx @agentclientprotocol/claude-agent-acp

  # read it back
  airwire journal cat /tmp/s.jsonl --lane client --method session/prompt
  airwire journal stats /tmp/s.jsonl`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &cmdutil.FlagError{Err: err}
	})
	root.AddCommand(version.NewCmdVersion(f, nil))
	for _, add := range registry {
		root.AddCommand(add(f))
	}
	return root
}

// registry holds the constructors of commands that register themselves from
// commands.go, so that adding a verb touches one line.
var registry []func(*factory.Factory) *cobra.Command
