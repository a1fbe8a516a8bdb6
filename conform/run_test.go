package conform_test

import (
	"context"
	"os"
	"testing"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/deps"
	"github.com/airwire/airwire/internal/testroot"
)

// TestMain removes the airwire binary the tests built (testroot.Binary).
func TestMain(m *testing.M) {
	os.Exit(testroot.RunTests(m))
}

func reference(t *testing.T) []string {
	t.Helper()
	p, err := deps.Lookup(nil, ".")
	if err != nil || p.Node == "" || p.ReferenceAdapter == "" {
		deps.Unavailable(t, "the reference adapter is not installed: run make deps")
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
	bin := testroot.Binary(t)
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
