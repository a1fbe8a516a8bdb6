package conform

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/conform/golden"
)

// TestRunConformSkipsUnixOnlyOnWindows: on Windows the runs of a scenario
// whose recording holds only on Unix (unix:) are not run; conform says
// which and why, and counts them in its summary. Elsewhere they run.
func TestRunConformSkipsUnixOnlyOnWindows(t *testing.T) {
	dir := t.TempDir()
	beta := strings.Replace(strings.ReplaceAll(scenarioYAML, "NAME", "beta"), "profiles:", "unix: \"the CLI's //absolute rule paths\"\nprofiles:", 1)
	for n, y := range map[string]string{"alpha": strings.ReplaceAll(scenarioYAML, "NAME", "alpha"), "beta": beta} {
		if err := os.WriteFile(filepath.Join(dir, n+".yaml"), []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer func(w bool) { cassette.OnWindows = w }(cassette.OnWindows)
	for _, windows := range []bool{true, false} {
		cassette.OnWindows = windows
		var out, errOut bytes.Buffer
		var mu sync.Mutex
		runs := map[string]bool{}
		o := ConformOptions{Agent: "a", IO: factory.IOStreams{Out: &out, ErrOut: &errOut}, Getenv: func(string) string { return "" },
			Exe: func() (string, error) { return "/bin/airwire", nil }, Now: time.Now, Getwd: func() (string, error) { return "/start", nil },
			LookPath: func(string) (string, error) { return "/usr/bin/x", nil }, Scenarios: dir, Goldens: filepath.Join(dir, "goldens"),
			Jobs: 2, Timeout: time.Minute, NoValidate: true,
			Run: func(_ context.Context, co conform.Options, _ *golden.Golden, _ bool) (*conform.Outcome, error) {
				mu.Lock()
				defer mu.Unlock()
				runs[conform.GoldenName(co.Scenario, co.Profile)] = true
				return &conform.Outcome{}, nil
			}}
		if err := runConform(context.Background(), &o); err != nil {
			t.Fatalf("windows %v: %v", windows, err)
		}
		if windows {
			if len(runs) != 2 || !runs["alpha/air"] || !runs["alpha/plain"] {
				t.Errorf("on Windows ran %v, want alpha's runs only", runs)
			}
			if !strings.Contains(errOut.String(), "not run on Windows: beta/air: the CLI's //absolute rule paths") ||
				!strings.Contains(out.String(), "all 2 runs match (") || !strings.Contains(out.String(), "; 2 runs of Unix-only scenarios not run on Windows)") {
				t.Errorf("on Windows:\nstdout %s\nstderr %s", out.String(), errOut.String())
			}
		} else if len(runs) != 4 || strings.Contains(errOut.String(), "not run on Windows") {
			t.Errorf("elsewhere ran %v; stderr %s", runs, errOut.String())
		}
	}
}
