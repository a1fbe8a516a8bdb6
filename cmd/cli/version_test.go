package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/cmd/version"
)

// TestVersionFlag: `airwire --version` prints the same line as `airwire
// version`, with the factory's version in it.
func TestVersionFlag(t *testing.T) {
	want := version.Line("v1.2.3")
	for _, args := range [][]string{{"--version"}, {"-v"}, {"version"}} {
		var out, errOut bytes.Buffer
		f := factory.New("v1.2.3", factory.WithIO(strings.NewReader(""), &out, &errOut))
		if code := Run(context.Background(), f, args); code != ExitOK {
			t.Fatalf("%v: exit %d, stderr %s", args, code, errOut.String())
		}
		if out.String() != want {
			t.Errorf("%v printed %q, want %q", args, out.String(), want)
		}
	}
}

// TestAgentInfoVersion: the version airwire reports is the one its agent
// answers initialize with (agentInfo.version).
func TestAgentInfoVersion(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}` + "\n")
	var out, errOut bytes.Buffer
	f := factory.New("v1.2.3", factory.WithIO(in, &out, &errOut))
	if code := Run(context.Background(), f, []string{"agent"}); code != ExitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut.String())
	}
	var resp struct {
		Result struct {
			AgentInfo struct{ Version string } `json:"agentInfo"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(out.String(), "\n", 2)[0]), &resp); err != nil {
		t.Fatalf("%v in %q", err, out.String())
	}
	if resp.Result.AgentInfo.Version != "v1.2.3" {
		t.Errorf("agentInfo.version = %q, want v1.2.3 (stdout %q)", resp.Result.AgentInfo.Version, out.String())
	}
}
