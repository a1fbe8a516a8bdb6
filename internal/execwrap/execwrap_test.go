package execwrap_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/execwrap"
)

// helperEnv makes the test binary print its arguments and exit, so the
// stand-in's command is a program that reports what it received on every
// platform. Started as a launcher, it reads its arguments file first, as
// airwire does (cmd/cli).
const helperEnv = "EXECWRAP_TEST_PRINT_ARGS"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		exe, err := os.Executable()
		if err != nil {
			os.Exit(3)
		}
		args, err := execwrap.Args(exe, os.Args[1:])
		if err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(4)
		}
		os.Stdout.WriteString(strings.Join(args, "|") + "|")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// words hold quotes, spaces, backslashes and the characters sh or cmd.exe
// would expand.
var words = []string{"it's", "$HOME", "a b", `"quoted" & | < > ^ ( )`, "%PATH% !x!", `back\slash\`, `\"`, ""}

// runStandIn writes a stand-in for goos that runs this test binary with
// words, runs it with one more argument, and returns what the binary got.
func runStandIn(t *testing.T, goos string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), execwrap.NameFor(goos, "it's a wrapper"))
	if err := execwrap.WriteFor(goos, path, append([]string{self}, words...)...); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, "more")
	cmd.Env = append(os.Environ(), helperEnv+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return string(out)
}

// TestStandInRunsTheCommand runs this platform's stand-in (the sh script,
// or the launcher on Windows) and checks every word arrives intact.
func TestStandInRunsTheCommand(t *testing.T) {
	if got, want := runStandIn(t, runtime.GOOS), strings.Join(append(words, "more"), "|")+"|"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestLauncherRunsTheCommand runs the Windows form, a link to the program
// beside its arguments file, on any platform: what it does needs no
// Windows call.
func TestLauncherRunsTheCommand(t *testing.T) {
	if got, want := runStandIn(t, "windows"), strings.Join(append(words, "more"), "|")+"|"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestArgs(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "airwire")
	if got, err := execwrap.Args(exe, []string{"version"}); err != nil || strings.Join(got, " ") != "version" {
		t.Errorf("without an arguments file: %q, %v", got, err)
	}
	if err := os.WriteFile(exe+execwrap.ArgvSuffix, []byte(`["fake-cli","--x"]`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := execwrap.Args(exe, []string{"-p"}); err != nil || strings.Join(got, " ") != "fake-cli --x -p" {
		t.Errorf("with one: %q, %v", got, err)
	}
	if err := os.WriteFile(exe+execwrap.ArgvSuffix, []byte(`{"not":"an array"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := execwrap.Args(exe, nil); err == nil || !strings.Contains(err.Error(), "launcher's arguments") {
		t.Errorf("a bad file: %v, want an error naming the launcher's arguments", err)
	}
}

func TestNameFor(t *testing.T) {
	for _, tc := range []struct{ goos, want string }{
		{"linux", "claude"}, {"darwin", "claude"}, {"windows", "claude.exe"},
	} {
		if got := execwrap.NameFor(tc.goos, "claude"); got != tc.want {
			t.Errorf("NameFor(%s) = %q, want %q", tc.goos, got, tc.want)
		}
	}
}

func TestScript(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"/opt/air wire/airwire", "fake-cli"}, "#!/bin/sh\nexec '/opt/air wire/airwire' 'fake-cli' \"$@\"\n"},
		{[]string{"it's"}, "#!/bin/sh\nexec 'it'\\''s' \"$@\"\n"},
	} {
		if got := string(execwrap.Script(tc.argv...)); got != tc.want {
			t.Errorf("Script(%q) = %q; want %q", tc.argv, got, tc.want)
		}
	}
}
