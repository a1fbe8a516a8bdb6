package execwrap_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/execwrap"
)

// helperEnv makes the test binary print its arguments and exit, so the
// script's command is a program that reports what it received on every
// platform.
const helperEnv = "EXECWRAP_TEST_PRINT_ARGS"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		os.Stdout.WriteString(strings.Join(os.Args[1:], "|") + "|")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestScriptRunsTheCommand runs this platform's script (sh or cmd.exe)
// whose command words hold quotes, spaces, backslashes and the characters
// each shell would expand, and checks what the command received.
func TestScriptRunsTheCommand(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"it's", "$HOME", "a b", `"quoted" & | < > ^ ( )`, "%PATH% !x!", `back\slash\`, `\"`, ""}
	script := filepath.Join(t.TempDir(), execwrap.Name("it's a wrapper"))
	text, err := execwrap.Script(append([]string{self}, words...)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, text, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(script, "more")
	cmd.Env = append(os.Environ(), helperEnv+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Join(append(words, "more"), "|") + "|"; string(out) != want {
		t.Fatalf("got %q, want %q", out, want)
	}
}

func TestNameFor(t *testing.T) {
	for _, tc := range []struct{ goos, want string }{
		{"linux", "claude"}, {"darwin", "claude"}, {"windows", "claude.cmd"},
	} {
		if got := execwrap.NameFor(tc.goos, "claude"); got != tc.want {
			t.Errorf("NameFor(%s) = %q, want %q", tc.goos, got, tc.want)
		}
	}
}

func TestScriptFor(t *testing.T) {
	for _, tc := range []struct {
		goos string
		argv []string
		want string
	}{
		{"linux", []string{"/opt/air wire/airwire", "fake-cli"}, "#!/bin/sh\nexec '/opt/air wire/airwire' 'fake-cli' \"$@\"\n"},
		{"darwin", []string{"it's"}, "#!/bin/sh\nexec 'it'\\''s' \"$@\"\n"},
		{"windows", []string{`C:\Program Files\airwire\airwire.exe`, "fake-cli"},
			"@echo off\r\nsetlocal DisableDelayedExpansion\r\n" +
				`^"C:\Program Files\airwire\airwire.exe^" ^"fake-cli^" %*` + "\r\n"},
	} {
		got, err := execwrap.ScriptFor(tc.goos, tc.argv...)
		if err != nil || string(got) != tc.want {
			t.Errorf("ScriptFor(%s, %q) = %q, %v; want %q", tc.goos, tc.argv, got, err, tc.want)
		}
	}
	if _, err := execwrap.ScriptFor("windows", "a\nb"); err == nil {
		t.Error("a line break was written into a batch file")
	}
	if _, err := execwrap.ScriptFor("linux", "a\nb"); err != nil {
		t.Errorf("sh quotes a line break: %v", err)
	}
}

// QuoteCmd round-trips through a model of the two parsers a batch line
// meets: cmd.exe's (%% to %, ^ escapes the next character, and any other
// special character outside quotes is an error) and CommandLineToArgvW's.
func TestQuoteCmdRoundTrips(t *testing.T) {
	for _, s := range []string{"", "plain", "a b", `C:\dir\`, `C:\dir with space\`, `"`, `\"`, `\\"x"\\`,
		`a & b | c < d > e ^ f ( g ) h`, "%PATH%", "%%", "!x!", `"&"`, "é ü 世界", "\t"} {
		q, err := execwrap.QuoteCmd(s)
		if err != nil {
			t.Fatalf("QuoteCmd(%q): %v", s, err)
		}
		line, err := cmdUnescape(q)
		if err != nil {
			t.Errorf("QuoteCmd(%q) = %s: %v", s, q, err)
			continue
		}
		if got := commandLineToArgv(line); len(got) != 1 || got[0] != s {
			t.Errorf("QuoteCmd(%q) = %s: the program reads %q", s, q, got)
		}
	}
	for _, s := range []string{"a\nb", "a\rb", "a\x00b"} {
		if _, err := execwrap.QuoteCmd(s); err == nil {
			t.Errorf("QuoteCmd(%q) accepted a word a batch line cannot hold", s)
		}
	}
}

// cmdUnescape is what cmd.exe passes on of one batch-file word that never
// enters a quoted run: percent signs halved, carets removed; an unescaped
// special character is an error (cmd.exe would act on it).
func cmdUnescape(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%':
			if i+1 >= len(s) || s[i+1] != '%' {
				return "", fmt.Errorf("a lone %% at %d", i)
			}
			b.WriteByte('%')
			i++
		case c == '^':
			if i+1 >= len(s) {
				return "", fmt.Errorf("a trailing ^")
			}
			b.WriteByte(s[i+1])
			i++
		case strings.IndexByte(`&|<>()"!`, c) >= 0:
			return "", fmt.Errorf("an unescaped %c at %d", c, i)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// commandLineToArgv splits a command line as CommandLineToArgvW does
// (after the program name).
func commandLineToArgv(line string) []string {
	var out []string
	var cur strings.Builder
	inQuotes, started := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\':
			n := 0
			for i < len(line) && line[i] == '\\' {
				n, i = n+1, i+1
			}
			if i < len(line) && line[i] == '"' {
				cur.WriteString(strings.Repeat(`\`, n/2))
				if n%2 == 1 {
					cur.WriteByte('"')
					started = true
					continue
				}
			} else {
				cur.WriteString(strings.Repeat(`\`, n))
			}
			i--
			started = true
		case c == '"':
			inQuotes, started = !inQuotes, true
		case (c == ' ' || c == '\t') && !inQuotes:
			if started {
				out, started = append(out, cur.String()), false
				cur.Reset()
			}
		default:
			cur.WriteByte(c)
			started = true
		}
	}
	if started {
		out = append(out, cur.String())
	}
	return out
}
