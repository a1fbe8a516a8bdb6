// Package reach implements `airwire reach`, a hidden developer command:
// the reach of the conformance suite over the reference adapter's code,
// from the V8 coverage its Node processes wrote (conform/reach, make
// reach, docs/reach.md).
package reach

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform/reach"
)

// ReachOptions are the inputs of `airwire reach`.
type ReachOptions struct {
	IO factory.IOStreams
	// Dir is the NODE_V8_COVERAGE directory.
	Dir string
	// Dist is the reference's dist/ directory ("" = the one the coverage
	// names).
	Dist string
	// JSON is where the JSON report goes ("" = not written).
	JSON string
}

// NewCmdReach builds `airwire reach`. runF replaces the behaviour in tests.
func NewCmdReach(f *factory.Factory, runF func(*ReachOptions) error) *cobra.Command {
	opts := &ReachOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:    "reach COVERAGE_DIR [--dist DIR] [--json FILE]",
		Short:  "Report which functions of the reference adapter no scenario executes",
		Hidden: true,
		Long: `Read the V8 coverage that the reference adapter's Node processes wrote into
COVERAGE_DIR (airwire conform --reference run with NODE_V8_COVERAGE set:
make reach) and report, per module of its dist/, the functions and blocks
executed, the functions no scenario executes with their lines, and the
sums of the modules that implement the contract's areas. docs/reach.md
explains the figures.`,
		Example: `  NODE_V8_COVERAGE=$PWD/cov airwire conform --reference && airwire reach cov --json reach.json`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Dir = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runReach(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Dist, "dist", "", "the reference's dist/ `DIR` (default: the one the coverage names)")
	cmd.Flags().StringVar(&opts.JSON, "json", "", "also write the report as JSON to `FILE`")
	return cmd
}

func runReach(opts *ReachOptions) error {
	cov, err := reach.Read(opts.Dir)
	if err != nil {
		return err
	}
	rep, err := reach.Build(cov, opts.Dist)
	if err != nil {
		return err
	}
	if err := rep.WriteText(opts.IO.Out); err != nil {
		return err
	}
	if opts.JSON == "" {
		return nil
	}
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(opts.JSON), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(opts.JSON, append(data, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "airwire reach: wrote %s\n", opts.JSON)
	return nil
}
