//go:build !windows

package cli

// launcherArgs are the arguments airwire runs with: as given, since a Unix
// stand-in is a script that passes them (execwrap).
func launcherArgs(args []string) ([]string, error) { return args, nil }
