package cli

import (
	"os"

	"github.com/airwire/airwire/internal/execwrap"
)

// launcherArgs are the arguments airwire runs with. Started as a launcher
// (a link to airwire beside its arguments file, which execwrap writes where
// an adapter needs one executable path for a command with arguments), the
// file's arguments come first.
func launcherArgs(args []string) ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return args, nil
	}
	return execwrap.Args(exe, args)
}
