package conform

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/schemas/validate"
)

// fakeConform is a scenario directory with the named scenarios (plain and
// air each) plus extra files, and options whose Run is fake: it records
// the runs, in order, and ends each with fail(name).
type fakeConform struct {
	opts       ConformOptions
	out, err   bytes.Buffer
	mu         sync.Mutex
	runs       []string
	agentsSeen [][]string
}

func newFakeConform(t *testing.T, names []string, extra map[string]string, fail func(name string) error) *fakeConform {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n+".yaml"), []byte(strings.ReplaceAll(scenarioYAML, "NAME", n)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for file, text := range extra {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fc := &fakeConform{}
	fc.opts = ConformOptions{Agent: "agent", IO: factory.IOStreams{Out: &fc.out, ErrOut: &fc.err},
		Getenv: func(string) string { return "" }, Exe: func() (string, error) { return "/bin/airwire", nil }, Now: time.Now,
		Getwd: func() (string, error) { return "/start", nil }, LookPath: func(p string) (string, error) { return p, nil },
		Scenarios: dir, Goldens: filepath.Join(dir, "goldens"), Jobs: 1, Timeout: time.Minute, NoValidate: true}
	fc.opts.Run = func(ctx context.Context, co conform.Options, _ *golden.Golden, _ bool) (*conform.Outcome, error) {
		name := conform.GoldenName(co.Scenario, co.Profile)
		fc.mu.Lock()
		fc.runs = append(fc.runs, name)
		fc.agentsSeen = append(fc.agentsSeen, co.Agent)
		fc.mu.Unlock()
		return &conform.Outcome{}, fail(name)
	}
	return fc
}

func neverInitialized(name string) error {
	return &conform.RunError{Scenario: name, Err: errors.New("waited 30s for the response to initialize (id 0) in vain"),
		BeforeInitialize: true, Exit: "exit status 1", NotJSON: []string{`"Usage: agent [options]"`}, Stderr: "agent: unknown option --acp"}
}

// An adapter that never answers initialize: conform stops after the first
// runs and says so once, with the exit status, the non-JSON stdout and the
// stderr tail (issue 11, item 15).
func TestRunConformStopsWhenTheAgentNeverInitializes(t *testing.T) {
	fc := newFakeConform(t, []string{"alpha", "beta", "gamma", "delta"}, nil, neverInitialized)
	err := runConform(context.Background(), &fc.opts)
	if !errors.Is(err, cmdutil.ErrMismatch) || !strings.Contains(err.Error(), "never answered initialize") {
		t.Fatalf("err = %v", err)
	}
	if len(fc.runs) != BrokenAfter {
		t.Errorf("%d runs started, want %d: %v", len(fc.runs), BrokenAfter, fc.runs)
	}
	stderr := fc.err.String()
	for _, s := range []string{"never answered initialize", "agent: unknown option --acp", "Usage: agent [options]", "exit status 1"} {
		if n := strings.Count(stderr, s); n != 1 {
			t.Errorf("stderr holds %q %d times, want once:\n%s", s, n, stderr)
		}
	}
	if !strings.Contains(err.Error(), "6 of 8 not run") {
		t.Errorf("err = %v", err)
	}
}

// Once a run got past initialize, later runs that fail before it are
// failures like any other: no stop, each explained.
func TestRunConformGoesOnWhenOneRunInitialized(t *testing.T) {
	fc := newFakeConform(t, []string{"alpha", "beta"}, nil, func(name string) error {
		if name == "alpha/air" { // the second run: the first one is held back until then
			return nil
		}
		return neverInitialized(name)
	})
	err := runConform(context.Background(), &fc.opts)
	if !errors.Is(err, cmdutil.ErrMismatch) || !strings.Contains(err.Error(), "3 of 4 runs failed") {
		t.Fatalf("err = %v", err)
	}
	if len(fc.runs) != 4 || strings.Count(fc.err.String(), "--- FAIL") != 3 {
		t.Errorf("runs %v, stderr:\n%s", fc.runs, fc.err.String())
	}
}

// Each failure is explained as soon as its run ends, not after the last
// run (issue 11, item 19).
func TestRunConformExplainsEachFailureAtOnce(t *testing.T) {
	fc := newFakeConform(t, []string{"alpha", "beta"}, nil, func(name string) error {
		if name == "alpha/plain" {
			return errors.New("agent died: segfault")
		}
		return nil
	})
	err := runConform(context.Background(), &fc.opts)
	if !errors.Is(err, cmdutil.ErrMismatch) {
		t.Fatalf("err = %v", err)
	}
	stderr := fc.err.String()
	explained, next := strings.Index(stderr, "agent died: segfault"), strings.Index(stderr, "[2/4]")
	if explained < 0 || next < 0 || explained > next {
		t.Errorf("the failure of run 1 is explained after run 2 started:\n%s", stderr)
	}
	if strings.Count(stderr, "\nagent died: segfault") != 1 { // and once as its cause, in one line

		t.Errorf("explained more than once:\n%s", stderr)
	}
}

// --fail-fast stops at the first failure (issue 11, item 19).
func TestRunConformFailFast(t *testing.T) {
	fc := newFakeConform(t, []string{"alpha", "beta"}, nil, func(name string) error {
		if name == "alpha/plain" {
			return errors.New("mismatch")
		}
		return nil
	})
	fc.opts.FailFast = true
	err := runConform(context.Background(), &fc.opts)
	if !errors.Is(err, cmdutil.ErrMismatch) || !strings.Contains(err.Error(), "--fail-fast") || !strings.Contains(err.Error(), "3 of 4 runs not run") {
		t.Fatalf("err = %v", err)
	}
	if len(fc.runs) != 1 {
		t.Errorf("runs after the failure: %v", fc.runs)
	}
}

// Runs the stop cancels are not failures.
func TestRunConformCancelledRunsAreNotFailures(t *testing.T) {
	fc := newFakeConform(t, []string{"alpha", "beta", "gamma"}, nil, nil)
	fc.opts.Jobs, fc.opts.FailFast = 2, true
	var once, closeOnce sync.Once
	first := make(chan struct{})
	fc.opts.Run = func(ctx context.Context, co conform.Options, _ *golden.Golden, _ bool) (*conform.Outcome, error) {
		isFirst := false
		once.Do(func() { isFirst = true })
		if isFirst {
			<-first // the second run is running by now
			return &conform.Outcome{}, errors.New("mismatch")
		}
		closeOnce.Do(func() { close(first) })
		<-ctx.Done()
		return &conform.Outcome{}, &conform.RunError{Err: ctx.Err()}
	}
	err := runConform(context.Background(), &fc.opts)
	if !errors.Is(err, cmdutil.ErrMismatch) || strings.Count(fc.err.String(), "FAIL") != 2 { // the status line and its explanation
		t.Fatalf("err = %v\n%s", err, fc.err.String())
	}
}

// A scenario file that does not load stops nothing: reported, the other
// runs go on; it fails the command only when --scenario selects it (issue
// 11, item 14).
func TestRunConformMalformedScenario(t *testing.T) {
	extra := map[string]string{"broken.yaml": "name: broken\nclient: [\n"}
	pass := func(string) error { return nil }
	t.Run("not selected", func(t *testing.T) {
		fc := newFakeConform(t, []string{"alpha"}, extra, pass)
		fc.opts.Scenario = "alpha"
		if err := runConform(context.Background(), &fc.opts); err != nil {
			t.Fatalf("err = %v\n%s", err, fc.err.String())
		}
		if len(fc.runs) != 2 || !strings.Contains(fc.err.String(), "broken.yaml") {
			t.Errorf("runs %v, stderr:\n%s", fc.runs, fc.err.String())
		}
	})
	t.Run("selected", func(t *testing.T) {
		fc := newFakeConform(t, []string{"alpha"}, extra, pass)
		err := runConform(context.Background(), &fc.opts)
		if !errors.Is(err, cmdutil.ErrMismatch) || !strings.Contains(err.Error(), "1 of 3 runs failed") {
			t.Fatalf("err = %v\n%s", err, fc.err.String())
		}
		if len(fc.runs) != 2 || !strings.Contains(fc.err.String(), "--- FAIL") {
			t.Errorf("runs %v, stderr:\n%s", fc.runs, fc.err.String())
		}
	})
}

// The README's --agent "node ./dist/index.js" reaches every run with its
// path made absolute; a command that cannot be found fails once, before any
// run (issue 11, items 14 and 15).
func TestRunConformAgentCommand(t *testing.T) {
	fc := newFakeConform(t, []string{"alpha"}, nil, func(string) error { return nil })
	fc.opts.Agent = "node ./dist/index.js --acp"
	if err := runConform(context.Background(), &fc.opts); err != nil {
		t.Fatal(err)
	}
	for _, a := range fc.agentsSeen {
		if strings.Join(a, " ") != "node /start/dist/index.js --acp" {
			t.Errorf("agent argv %q", a)
		}
	}
	fc = newFakeConform(t, []string{"alpha"}, nil, func(string) error { return nil })
	fc.opts.Agent = "no-such-adapter --acp"
	fc.opts.LookPath = func(p string) (string, error) {
		return "", errors.New("exec: \"" + p + "\": executable file not found in $PATH")
	}
	err := runConform(context.Background(), &fc.opts)
	var fe *cmdutil.FlagError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "no-such-adapter") || len(fc.runs) != 0 {
		t.Fatalf("err = %v, runs %v", err, fc.runs)
	}
}

// $NODE_V8_COVERAGE, alone of conform's environment, reaches every run,
// made absolute against the start directory (make reach, docs/reach.md);
// unset, the runs get no extra variable.
func TestRunConformPassesNodeCoverage(t *testing.T) {
	for _, tc := range []struct{ set, want string }{
		{"cov", "NODE_V8_COVERAGE=/start/cov"},
		{"/abs/cov", "NODE_V8_COVERAGE=/abs/cov"},
		{"", ""},
	} {
		fc := newFakeConform(t, []string{"alpha"}, nil, func(string) error { return nil })
		fc.opts.Getenv = func(k string) string {
			if k == EnvNodeCoverage {
				return tc.set
			}
			return "elsewhere"
		}
		var envs [][]string
		run := fc.opts.Run
		fc.opts.Run = func(ctx context.Context, co conform.Options, g *golden.Golden, keep bool) (*conform.Outcome, error) {
			fc.mu.Lock()
			envs = append(envs, co.Env)
			fc.mu.Unlock()
			return run(ctx, co, g, keep)
		}
		if err := runConform(context.Background(), &fc.opts); err != nil {
			t.Fatal(err)
		}
		if len(envs) != 2 {
			t.Fatalf("%d runs, want 2", len(envs))
		}
		for _, env := range envs {
			if got := strings.Join(env, " "); got != tc.want {
				t.Errorf("NODE_V8_COVERAGE=%q: run env %q, want %q", tc.set, got, tc.want)
			}
		}
	}
}

// --keep keeps the folders of failed runs only, and prints each kept
// path once, on its own line; a passing run's folder is removed.
func TestRunConformKeepsFailedRunsOnly(t *testing.T) {
	fc := newFakeConform(t, []string{"alpha", "beta"}, nil, nil)
	fc.opts.Keep = true
	root := t.TempDir()
	dirs := map[string]string{}
	fc.opts.Run = func(ctx context.Context, co conform.Options, _ *golden.Golden, keep bool) (*conform.Outcome, error) {
		name := conform.GoldenName(co.Scenario, co.Profile)
		dir := filepath.Join(root, strings.ReplaceAll(name, "/", "-"))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		fc.mu.Lock()
		dirs[name] = dir
		fc.mu.Unlock()
		if !keep {
			t.Errorf("%s: keep = false under --keep", name)
		}
		if name == "beta/air" {
			return &conform.Outcome{Dir: dir}, errors.New("mismatch")
		}
		return &conform.Outcome{Dir: dir}, nil
	}
	err := runConform(context.Background(), &fc.opts)
	if !errors.Is(err, cmdutil.ErrMismatch) {
		t.Fatalf("err = %v", err)
	}
	stderr := fc.err.String()
	for name, dir := range dirs {
		_, statErr := os.Stat(dir)
		printed := strings.Count(stderr, "kept "+dir+"\n")
		if name == "beta/air" {
			if statErr != nil || printed != 1 {
				t.Errorf("failed run %s: stat %v, path printed %d times:\n%s", name, statErr, printed, stderr)
			}
			continue
		}
		if statErr == nil || printed != 0 {
			t.Errorf("passing run %s: its folder is still there (%v) or printed %d times:\n%s", name, statErr, printed, stderr)
		}
	}
	if len(dirs) != 4 {
		t.Errorf("%d runs, want 4", len(dirs))
	}
}

// The summary and the progress lines read as English for one run too, and
// a failed check says so once (no ": check failed" after the reason).
func TestRunConformWordingForOneRun(t *testing.T) {
	fc := newFakeConform(t, []string{"alpha"}, nil, neverInitialized)
	fc.opts.Profile = "air"
	err := runConform(context.Background(), &fc.opts)
	if !errors.Is(err, cmdutil.ErrMismatch) {
		t.Fatalf("err = %v", err)
	}
	text := err.Error() + "\n" + fc.err.String()
	for _, bad := range []string{"1 runs", "1 scenarios", "failed so", "check failed", "1 validator findings"} {
		if strings.Contains(text, bad) {
			t.Errorf("the output says %q:\n%s", bad, text)
		}
	}
	if !strings.Contains(err.Error(), "1 run failed before it could") || !strings.Contains(fc.err.String(), "1 run (1 scenario)") {
		t.Errorf("err = %v\nstderr:\n%s", err, fc.err.String())
	}
	fc = newFakeConform(t, []string{"alpha"}, nil, func(string) error { return nil })
	fc.opts.Profile = "air"
	fc.opts.Run = func(ctx context.Context, co conform.Options, _ *golden.Golden, _ bool) (*conform.Outcome, error) {
		return &conform.Outcome{AgentFindings: make([]validate.Finding, 1)}, nil
	}
	if err := runConform(context.Background(), &fc.opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fc.err.String(), ", 1 validator finding)") || !strings.Contains(fc.out.String(), "the 1 run matches") {
		t.Errorf("stdout %q\nstderr:\n%s", fc.out.String(), fc.err.String())
	}
}
