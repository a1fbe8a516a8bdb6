// Package fakecli implements `airwire fake-cli`: the scripted stand-in for
// the Claude Code CLI that the conformance suite puts behind an adapter
// through CLAUDE_CODE_EXECUTABLE. The behaviour lives in internal/fakecli.
package fakecli

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/internal/fakecli"
)

// FakeCLIOptions are the inputs of `airwire fake-cli`.
type FakeCLIOptions struct {
	IO      factory.IOStreams
	Getenv  func(string) string
	Environ func() []string
	// Getwd returns the working directory (the session cwd the adapter set).
	Getwd func() (string, error)
	// Args is the CLI argv, passed through untouched (cobra parses nothing).
	Args []string
}

// NewCmdFakeCLI builds `airwire fake-cli`. runF replaces the behaviour in tests.
func NewCmdFakeCLI(f *factory.Factory, runF func(*FakeCLIOptions) error) *cobra.Command {
	opts := &FakeCLIOptions{IO: f.IO, Getenv: f.Getenv, Environ: f.Environ, Getwd: os.Getwd}
	return &cobra.Command{
		Use:   "fake-cli [claude args…]",
		Short: "Run the scripted fake Claude Code CLI (for conformance tests)",
		Long: `fake-cli stands in for the Claude Code CLI. Point an adapter at it with
CLAUDE_CODE_EXECUTABLE (a script that execs "airwire fake-cli \"$@\"").

Every argument is passed through as the CLI's own argv. The script comes from
the file named by AIRWIRE_FAKE_CLI_SCRIPT (a scenario's cli section, JSON or
YAML); without one the fake behaves like an idle CLI. AIRWIRE_FAKE_CLI_LOG
names a JSONL file that records every frame read and written.`,
		Example: `  airwire fake-cli --version
  airwire fake-cli auth status --json
  AIRWIRE_FAKE_CLI_SCRIPT=cli.json airwire fake-cli --output-format stream-json \
      --verbose --input-format stream-json --permission-prompt-tool=stdio`,
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			if runF != nil {
				return runF(opts)
			}
			return runFakeCLI(cmd.Context(), opts)
		},
	}
}

func runFakeCLI(ctx context.Context, opts *FakeCLIOptions) error {
	cwd, err := opts.Getwd()
	if err != nil {
		return err
	}
	code := fakecli.Run(ctx, fakecli.Options{
		Args: opts.Args, In: opts.IO.In, Out: opts.IO.Out, ErrOut: opts.IO.ErrOut,
		Getenv: opts.Getenv, Environ: opts.Environ, Cwd: cwd,
	})
	if code != 0 {
		return &cmdutil.ExitError{Code: code}
	}
	return nil
}
