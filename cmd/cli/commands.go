package cli

import (
	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/agent"
	"github.com/airwire/airwire/cmd/clishim"
	"github.com/airwire/airwire/cmd/conform"
	"github.com/airwire/airwire/cmd/diff"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/cmd/fakecli"
	"github.com/airwire/airwire/cmd/journal"
	"github.com/airwire/airwire/cmd/mockapi"
	"github.com/airwire/airwire/cmd/reach"
	"github.com/airwire/airwire/cmd/record"
	"github.com/airwire/airwire/cmd/report"
	"github.com/airwire/airwire/cmd/validate"
)

// registry holds the constructors of the commands, one line each, so that
// adding a verb touches one line. A slice literal, not an init function:
// package init code runs at every start of every verb.
var registry = []func(*factory.Factory) *cobra.Command{
	func(f *factory.Factory) *cobra.Command { return record.NewCmdRecord(f, nil) },
	func(f *factory.Factory) *cobra.Command { return journal.NewCmdJournal(f) },
	func(f *factory.Factory) *cobra.Command { return clishim.NewCmdCLIShim(f) },
	func(f *factory.Factory) *cobra.Command { return fakecli.NewCmdFakeCLI(f, nil) },
	func(f *factory.Factory) *cobra.Command { return conform.NewCmdConform(f, nil) },
	func(f *factory.Factory) *cobra.Command { return validate.NewCmdValidate(f, nil) },
	func(f *factory.Factory) *cobra.Command { return mockapi.NewCmdMockAPI(f, nil) },
	func(f *factory.Factory) *cobra.Command { return agent.NewCmdAgent(f, nil) },
	func(f *factory.Factory) *cobra.Command { return diff.NewCmdDiff(f, nil) },
	func(f *factory.Factory) *cobra.Command { return report.NewCmdReport(f) },
	func(f *factory.Factory) *cobra.Command { return reach.NewCmdReach(f, nil) },
}
