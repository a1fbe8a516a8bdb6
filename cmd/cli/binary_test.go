package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/airwire/airwire/internal/deps"
)

var (
	buildOnce sync.Once
	buildBin  string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildBin != "" {
		os.RemoveAll(filepath.Dir(buildBin))
	}
	os.Exit(code)
}

// airwireBinary builds ./cmd/airwire once per test binary.
func airwireBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		wd, err := os.Getwd()
		if err != nil {
			buildErr = err
			return
		}
		root, err := deps.ModuleRoot(wd)
		if err != nil {
			buildErr = err
			return
		}
		dir, err := os.MkdirTemp("", "airwire-cli-test-")
		if err != nil {
			buildErr = err
			return
		}
		buildBin = filepath.Join(dir, "airwire")
		cmd := exec.Command("go", "build", "-o", buildBin, "./cmd/airwire")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("go build: %v", buildErr)
	}
	return buildBin
}
