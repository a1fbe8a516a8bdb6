package agent

import (
	"bytes"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/factory"
)

func TestNewCmdAgent(t *testing.T) {
	tests := []struct {
		argv    string
		want    AgentOptions
		wantErr string
	}{
		{argv: "", want: AgentOptions{LogLevel: "info"}},
		{argv: "--claude-path /x/claude --log-level debug", want: AgentOptions{ClaudePath: "/x/claude", LogLevel: "debug"}},
		{argv: "--cli auth login --claudeai", want: AgentOptions{LogLevel: "info", CLI: true, Args: []string{"auth", "login", "--claudeai"}}},
		{argv: "stray", wantErr: "after --cli"},
		{argv: "--cli --version", want: AgentOptions{LogLevel: "info", CLI: true, Args: []string{"--version"}}},
		{argv: "--claude-path /x/claude --cli -p --model opus -- hi", want: AgentOptions{ClaudePath: "/x/claude", LogLevel: "info", CLI: true,
			Args: []string{"-p", "--model", "opus", "--", "hi"}}},
		{argv: "--cli --help", want: AgentOptions{LogLevel: "info", CLI: true, Args: []string{"--help"}}},
		{argv: "--bogus", wantErr: "unknown flag: --bogus"},
		{argv: "--log-level", wantErr: "flag needs an argument"},
	}
	for _, tt := range tests {
		t.Run(tt.argv, func(t *testing.T) {
			var got *AgentOptions
			f := factory.New("test", factory.WithIO(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}))
			cmd := NewCmdAgent(f, func(o *AgentOptions) error { got = o; return nil })
			args := strings.Fields(tt.argv)
			cmd.SetArgs(args)
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			err := cmd.Execute()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.ClaudePath != tt.want.ClaudePath || got.LogLevel != tt.want.LogLevel || got.CLI != tt.want.CLI ||
				strings.Join(got.Args, " ") != strings.Join(tt.want.Args, " ") {
				t.Errorf("options = %+v, want %+v", *got, tt.want)
			}
		})
	}
}

func TestParseLevel(t *testing.T) {
	if _, err := parseLevel("loud"); err == nil {
		t.Error("an unknown level is accepted")
	}
	if l, err := parseLevel("warn"); err != nil || l.String() != "WARN" {
		t.Errorf("warn = %v, %v", l, err)
	}
}

// A value of AIRWIRE_ACP_PROTOCOL other than auto, v1 or v2 stops the
// agent at its start, with an error naming the variable and its values.
func TestProtocolTypoFailsTheStart(t *testing.T) {
	f := factory.New("test", factory.WithIO(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}))
	cmd := NewCmdAgent(f, func(o *AgentOptions) error {
		o.Getenv = func(k string) string {
			if k == "AIRWIRE_ACP_PROTOCOL" {
				return "2"
			}
			return ""
		}
		return agentRun(nil, o)
	})
	cmd.SetArgs([]string{}) // nil would make cobra read the test binary's own flags
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	err := cmd.Execute()
	if err == nil || err.Error() != `AIRWIRE_ACP_PROTOCOL must be "auto", "v1", or "v2", not "2"` {
		t.Fatalf("err = %v", err)
	}
}
