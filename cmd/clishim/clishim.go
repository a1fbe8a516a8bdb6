// Package clishim implements the hidden `airwire __cli-shim`: the stand-in
// for the Claude Code CLI that `airwire record --cli-lane` installs through
// CLAUDE_CODE_EXECUTABLE. It is not meant to be run by hand.
package clishim

import (
	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/proxy"
)

// NewCmdCLIShim builds `airwire __cli-shim ARGS…`. Every argument, flags
// included, belongs to the real CLI.
func NewCmdCLIShim(f *factory.Factory) *cobra.Command {
	return &cobra.Command{
		Use:                "__cli-shim [CLI ARGS…]",
		Short:              "Start the real Claude CLI and report its stdio to airwire record (internal)",
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			code, err := proxy.RunShim(cmd.Context(), proxy.ShimOptions{
				Args: args, Env: f.Environ(), Stdin: f.IO.In, Stdout: f.IO.Out, Stderr: f.IO.ErrOut,
			})
			if err != nil {
				return err
			}
			if code != 0 {
				return &cmdutil.ExitError{Code: code}
			}
			return nil
		},
	}
}
