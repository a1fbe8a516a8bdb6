// Package journal groups the `airwire journal` verbs (cat, stats, view).
package journal

import (
	"github.com/spf13/cobra"

	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/cmd/journal/cat"
	"github.com/airwire/airwire/cmd/journal/stats"
	"github.com/airwire/airwire/cmd/journal/view"
)

// NewCmdJournal builds `airwire journal`.
func NewCmdJournal(f *factory.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "journal <command>",
		Short: "Read journals written by airwire record",
	}
	cmd.AddCommand(cat.NewCmdCat(f, nil))
	cmd.AddCommand(stats.NewCmdStats(f, nil))
	cmd.AddCommand(view.NewCmdView(f, nil))
	return cmd
}
