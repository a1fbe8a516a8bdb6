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
	"github.com/airwire/airwire/cmd/play"
	"github.com/airwire/airwire/cmd/reach"
	"github.com/airwire/airwire/cmd/record"
	"github.com/airwire/airwire/cmd/report"
	"github.com/airwire/airwire/cmd/validate"
)

// registry holds the commands by name, one line each, so that adding a verb
// touches one line. A slice literal, not an init function: package init
// code runs at every start of every verb. The name is the command's Name
// (TestRegistryNames): Run builds only the named verb's command.
var registry = []verb{
	{"record", func(f *factory.Factory) *cobra.Command { return record.NewCmdRecord(f, nil) }},
	{"journal", func(f *factory.Factory) *cobra.Command { return journal.NewCmdJournal(f) }},
	{"__cli-shim", func(f *factory.Factory) *cobra.Command { return clishim.NewCmdCLIShim(f) }},
	{"fake-cli", func(f *factory.Factory) *cobra.Command { return fakecli.NewCmdFakeCLI(f, nil) }},
	{"conform", func(f *factory.Factory) *cobra.Command { return conform.NewCmdConform(f, nil) }},
	{"validate", func(f *factory.Factory) *cobra.Command { return validate.NewCmdValidate(f, nil) }},
	{"mock-api", func(f *factory.Factory) *cobra.Command { return mockapi.NewCmdMockAPI(f, nil) }},
	{"agent", func(f *factory.Factory) *cobra.Command { return agent.NewCmdAgent(f, nil) }},
	{"diff", func(f *factory.Factory) *cobra.Command { return diff.NewCmdDiff(f, nil) }},
	{"report", func(f *factory.Factory) *cobra.Command { return report.NewCmdReport(f) }},
	{"reach", func(f *factory.Factory) *cobra.Command { return reach.NewCmdReach(f, nil) }},
	{"play", func(f *factory.Factory) *cobra.Command { return play.NewCmdPlay(f, nil) }},
}
