// Command airwire is the single binary of the airwire project: the ACP agent
// for Claude Code, the recording proxy and the conformance suite.
package main

import (
	"os"

	"github.com/airwire/airwire/cmd/cli"
	_ "github.com/airwire/airwire/internal/agentprocs" // first: one P for the agent
)

func main() {
	os.Exit(int(cli.Main()))
}
