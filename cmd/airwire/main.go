// Command airwire is the single binary of the airwire project: the ACP agent
// for Claude Code, the recording proxy and the conformance suite.
package main

import (
	"os"

	"github.com/airwire/airwire"
	"github.com/airwire/airwire/cmd/cli"
	"github.com/airwire/airwire/cmd/factory"
	_ "github.com/airwire/airwire/cmd/internal/agentprocs" // first: one P for the agent
	"github.com/airwire/airwire/conform/suitedata"
)

func main() {
	os.Exit(int(cli.Main(factory.WithSuiteData(builtinSuite()))))
}

// builtinSuite is the conformance data the module's root package embeds.
// (Pointers: copying the embed.FS values would be init code run at every
// start of the binary.)
func builtinSuite() suitedata.Data {
	return suitedata.Data{Scenarios: &airwire.Scenarios, Goldens: &airwire.Goldens}
}
