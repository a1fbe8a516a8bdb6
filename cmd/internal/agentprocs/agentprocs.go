// Package agentprocs gives `airwire agent` its one P before the packages of
// the binary initialize; cmd/airwire imports it for that alone.
//
// The agent runs on one P (cmd/agent says why). Set only when its command
// runs, the second P has by then served some of the package inits: its
// mcache holds a span of many size classes, and giving them back to the
// central lists when that P goes away touched up to 0.5 MiB of span-set
// blocks (conform/agentbench, RSS after session/new). This package's init
// runs among the first, as it needs only os and runtime.
//
// It is the one package init of the module (TestNoPackageInitCode).
package agentprocs

import (
	"os"
	"runtime"
)

func init() {
	if IsAgent(os.Args) && os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
}

// IsAgent reports whether args (os.Args) run the agent verb.
func IsAgent(args []string) bool {
	return len(args) > 1 && args[1] == "agent"
}
