package execwrap_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/execwrap"
)

// TestScriptRunsTheCommand runs a script whose command words hold quotes,
// spaces, $ and newlines, and checks what the command received.
func TestScriptRunsTheCommand(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "it's a wrapper")
	argv := []string{"/bin/sh", "-c", `printf '%s|' "$@"`, "name", "it's", "$HOME", "a b", "x\ny"}
	if err := os.WriteFile(script, execwrap.Script(argv...), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(script, "more", "'q'").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "it's|$HOME|a b|x\ny|more|'q'|"; string(out) != want {
		t.Fatalf("got %q, want %q", out, want)
	}
	if !strings.HasPrefix(string(execwrap.Script("a")), "#!/bin/sh\nexec 'a' \"$@\"\n") {
		t.Fatalf("script %q", execwrap.Script("a"))
	}
}
