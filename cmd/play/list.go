package play

import (
	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/conform"
)

// dataDirs are the scenario and goldens directories: the flags, else the
// suite built into airwire.
func (opts *PlayOptions) dataDirs() (scenarios, goldens string, err error) {
	scenarios, goldens = opts.Scenarios, opts.Goldens
	if scenarios != "" && goldens != "" {
		return scenarios, goldens, nil
	}
	built, err := opts.Suite()
	if err != nil {
		return "", "", err
	}
	if scenarios == "" {
		scenarios = built.Scenarios
	}
	if goldens == "" {
		goldens = built.Goldens
	}
	return scenarios, goldens, nil
}

// list prints the catalogue, filtered by --section.
func list(opts *PlayOptions, scenarios, goldens string) error {
	entries, err := conform.Catalogue(scenarios, goldens, opts.Section)
	if err != nil {
		return cmdutil.FlagErrorf("%v", err)
	}
	return conform.WriteCatalogue(opts.IO.Out, entries)
}
