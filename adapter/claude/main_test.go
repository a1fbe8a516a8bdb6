package claude

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/airwire/airwire/internal/testroot"
)

// envAgentCLI makes the test binary an agent: it starts the CLI this
// names, prints the CLI's pid, and waits to be killed.
const envAgentCLI = "CLAUDE_TEST_AGENT_CLI"

func TestMain(m *testing.M) {
	if cli := os.Getenv(envAgentCLI); cli != "" {
		os.Exit(agentMain(cli))
	}
	os.Exit(testroot.RunTests(m))
}

func agentMain(cli string) int {
	p, err := Start(Config{Path: cli, Handler: &recorder{}, KillGrace: 300 * time.Millisecond})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(p.Pid())
	time.Sleep(time.Hour)
	return 0
}
