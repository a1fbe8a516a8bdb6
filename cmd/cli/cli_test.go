package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/factory"
)

func TestRunExitCodes(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   ExitCode
		out    string
		errOut string
	}{
		{name: "version", args: []string{"version"}, code: ExitOK, out: "airwire test ("},
		{name: "help teaches record", args: []string{"--help"}, code: ExitOK, out: "airwire record"},
		{name: "unknown command is usage", args: []string{"bogus"}, code: ExitUsage, errOut: "unknown command"},
		{name: "unknown flag is usage", args: []string{"version", "--bogus"}, code: ExitUsage, errOut: "unknown flag"},
		{name: "record without agent is usage", args: []string{"record"}, code: ExitUsage, errOut: "missing agent command"},
		{name: "completion", args: []string{"completion", "bash"}, code: ExitOK, out: "bash completion"},
		{name: "a failing command is 1", args: []string{"journal", "stats", "/nonexistent/j.jsonl"}, code: ExitError, errOut: "no such file"},
		{name: "shim is hidden", args: []string{"--help"}, code: ExitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			f := factory.New("test", factory.WithIO(strings.NewReader(""), &out, &errOut))
			code := Run(context.Background(), f, tt.args)
			if code != tt.code || !strings.Contains(out.String(), tt.out) || !strings.Contains(errOut.String(), tt.errOut) {
				t.Fatalf("code %d (want %d)\nstdout: %s\nstderr: %s", code, tt.code, out.String(), errOut.String())
			}
			if strings.Contains(out.String(), "__cli-shim") {
				t.Fatal("the internal shim shows in help")
			}
		})
	}
}
