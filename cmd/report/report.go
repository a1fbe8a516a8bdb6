// Package report implements `airwire report`: commands over the JSON
// reports of `airwire conform --json` (package reports). Today: merge, which
// joins the reports of the shards of one suite run.
package report

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/reports"
)

// MergeOptions are the inputs of `airwire report merge`.
type MergeOptions struct {
	IO factory.IOStreams
	// Inputs are the shard reports.
	Inputs []string
	// JSON, JUnit and HTML are the outputs ("" = not written).
	JSON, JUnit, HTML string
}

// NewCmdReport builds `airwire report` and its subcommands.
func NewCmdReport(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "report <command>",
		Short: "Work with the JSON reports of airwire conform",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(NewCmdMerge(f, nil))
	return cmd
}

// NewCmdMerge builds `airwire report merge`. runF replaces the behaviour in
// tests.
func NewCmdMerge(f *factory.Factory, runF func(*MergeOptions) error) *cobra.Command {
	opts := &MergeOptions{IO: f.IO}
	cmd := &cobra.Command{
		Use:   "merge REPORT.json... [--json FILE] [--junit FILE] [--html DIR]",
		Short: "Join the JSON reports of conform shards into one report",
		Long: `Join the JSON reports that "airwire conform --shard i/n --json FILE" wrote
in the jobs of a CI matrix into one report of the whole suite, and write it
as JSON, JUnit XML and HTML (the same formats as airwire conform's --json,
--junit and --html; docs/report.md).

Every run (scenario x profile) must be in exactly one input, and all inputs
must have run the same adapter command: a run found twice, or two
adapters, is an error. The merged report lists the runs sorted, counts
them anew, and takes the earliest start and the longest shard's duration.
Give it to "airwire conform --durations" to balance the next split.

Exit status: 0 when no merged run failed (expected failures do not
count), 1 when one did, 2 on a usage error or an input that is not a
report.`,
		Example: `  airwire report merge shard-*.json --json report.json --junit junit.xml --html report/`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Inputs = args
			if opts.JSON == "" && opts.JUnit == "" && opts.HTML == "" {
				return cmdutil.FlagErrorf("nothing to write: give --json, --junit or --html")
			}
			if runF != nil {
				return runF(opts)
			}
			return runMerge(opts)
		},
	}
	cmd.Flags().StringVar(&opts.JSON, "json", "", "write the merged JSON report to `FILE`")
	cmd.Flags().StringVar(&opts.JUnit, "junit", "", "write the merged JUnit XML to `FILE`")
	cmd.Flags().StringVar(&opts.HTML, "html", "", "write the merged HTML report into `DIR` (DIR/index.html)")
	return cmd
}

func runMerge(opts *MergeOptions) error {
	var parts []*reports.Report
	for _, p := range opts.Inputs {
		r, err := reports.Read(p)
		if err != nil {
			return cmdutil.FlagErrorf("%v", err)
		}
		parts = append(parts, r)
	}
	merged, err := reports.Merge(parts...)
	if err != nil {
		return cmdutil.FlagErrorf("%v", err)
	}
	if err := write(opts, merged); err != nil {
		return err
	}
	s := merged.Summary
	fmt.Fprintf(opts.IO.Out, "%s from %s: %d pass, %d fail, %d expected-fail, %d skip\n",
		cmdutil.Plural(s.Total, "run", "runs"), cmdutil.Plural(len(parts), "report", "reports"), s.Pass, s.Fail, s.ExpectedFail, s.Skip)
	if s.Fail > 0 {
		return cmdutil.Mismatchf("%s failed", cmdutil.Plural(s.Fail, "run", "runs"))
	}
	return nil
}

func write(opts *MergeOptions, r *reports.Report) error {
	if opts.JSON != "" {
		if err := r.WriteJSON(opts.JSON); err != nil {
			return err
		}
	}
	if opts.JUnit != "" {
		if err := r.WriteJUnit(opts.JUnit); err != nil {
			return err
		}
	}
	if opts.HTML != "" {
		return r.WriteHTML(opts.HTML)
	}
	return nil
}
