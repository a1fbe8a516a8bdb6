package cli

import (
	"github.com/airwire/airwire/internal/testroot"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/schemas/acp"
)

// outside runs the built binary in a fresh directory outside the checkout,
// with an empty HOME and user cache, the given PATH and extra environment.
type outside struct {
	bin, dir, path string
	env            []string
}

func newOutside(t *testing.T, path string, env ...string) *outside {
	t.Helper()
	home := t.TempDir()
	return &outside{bin: testroot.Binary(t), dir: t.TempDir(), path: path,
		env: append([]string{"HOME=" + home, "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "PATH=" + path}, env...)}
}

func (o *outside) run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(o.bin, args...)
	cmd.Dir = o.dir
	cmd.Env = o.env
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

// devTree returns what `make deps` installed; the test is skipped without it.
func devTree(t *testing.T) deps.Installed {
	t.Helper()
	p, err := deps.Paths()
	if err != nil || p.ACPSchemaDir == "" {
		t.Skipf("make deps has not run: %v", err)
	}
	return p
}

// fakeNPM is a directory holding an `npm` that, like `npm pack`, writes the
// pinned tarball (the one make deps fetched) into its working directory.
func fakeNPM(t *testing.T, p deps.Installed) string {
	t.Helper()
	tgz := filepath.Join(p.ACPSchemaDir, "..", "..", acp.Pinned().Tarball)
	if _, err := os.Stat(tgz); err != nil {
		t.Skipf("no pinned tarball: %v", err)
	}
	dir := t.TempDir()
	script := "#!/bin/sh\n[ \"$1\" = pack ] || exit 3\nexec cp '" + tgz + "' .\n"
	if err := os.WriteFile(filepath.Join(dir, "npm"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestValidateOutsideTheCheckout (issue 11 item 13): `airwire validate`
// run anywhere finds the pinned ACP schema in the user cache, fetching it
// there with npm pack the first time and saying so; without npm it says
// what to do.
func TestValidateOutsideTheCheckout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	p := devTree(t)
	o := newOutside(t, fakeNPM(t, p)+":/usr/bin:/bin")
	copyFile(t, filepath.Join("..", "validate", "testdata", "clean.jsonl"), filepath.Join(o.dir, "clean.jsonl"))

	code, out, errOut := o.run(t, "validate", "clean.jsonl")
	if code != 0 || !strings.Contains(out, "0 errors") || !strings.Contains(errOut, "fetching it with npm pack") || !strings.Contains(errOut, "ACP schema ready in ") {
		t.Fatalf("first run: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	code, out, errOut = o.run(t, "validate", "clean.jsonl")
	if code != 0 || !strings.Contains(out, "0 errors") || errOut != "" {
		t.Fatalf("second run (from the cache): exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}

	bare := newOutside(t, t.TempDir())
	copyFile(t, filepath.Join("..", "validate", "testdata", "clean.jsonl"), filepath.Join(bare.dir, "clean.jsonl"))
	code, _, errOut = bare.run(t, "validate", "clean.jsonl")
	if code != 1 || !strings.Contains(errOut, "npm is not on PATH") || !strings.Contains(errOut, "--acp-schema DIR") || strings.Contains(errOut, "Usage:") {
		t.Fatalf("without npm: exit %d\nstderr: %s", code, errOut)
	}
	code, out, _ = bare.run(t, "validate", "--acp-schema", p.ACPSchemaDir, "clean.jsonl")
	if code != 0 || !strings.Contains(out, "0 errors") {
		t.Fatalf("--acp-schema: exit %d\n%s", code, out)
	}
}

// TestConformOutsideTheCheckout (issue 11 items 13 and 18): `airwire
// conform` run anywhere uses the scenarios and goldens built into it, and
// never runs without validation unless --no-validate says so.
func TestConformOutsideTheCheckout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs the reference adapter")
	}
	p := devTree(t)
	if p.Node == "" || p.ReferenceAdapter == "" {
		t.Skip("no reference adapter (make deps)")
	}
	agent := p.Node + " " + p.ReferenceAdapter
	sel := []string{"conform", "--agent", agent, "--scenario", "session-list-plain-client", "--profile", "plain", "-j", "1"}

	// No schema anywhere and no npm: stop before any run, name --no-validate.
	bare := newOutside(t, t.TempDir())
	code, _, errOut := bare.run(t, sel...)
	if code != 1 || !strings.Contains(errOut, "cannot validate") || !strings.Contains(errOut, "--no-validate") || strings.Contains(errOut, "[1/1]") {
		t.Fatalf("without a schema: exit %d\nstderr: %s", code, errOut)
	}
	// --no-validate runs, and says validation is off.
	code, out, errOut := bare.run(t, append(sel, "--no-validate")...)
	if code != 0 || !strings.Contains(out, "the 1 run matches") || !strings.Contains(errOut, "--no-validate: the runs' messages are not checked") {
		t.Fatalf("--no-validate: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	// With the schema: the built-in goldens match, validated.
	o := newOutside(t, t.TempDir(), acp.EnvSchemaDir+"="+p.ACPSchemaDir)
	code, out, errOut = o.run(t, sel...)
	if code != 0 || !strings.Contains(out, "the 1 run matches") || strings.Contains(errOut, "no-validate") {
		t.Fatalf("with the schema: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
}
