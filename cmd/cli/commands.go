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

// Commands added by other packages are listed here, one line each.
func init() {
	registry = append(registry, func(f *factory.Factory) *cobra.Command { return record.NewCmdRecord(f, nil) })
	registry = append(registry, func(f *factory.Factory) *cobra.Command { return journal.NewCmdJournal(f) })
	registry = append(registry, func(f *factory.Factory) *cobra.Command { return clishim.NewCmdCLIShim(f) })
	registry = append(registry, func(f *factory.Factory) *cobra.Command { return fakecli.NewCmdFakeCLI(f, nil) })
	registry = append(registry, func(f *factory.Factory) *cobra.Command { return conform.NewCmdConform(f, nil) })
	registry = append(registry, func(f *factory.Factory) *cobra.Command { return validate.NewCmdValidate(f, nil) })
	registry = append(registry, func(f *factory.Factory) *cobra.Command { return mockapi.NewCmdMockAPI(f, nil) })
	registry = append(registry, func(f *factory.Factory) *cobra.Command { return agent.NewCmdAgent(f, nil) })
	registry = append(registry, func(f *factory.Factory) *cobra.Command { return diff.NewCmdDiff(f, nil) })
	registry = append(registry, func(f *factory.Factory) *cobra.Command { return report.NewCmdReport(f) })
	registry = append(registry, func(f *factory.Factory) *cobra.Command { return reach.NewCmdReach(f, nil) })
}
