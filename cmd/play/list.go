package play

import (
	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/suitedata"
)

// dataDirs are the scenario and goldens directories: the flags, else the
// suite built into airwire.
func (opts *PlayOptions) dataDirs() (scenarios, goldens string, err error) {
	return suitedata.Fill(opts.Scenarios, opts.Goldens, opts.Suite)
}

// list prints the catalogue, filtered by --section.
func list(opts *PlayOptions, scenarios, goldens string) error {
	entries, err := conform.Catalogue(scenarios, goldens, opts.Section)
	if err != nil {
		return cmdutil.FlagErrorf("%v", err)
	}
	return conform.WriteCatalogue(opts.IO.Out, entries)
}
