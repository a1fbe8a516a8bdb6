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
	// Rules prints only the rule table (no COVERAGE_DIR).
	Rules bool
	// Modules, when set, are the patterns of the modules to report alone
	// (reach.Report.Select).
	Modules []string
}

// NewCmdReach builds `airwire reach`. runF replaces the behaviour in tests.
func NewCmdReach(f *factory.Factory, runF func(*ReachOptions) error) *cobra.Command {
	opts := &ReachOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:    "reach COVERAGE_DIR [--dist DIR] [--json FILE] [--module PATTERN]... | reach --rules",
		Short:  "Report which functions of the reference adapter no scenario executes",
		Hidden: true,
		Long: `Read the V8 coverage that the reference adapter's Node processes wrote into
COVERAGE_DIR (airwire conform --reference run with NODE_V8_COVERAGE set:
make reach) and report, per module of its dist/, the functions and blocks
executed, the functions no scenario executes with their lines, and the
sums of the modules that implement the contract's areas. It ends with the
rule table: the contract's wire rules, how many a scenario pins, a
validator rule checks, both, or neither (each of those with its reason).
--rules prints the rule table alone, without coverage. --module PATTERN
(repeatable; a path pattern over the module names under dist/, such as
'v2/*' or session-notices.js) reports only the modules it matches, with
their sum in place of the areas and without the rule table. docs/reach.md
explains the figures.`,
		Example: `  NODE_V8_COVERAGE=$PWD/cov airwire conform --reference && airwire reach cov --json reach.json
  airwire reach cov --module 'v2/*' --module session-notices.js
  airwire reach --rules`,
		Args: func(cmd *cobra.Command, args []string) error {
			if opts.Rules {
				return cobra.NoArgs(cmd, args)
			}
			return cobra.ExactArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				opts.Dir = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return runReach(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Dist, "dist", "", "the reference's dist/ `DIR` (default: the one the coverage names)")
	cmd.Flags().StringVar(&opts.JSON, "json", "", "also write the report as JSON to `FILE`")
	cmd.Flags().BoolVar(&opts.Rules, "rules", false, "print only the rule table (no COVERAGE_DIR)")
	cmd.Flags().StringArrayVar(&opts.Modules, "module", nil, "report only the modules under dist/ whose name matches `PATTERN` (path pattern, e.g. 'v2/*'; repeatable)")
	return cmd
}

func runReach(opts *ReachOptions) error {
	rules, err := reach.RuleTable()
	if err != nil {
		return err
	}
	if opts.Rules {
		return reach.WriteRuleText(opts.IO.Out, rules)
	}
	cov, err := reach.Read(opts.Dir)
	if err != nil {
		return err
	}
	rep, err := reach.Build(cov, opts.Dist)
	if err != nil {
		return err
	}
	if len(opts.Modules) > 0 {
		if err := rep.Select(opts.Modules); err != nil {
			return err
		}
	}
	if err := rep.WriteText(opts.IO.Out); err != nil {
		return err
	}
	if len(opts.Modules) == 0 {
		fmt.Fprintln(opts.IO.Out)
		if err := reach.WriteRuleText(opts.IO.Out, rules); err != nil {
			return err
		}
		rep.Rules = reach.TotalsOf(rules)
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
