package fakecli

import (
	"reflect"
	"strings"
	"testing"
)

// realArgv is the argv the reference adapter gave the real CLI
// (research/peer-capture/real-cli-argv.json).
var realArgv = []string{"--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
	"--permission-prompt-tool=stdio", "--tools=default", "--setting-sources=user,project,local",
	"--permission-mode=auto", "--allow-dangerously-skip-permissions", "--include-partial-messages",
	"--session-id=cd4c3fa8-68ad-498e-a68c-6a6117c1f314", "--replay-user-messages", ""}

func TestParseArgs(t *testing.T) {
	tests := []struct {
		name    string
		argv    []string
		check   func(t *testing.T, a *Args)
		wantErr string
	}{
		{
			name: "adapter argv",
			argv: realArgv,
			check: func(t *testing.T, a *Args) {
				if a.Mode != ModeStream || !a.Verbose || !a.ReplayUserMessages || !a.IncludePartialMessages {
					t.Errorf("mode/flags wrong: %+v", a)
				}
				if a.PermissionMode != "auto" || a.SessionID != "cd4c3fa8-68ad-498e-a68c-6a6117c1f314" || a.PermissionPromptTool != "stdio" {
					t.Errorf("values wrong: %+v", a)
				}
				if a.Options["tools"] != "default" || a.Options["setting-sources"] != "user,project,local" {
					t.Errorf("options = %v", a.Options)
				}
				if len(a.Positional) != 0 {
					t.Errorf("the empty extraArgs value must be dropped, positional = %q", a.Positional)
				}
			},
		},
		{
			name: "resume and fork",
			argv: []string{"--output-format=stream-json", "--verbose", "--input-format=stream-json", "--resume", "11111111-2222-4333-8444-555555555555", "--fork-session", "--session-id=aaaaaaaa-2222-4333-8444-555555555555"},
			check: func(t *testing.T, a *Args) {
				if a.Resume != "11111111-2222-4333-8444-555555555555" || !a.ForkSession || a.SessionID == "" {
					t.Errorf("got %+v", a)
				}
			},
		},
		{
			name: "repeated values",
			argv: []string{"--output-format", "stream-json", "--verbose", "--input-format", "stream-json", "--add-dir", "/a", "--add-dir=/b", "--mcp-config", `{"mcpServers":{}}`},
			check: func(t *testing.T, a *Args) {
				if !reflect.DeepEqual(a.AddDirs, []string{"/a", "/b"}) || len(a.MCPConfig) != 1 {
					t.Errorf("got dirs %v mcp %v", a.AddDirs, a.MCPConfig)
				}
			},
		},
		{name: "version long", argv: []string{"--version"}, check: func(t *testing.T, a *Args) { wantMode(t, a, ModeVersion) }},
		{name: "version short", argv: []string{"-v"}, check: func(t *testing.T, a *Args) { wantMode(t, a, ModeVersion) }},
		{name: "auth status", argv: []string{"auth", "status", "--json"}, check: func(t *testing.T, a *Args) {
			wantMode(t, a, ModeAuthStatus)
			if !a.JSON {
				t.Error("--json not set")
			}
		}},
		{name: "auth status after settings", argv: []string{"--settings", `{"env":{}}`, "auth", "status", "--json"}, check: func(t *testing.T, a *Args) { wantMode(t, a, ModeAuthStatus) }},
		{name: "auth logout", argv: []string{"auth", "logout"}, check: func(t *testing.T, a *Args) { wantMode(t, a, ModeAuthLogout) }},
		{name: "auth login", argv: []string{"auth", "login", "--claudeai"}, check: func(t *testing.T, a *Args) { wantMode(t, a, ModeAuthLogin) }},
		{name: "help", argv: []string{"--help"}, check: func(t *testing.T, a *Args) { wantMode(t, a, ModeHelp) }},
		{name: "unknown option", argv: []string{"--frobnicate"}, wantErr: "unknown option '--frobnicate'"},
		{name: "unknown short option", argv: []string{"-z"}, wantErr: "unknown option '-z'"},
		{name: "missing value", argv: []string{"--output-format", "stream-json", "--model"}, wantErr: "argument missing"},
		{name: "flag with value", argv: []string{"--verbose=yes"}, wantErr: "does not take a value"},
		{name: "unknown auth command", argv: []string{"auth", "whoami"}, wantErr: "unknown command 'auth whoami'"},
		{name: "text output", argv: []string{"--output-format", "text", "--verbose", "--input-format", "stream-json"}, wantErr: "stream-json"},
		{name: "stream-json needs verbose", argv: []string{"--output-format", "stream-json", "--input-format", "stream-json"}, wantErr: "requires --verbose"},
		{name: "fork without resume", argv: []string{"--output-format", "stream-json", "--verbose", "--input-format", "stream-json", "--fork-session"}, wantErr: "--fork-session requires --resume"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := ParseArgs(tt.argv)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			tt.check(t, a)
		})
	}
}

func wantMode(t *testing.T, a *Args, m Mode) {
	t.Helper()
	if a.Mode != m {
		t.Errorf("mode = %v, want %v", a.Mode, m)
	}
}
