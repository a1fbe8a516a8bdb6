// Command airwire is the single binary of the airwire project: the ACP agent
// for Claude Code, the recording proxy and the conformance suite.
package main

import (
	"os"

	"github.com/airwire/airwire/cmd/cli"
)

func main() {
	os.Exit(int(cli.Main()))
}
