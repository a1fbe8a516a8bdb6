// Package execwrap writes the /bin/sh scripts that stand in for an
// executable where a tool takes one executable path (an adapter's
// CLAUDE_CODE_EXECUTABLE) but must run a command with arguments of its own
// (airwire __cli-shim, airwire fake-cli): `exec ARGV "$@"`. It never runs
// anything.
package execwrap

import "strings"

// Script is the text of a script that runs argv followed by the script's
// own arguments.
func Script(argv ...string) []byte {
	var b strings.Builder
	b.WriteString("#!/bin/sh\nexec")
	for _, a := range argv {
		b.WriteString(" " + Quote(a))
	}
	b.WriteString(" \"$@\"\n")
	return []byte(b.String())
}

// Quote quotes s as one word for /bin/sh: in single quotes, each ' as '\”.
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
