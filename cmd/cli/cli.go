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
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/cmd/version"
)

// Version is set at build time with -ldflags "-X github.com/airwire/airwire/cmd/cli.Version=…".
// Unset, Main reports the version the build information carries (version.Resolve).
var Version = version.Dev

// ExitCode is what airwire returns to the shell.
type ExitCode int

const (
	// ExitOK means success.
	ExitOK ExitCode = 0
	// ExitError means the command failed or a check (conformance, validation) failed.
	ExitError ExitCode = 1
	// ExitUsage means the command line was wrong; the error and where its
	// help is were printed.
	ExitUsage ExitCode = 2
	// ExitInterrupted means SIGINT (Ctrl-C) stopped the command.
	ExitInterrupted ExitCode = 128 + ExitCode(syscall.SIGINT)
	// ExitTerminated means SIGTERM stopped the command.
	ExitTerminated ExitCode = 128 + ExitCode(syscall.SIGTERM)
)

// Main runs airwire with os.Args and returns the exit code; opts complete
// the real-world Factory (cmd/airwire hands in the built-in suite data).
func Main(opts ...factory.Option) ExitCode {
	ctx, stop := notifyContext(context.Background())
	defer stop()
	f := factory.New(version.Current(Version), opts...)
	if path := os.Getenv("AIRWIRE_CPUPROFILE"); path != "" { // for benchmarks: go tool pprof
		if pf, err := os.Create(path); err == nil {
			if pprof.StartCPUProfile(pf) == nil {
				defer pprof.StopCPUProfile()
			}
		}
	}
	args, err := launcherArgs(os.Args[1:])
	if err != nil {
		fmt.Fprintln(f.IO.ErrOut, "airwire:", err)
		return ExitError
	}
	return Run(ctx, f, args)
}

// notifyContext returns a context that the first SIGINT or SIGTERM cancels
// with a *cmdutil.SignalError as its cause. The signal's default action is
// then restored, so a second one ends airwire at once even if a command
// does not stop. stop releases the signals and cancels the context.
func notifyContext(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch)
			if sig, ok := s.(syscall.Signal); ok {
				cancel(&cmdutil.SignalError{Signal: sig})
			}
		case <-done:
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel(context.Canceled)
		})
	}
}

// Run executes the root command with args and maps its error to an exit code.
func Run(ctx context.Context, f *factory.Factory, args []string) ExitCode {
	root := NewCmdRoot(f, verbOf(args))
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	return exitCode(ctx, f, cmd, err)
}

// exitCode maps a command's error to the exit code, by type: a child's
// status (*cmdutil.ExitError), a signal (*cmdutil.SignalError, returned or
// the cause of ctx's cancellation), a usage error (*cmdutil.FlagError),
// anything else 1.
func exitCode(ctx context.Context, f *factory.Factory, cmd *cobra.Command, err error) ExitCode {
	if err == nil {
		return ExitOK
	}
	var exitErr *cmdutil.ExitError
	if errors.As(err, &exitErr) {
		return ExitCode(exitErr.Code)
	}
	// After a signal, whatever the command returned (its context's error,
	// or a read cut short when its file was closed) is the interruption.
	var sigErr *cmdutil.SignalError
	if errors.As(err, &sigErr) || errors.As(context.Cause(ctx), &sigErr) {
		return ExitCode(sigErr.Code())
	}
	var flagErr *cmdutil.FlagError
	if errors.As(err, &flagErr) {
		// One line and where to read more: the whole usage would bury it.
		fmt.Fprintf(f.IO.ErrOut, "airwire: %s\n", err)
		if cmd != nil {
			fmt.Fprintf(f.IO.ErrOut, "see '%s --help'\n", cmd.CommandPath())
		}
		return ExitUsage
	}
	if errors.Is(err, context.Canceled) {
		return ExitInterrupted
	}
	fmt.Fprintf(f.IO.ErrOut, "airwire: %s\n", err)
	return ExitError
}

// verb is one command of the registry.
type verb struct {
	name string // the command's Name
	make func(*factory.Factory) *cobra.Command
}

// verbOf is the registry verb that args run, "" when they run another
// command (help, completion, version) or none.
func verbOf(args []string) string {
	if len(args) == 0 {
		return ""
	}
	for _, v := range registry {
		if v.name == args[0] {
			return v.name
		}
	}
	return ""
}

// NewCmdRoot builds the airwire command tree: every command, or only the
// registry verb only when it is not "". One verb is what a run needs:
// building the others touched their code and allocated their flag sets at
// every start of, say, `airwire agent` (its RSS, conform/agentbench).
func NewCmdRoot(f *factory.Factory, only string) *cobra.Command {
	root := &cobra.Command{
		Use:   "airwire <command>",
		Short: "ACP agent, recording proxy and conformance suite for Claude Code",
		Long: `airwire speaks the Agent Client Protocol (ACP) between editors and Claude Code.

One binary holds four parts:
  - an ACP agent for Claude Code, what an editor launches: it speaks ACP
    on stdin/stdout and runs the Claude Code CLI (airwire agent);
  - a recording proxy that sits between an editor and any ACP agent and
    journals every message, byte for byte (airwire record);
  - tools that read those journals (airwire journal cat|stats);
  - a conformance suite and validator for the JetBrains AIR extensions
    (airwire conform, airwire validate, airwire report, airwire diff).

In the editor's agent settings, run "airwire agent"; put
"airwire record --journal session.jsonl --" in front of the agent command
to record a real session.`,
		Example: `  # the agent an editor launches (give the Claude CLI's path if it is not on PATH)
  airwire agent --claude-path ~/.local/bin/claude

  # record an editor session with airwire's agent, both lanes
  airwire record --journal ~/s.jsonl --cli-lane -- airwire agent

  # read it back
  airwire journal cat ~/s.jsonl --lane client --method session/prompt
  airwire journal stats ~/s.jsonl`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       f.Version,
	}
	root.SetVersionTemplate(version.Line(f.Version))
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &cmdutil.FlagError{Err: err}
	})
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	if only == "" {
		root.AddCommand(version.NewCmdVersion(f, nil))
	}
	for _, v := range registry {
		if only == "" || v.name == only {
			root.AddCommand(v.make(f))
		}
	}
	if only == "" {
		root.InitDefaultHelpCmd()
		root.InitDefaultCompletionCmd()
	}
	markUsageErrors(root)
	return root
}

// markUsageErrors makes every argument error of the tree a
// *cmdutil.FlagError where it is made, so that Main tells a bad command line
// (usage, exit 2) from a command that failed (exit 1) by type, never by the
// error's text. A command that only groups others (airwire, airwire journal)
// answers an unknown subcommand with a FlagError and shows its help when
// called alone.
func markUsageErrors(c *cobra.Command) {
	switch {
	case c.HasSubCommands() && !c.Runnable():
		c.Args = unknownSubcommand
		c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	case c.Args != nil:
		check := c.Args
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return &cmdutil.FlagError{Err: err}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		markUsageErrors(sub)
	}
}

// unknownSubcommand is the Args check of a command that only groups others:
// any argument left after cobra found the deepest command is unknown.
func unknownSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return cmdutil.FlagErrorf("%s", msg)
}
