package testroot

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// binary is the airwire Binary built for this test process.
var binary struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// Binary builds this checkout's airwire (./cmd/airwire, CGO_ENABLED=0, with
// BuildFlags) once per test process into a directory outside the checkout
// and returns its path. The test skips when there is no go tool; a failed
// build fails every test that asks. A TestMain that runs its tests through
// RunTests removes the binary at the end.
func Binary(t testing.TB) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to build cmd/airwire")
	}
	root := Root(t)
	binary.once.Do(func() { binary.dir, binary.path, binary.err = build(goTool, root) })
	if binary.err != nil {
		t.Fatal(binary.err)
	}
	return binary.path
}

// build builds ./cmd/airwire of the module at root into a new temporary
// directory.
func build(goTool, root string) (dir, bin string, err error) {
	dir, err = os.MkdirTemp("", "airwire-test-bin-")
	if err != nil {
		return "", "", err
	}
	bin = filepath.Join(dir, "airwire")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	args := append(append([]string{"build"}, BuildFlags()...), "-o", bin, "./cmd/airwire")
	cmd := exec.Command(goTool, args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return dir, "", fmt.Errorf("go build ./cmd/airwire: %v\n%s", err, out)
	}
	return dir, bin, nil
}

// RunTests runs m's tests, then removes the binary Binary built, and
// returns the exit code for os.Exit.
func RunTests(m *testing.M) int {
	code := m.Run()
	if binary.dir != "" {
		os.RemoveAll(binary.dir)
	}
	return code
}
