package conform

import (
	"context"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/conform/fakecli"
)

// NewCmdPacedCLI builds the hidden `airwire conform paced-cli`: the scripted
// fake Claude CLI (conform/fakecli, as `airwire fake-cli` runs it) with its
// output paced by conform.Pacer. The conformance driver points
// CLAUDE_CODE_EXECUTABLE at it; $AIRWIRE_CONFORM_PACE sets the pause.
func NewCmdPacedCLI(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:                "paced-cli [claude args…]",
		Short:              "Run the fake Claude CLI paced like a real one (used by the conformance driver)",
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPacedCLI(cmd.Context(), f, args)
		},
	}
}

func runPacedCLI(ctx context.Context, f *factory.Factory, args []string) error {
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	in, out := f.IO.In, f.IO.Out
	// Only a stream-json process is paced: a run that prints one document
	// (auth status --json, several lines) has no adapter to wait for.
	if cassette.IsStreamJSON(args) {
		pace, _ := time.ParseDuration(f.Getenv(conform.EnvPace))
		p := conform.NewPacer(pace)
		in, out = p.Reader(in), p.Writer(out)
	}
	code := fakecli.Run(ctx, fakecli.Options{
		Args: args, In: in, Out: out, ErrOut: f.IO.ErrOut,
		Getenv: f.Getenv, Environ: f.Environ, Cwd: cwd,
	})
	if code != 0 {
		return &cmdutil.ExitError{Code: code}
	}
	return nil
}
