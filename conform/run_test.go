package conform_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/internal/testroot"
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

// airwire builds ./cmd/airwire once per test binary.
func airwire(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "airwire-conform-test-")
		if err != nil {
			buildErr = err
			return
		}
		buildBin = filepath.Join(dir, "airwire")
		root, err := deps.ModuleRoot(".")
		if err != nil {
			buildErr = err
			return
		}
		cmd := exec.Command("go", append(append([]string{"build"}, testroot.BuildFlags()...), "-o", buildBin, "./cmd/airwire")...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = err
			t.Logf("%s", out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildBin
}

func reference(t *testing.T) []string {
	t.Helper()
	p, err := deps.Lookup(nil, ".")
	if err != nil || p.Node == "" || p.ReferenceAdapter == "" {
		t.Skip("the reference adapter is not installed: run make deps")
	}
	return []string{p.Node, p.ReferenceAdapter}
}

// TestRunTwiceIsIdentical runs each testdata scenario twice per profile and
// requires byte-identical canonical output that holds both lanes.
func TestRunTwiceIsIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns the reference adapter")
	}
	agent := reference(t)
	bin := airwire(t)
	scs, err := scenario.LoadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range scs {
		for _, p := range []scenario.Profile{scenario.ProfilePlain, scenario.ProfileAir} {
			t.Run(sc.Name+"/"+string(p), func(t *testing.T) {
				var outs [2][]byte
				for i := range outs {
					dir, err := os.MkdirTemp("", "aw-")
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { os.RemoveAll(dir) })
					res, err := conform.Run(context.Background(), conform.Options{Airwire: bin, Agent: agent, Scenario: sc, Profile: p, Dir: dir})
					if err != nil {
						t.Fatal(err)
					}
					if outs[i], err = conform.Canonical(res); err != nil {
						t.Fatal(err)
					}
				}
				if string(outs[0]) != string(outs[1]) {
					t.Errorf("two runs differ:\n--- first\n%s\n--- second\n%s", outs[0], outs[1])
				}
				t.Logf("\n%s", outs[0])
			})
		}
	}
}
