package stats

import (
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/journal"
)

// A process is named by its role and its command (base name of each path,
// cut after maxCommand characters), and its exit status says what it
// means, so that "cli-2 exit 143 --output-format" reads as a CLI the
// adapter terminated.
func TestProcessLabelAndExit(t *testing.T) {
	long := []string{"/home/someone/.deps/node_modules/.bin/claude", "--output-format", "stream-json", "--input-format",
		"stream-json", "--verbose", "--settings=/home/someone/s.json", "--permission-prompt-tool", "stdio"}
	for _, tc := range []struct {
		p           Process
		label, exit string
	}{
		{Process{Proc: "agent", Argv: []string{"/usr/local/bin/airwire", "agent"}, Exit: &journal.Exit{}},
			"agent: airwire agent", "exit 0 (ok)"},
		{Process{Proc: "cli-1", Argv: []string{"/opt/claude/bin/claude", "auth", "status"}, Exit: &journal.Exit{Code: 1}},
			"cli-1: claude auth status", "exit 1 (error)"},
		{Process{Proc: "cli-2", Argv: long, Exit: &journal.Exit{Code: 143}},
			"cli-2: claude --output-format stream-json --input-format stream-json …", "exit 143 (terminated by SIGTERM)"},
		{Process{Proc: "cli-3", Argv: []string{`C:\Users\x\claude.exe`, "--settings=/home/x/s.json"}, Exit: &journal.Exit{Code: 137}},
			"cli-3: claude.exe --settings=s.json", "exit 137 (terminated by SIGKILL)"},
		{Process{Proc: "cli-4", Exit: &journal.Exit{Code: 130}}, "cli-4", "exit 130 (terminated by SIGINT)"},
		{Process{Proc: "cli-5", Argv: []string{"claude"}, Exit: &journal.Exit{Signal: "SIGKILL"}}, "cli-5: claude", "killed by SIGKILL"},
		{Process{Proc: "cli-6", Argv: []string{"claude"}}, "cli-6: claude", "still running at the end"},
		{Process{Proc: "cli-7", Argv: []string{"claude"}, Exit: &journal.Exit{Code: 3}}, "cli-7: claude", "exit 3 (error)"},
		{Process{Proc: "cli-8", Argv: []string{"claude"}, Exit: &journal.Exit{Code: 200}}, "cli-8: claude", "exit 200 (terminated by signal 72)"},
	} {
		if got := processLabel(tc.p); got != tc.label {
			t.Errorf("processLabel(%s) = %q, want %q", tc.p.Proc, got, tc.label)
		}
		if got := exitMeaning(tc.p); got != tc.exit {
			t.Errorf("exitMeaning(%s) = %q, want %q", tc.p.Proc, got, tc.exit)
		}
		if strings.Contains(processLabel(tc.p), "someone") {
			t.Errorf("a private path is shown: %q", processLabel(tc.p))
		}
	}
}
