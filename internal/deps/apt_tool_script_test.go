//go:build !windows

package deps_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/testroot"
)

// fakeBin is a PATH of stand-ins for .ci/chromium.sh: id prints uid, and
// with apt, apt-get logs its arguments and, on install, puts a chromium
// there.
func fakeBin(t *testing.T, uid string, apt bool) (dir, log string) {
	t.Helper()
	dir = t.TempDir()
	log = filepath.Join(dir, "apt.log")
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("id", "echo "+uid+"\n")
	if apt {
		write("apt-get", `echo "$@" >>`+log+`
case "$*" in *install*chromium*) printf '#!/bin/sh\n' >`+filepath.Join(dir, "chromium")+`; /bin/chmod +x `+filepath.Join(dir, "chromium")+`;; esac
`)
	}
	return dir, log
}

// runChromiumScript runs .ci/chromium.sh with PATH holding only dir and
// returns its stderr.
func runChromiumScript(t *testing.T, dir string) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is needed to run .ci/chromium.sh")
	}
	cmd := exec.Command(bash, filepath.Join(testroot.Root(t), ".ci", "chromium.sh"))
	cmd.Env = []string{"PATH=" + dir}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf(".ci/chromium.sh: %v\n%s", err, stderr.String())
	}
	return stderr.String()
}

// make deps installs Debian's chromium as root when it is missing, once;
// as another user, or without apt-get, it says exactly what to run.
func TestChromiumScript(t *testing.T) {
	t.Run("root installs once", func(t *testing.T) {
		dir, log := fakeBin(t, "0", true)
		if out := runChromiumScript(t, dir); !strings.Contains(out, "installing chromium") {
			t.Errorf("stderr %q", out)
		}
		b, _ := os.ReadFile(log)
		if !strings.Contains(string(b), "install -y -qq chromium") {
			t.Errorf("apt-get ran with %q", b)
		}
		if out := runChromiumScript(t, dir); out != "" {
			t.Errorf("the second run said %q", out)
		}
		if b2, _ := os.ReadFile(log); string(b2) != string(b) {
			t.Errorf("the second run called apt-get again: %q", b2)
		}
	})
	t.Run("another user is told what to run", func(t *testing.T) {
		dir, log := fakeBin(t, "1000", true)
		if out := runChromiumScript(t, dir); !strings.Contains(out, "sudo apt-get install -y chromium") {
			t.Errorf("stderr %q", out)
		}
		if _, err := os.Stat(log); err == nil {
			t.Error("apt-get ran for a user who is not root")
		}
	})
	t.Run("no apt-get", func(t *testing.T) {
		dir, _ := fakeBin(t, "0", false)
		if out := runChromiumScript(t, dir); !strings.Contains(out, "install Chromium and put it on PATH as chromium") {
			t.Errorf("stderr %q", out)
		}
	})
}
