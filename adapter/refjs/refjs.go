// Package refjs runs a test's script against the reference adapter's own
// modules under Node, both installed by `make deps`, so that a test can
// compare a port with the reference's functions.
package refjs

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/internal/testroot"
)

// Dist is the reference adapter's dist directory. Without make deps the
// test skips, or fails under CI.
func Dist(t testing.TB) string {
	t.Helper()
	entry := require(t, func(p deps.Installed) (string, error) { return p.RequireReferenceAdapter() })
	return filepath.Dir(entry)
}

// Run runs script, an ES module, under Node with the path of the
// reference's dist/module as its one argument and input on its standard
// input, with env added to the test's environment, and returns what it
// printed.
func Run(t testing.TB, script, module string, input []byte, env ...string) []byte {
	t.Helper()
	node := require(t, func(p deps.Installed) (string, error) { return p.RequireNode() })
	cmd := exec.Command(node, "--input-type=module", "-e", script, filepath.Join(Dist(t), module))
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = bytes.NewReader(input)
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("node: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	return out
}

func require(t testing.TB, get func(deps.Installed) (string, error)) string {
	t.Helper()
	p, err := deps.Lookup(os.Getenv, testroot.Root(t))
	var path string
	if err == nil {
		path, err = get(p)
	}
	if err != nil {
		if !errors.Is(err, deps.ErrMissing) {
			t.Fatalf("the reference adapter and Node (make deps): %v", err)
		}
		deps.Unavailable(t, "no reference adapter or Node (make deps): %v", err)
	}
	return path
}
