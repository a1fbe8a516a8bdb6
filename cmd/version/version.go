// Package version implements `airwire version`.
package version

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/factory"
)

// VersionOptions are the inputs of `airwire version`.
type VersionOptions struct {
	IO      factory.IOStreams
	Version string
}

// NewCmdVersion builds `airwire version`. runF replaces the behaviour in tests.
func NewCmdVersion(f *factory.Factory, runF func(*VersionOptions) error) *cobra.Command {
	opts := &VersionOptions{IO: f.IO, Version: f.Version}
	return &cobra.Command{
		Use:   "version",
		Short: "Print the airwire version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runVersion(opts)
		},
	}
}

func runVersion(opts *VersionOptions) error {
	_, err := fmt.Fprintf(opts.IO.Out, "airwire %s (%s, %s/%s)\n", opts.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return err
}
