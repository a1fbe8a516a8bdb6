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

// fakeBin is a PATH of stand-ins for .ci/apt-tool.sh: id prints uid, and
// with apt, apt-get logs its arguments and, on install of pkg, puts cmd
// there.
func fakeBin(t *testing.T, uid string, apt bool, cmd, pkg string) (dir, log string) {
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
		tool := filepath.Join(dir, cmd)
		write("apt-get", `echo "$@" >>`+log+`
case "$*" in *install*`+pkg+`) printf '#!/bin/sh\n' >`+tool+`; /bin/chmod +x `+tool+`;; esac
`)
	}
	return dir, log
}

// runAptTool runs .ci/apt-tool.sh cmd pkg with PATH holding only dir and
// returns its stderr.
func runAptTool(t *testing.T, dir, cmd, pkg string) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is needed to run .ci/apt-tool.sh")
	}
	c := exec.Command(bash, filepath.Join(testroot.Root(t), ".ci", "apt-tool.sh"), cmd, pkg, "a test")
	c.Env = []string{"PATH=" + dir}
	var stderr strings.Builder
	c.Stderr = &stderr
	if err := c.Run(); err != nil {
		t.Fatalf(".ci/apt-tool.sh: %v\n%s", err, stderr.String())
	}
	return stderr.String()
}

// make deps installs a missing Debian tool (chromium, xmllint from
// libxml2-utils) as root, once; as another user, or without apt-get, it
// says exactly what to run.
func TestAptToolScript(t *testing.T) {
	for _, tool := range []struct{ cmd, pkg string }{{"chromium", "chromium"}, {"xmllint", "libxml2-utils"}} {
		cmd, pkg := tool.cmd, tool.pkg
		t.Run(cmd+"/root installs once", func(t *testing.T) {
			dir, log := fakeBin(t, "0", true, cmd, pkg)
			if out := runAptTool(t, dir, cmd, pkg); !strings.Contains(out, "installing "+cmd) {
				t.Errorf("stderr %q", out)
			}
			b, _ := os.ReadFile(log)
			if !strings.Contains(string(b), "install -y -qq "+pkg) {
				t.Errorf("apt-get ran with %q", b)
			}
			if out := runAptTool(t, dir, cmd, pkg); out != "" {
				t.Errorf("the second run said %q", out)
			}
			if b2, _ := os.ReadFile(log); string(b2) != string(b) {
				t.Errorf("the second run called apt-get again: %q", b2)
			}
		})
		t.Run(cmd+"/another user is told what to run", func(t *testing.T) {
			dir, log := fakeBin(t, "1000", true, cmd, pkg)
			if out := runAptTool(t, dir, cmd, pkg); !strings.Contains(out, "sudo apt-get install -y "+pkg) {
				t.Errorf("stderr %q", out)
			}
			if _, err := os.Stat(log); err == nil {
				t.Error("apt-get ran for a user who is not root")
			}
		})
		t.Run(cmd+"/no apt-get", func(t *testing.T) {
			dir, _ := fakeBin(t, "0", false, cmd, pkg)
			if out := runAptTool(t, dir, cmd, pkg); !strings.Contains(out, "install "+pkg+" and put "+cmd+" on PATH") {
				t.Errorf("stderr %q", out)
			}
		})
	}
}
