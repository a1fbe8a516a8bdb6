package conform

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/conform/suitedata"
	"github.com/airwire/airwire/internal/deps"
)

func TestNewCmdConform(t *testing.T) {
	tests := []struct {
		name    string
		argv    string
		want    ConformOptions
		wantErr string
	}{
		{name: "defaults", argv: "", want: ConformOptions{Jobs: 2, Timeout: 2 * time.Minute}},
		{name: "schema flags", argv: "--acp-schema s/v1 --no-validate", want: ConformOptions{ACPSchema: "s/v1", NoValidate: true, Jobs: 2, Timeout: 2 * time.Minute}},
		{name: "all flags", argv: `--agent "node ./dist/index.js" --scenario 'bash-*' --profile air --update -j 3 --keep --goldens g --scenarios s`,
			want: ConformOptions{Agent: "node ./dist/index.js", Scenario: "bash-*", Profile: "air", Update: true, Jobs: 3, Keep: true, Goldens: "g", Scenarios: "s", Timeout: 2 * time.Minute}},
		{name: "bad profile", argv: "--profile vim", wantErr: `--profile "vim"`},
		{name: "variant profile", argv: "--profile air-minimal", want: ConformOptions{Profile: "air-minimal", Jobs: 2, Timeout: 2 * time.Minute}},
		{name: "bad glob", argv: "--scenario [", wantErr: "--scenario"},
		{name: "no jobs", argv: "-j 0", wantErr: "--jobs"},
		{name: "no args", argv: "extra", wantErr: "unknown command"},
		{name: "fail fast", argv: "--fail-fast", want: ConformOptions{Jobs: 2, Timeout: 2 * time.Minute, FailFast: true}},
		{name: "reports", argv: "--json r.json --junit j.xml --html out --expected-failures known.yaml --shard 2/4 --durations last.json",
			want: ConformOptions{Jobs: 2, Timeout: 2 * time.Minute, JSON: "r.json", JUnit: "j.xml", HTML: "out", ExpectedFailures: "known.yaml", Shard: "2/4", Durations: "last.json"}},
		{name: "bad shard", argv: "--shard 5/4", wantErr: "--shard"},
		{name: "zero run timeout", argv: "--run-timeout 0", wantErr: "--run-timeout must be positive"},
		{name: "negative run timeout", argv: "--run-timeout -3s", wantErr: "--run-timeout must be positive"},
		{name: "editor lane", argv: `--agent "airwire play --scenario {scenario} --profile {profile}" --editor-lane`,
			want: ConformOptions{Agent: "airwire play --scenario {scenario} --profile {profile}", EditorLane: true, Jobs: 2, Timeout: 2 * time.Minute}},
		{name: "editor lane and update", argv: "--editor-lane --update", wantErr: "--editor-lane and --update exclude each other"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := factory.New("test", factory.WithIO(nil, &bytes.Buffer{}, &bytes.Buffer{}))
			var got *ConformOptions
			cmd := NewCmdConform(f, func(_ context.Context, o *ConformOptions) error { got = o; return nil })
			argv, err := conform.SplitCommand(tt.argv)
			if err != nil {
				t.Fatal(err)
			}
			cmd.SetArgs(append([]string{}, argv...)) // never nil: cobra would read os.Args
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			err = cmd.Execute()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			g := *got
			g.IO, g.Getenv, g.Exe, g.Now, g.Run, g.Getwd, g.LookPath = factory.IOStreams{}, nil, nil, nil, nil, nil, nil
			g.ACPSchemaDir, g.Suite, g.Version = nil, nil, ""
			if !reflect.DeepEqual(g, tt.want) {
				t.Errorf("options = %+v, want %+v", g, tt.want)
			}
		})
	}
}

const scenarioYAML = `name: NAME
description: A scenario for the command test.
covers: [Tool call contract]
scripted: "a command test: its runner is faked, no CLI starts"
profiles: [plain, air]
client:
  steps:
    - prompt: {text: hi}
`

func TestRunConform(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"alpha", "beta"} {
		if err := os.WriteFile(filepath.Join(dir, n+".yaml"), []byte(strings.ReplaceAll(scenarioYAML, "NAME", n)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mismatch := &golden.MismatchError{File: "goldens/beta/air.golden", Line: 3, Path: "$.result.stopReason", Want: `"end_turn"`, Got: `"cancelled"`}
	tests := []struct {
		name      string
		opts      ConformOptions
		fail      map[string]error // golden name → error of that run
		masked    map[string][]conform.AppliedDeviation
		left      map[string][]conform.LeftOut
		wantRuns  []string
		wantErr   error
		wantOut   string
		wantInErr []string
	}{
		{name: "all match", opts: ConformOptions{Agent: "fake-agent --x"}, wantRuns: []string{"alpha/air", "alpha/plain", "beta/air", "beta/plain"}, wantOut: "all 4 runs match"},
		{name: "glob and profile", opts: ConformOptions{Agent: "a", Scenario: "b*", Profile: "air"}, wantRuns: []string{"beta/air"}, wantOut: "the 1 run matches"},
		{name: "mismatch exits 1", opts: ConformOptions{Agent: "a"}, fail: map[string]error{"beta/air": mismatch},
			wantRuns: []string{"alpha/air", "alpha/plain", "beta/air", "beta/plain"}, wantErr: cmdutil.ErrMismatch,
			wantInErr: []string{"FAIL beta/air", "--- FAIL beta/air", "JSON path $.result.stopReason"}},
		{name: "run error exits 1", opts: ConformOptions{Agent: "a", Profile: "plain"}, fail: map[string]error{"alpha/plain": errors.New("agent died")},
			wantRuns: []string{"alpha/plain", "beta/plain"}, wantErr: cmdutil.ErrMismatch, wantInErr: []string{"agent died"}},
		{name: "declared deviations are counted", opts: ConformOptions{Agent: "a", Profile: "air"},
			masked:   map[string][]conform.AppliedDeviation{"alpha/air": {{Entry: 7, Line: 2, Path: "$.result.agentInfo.name"}, {Entry: 8, Line: 2, Path: "$.x"}, {Entry: 8, Line: 2, Path: "$.y"}}},
			wantRuns: []string{"alpha/air", "beta/air"}, wantOut: "; 3 declared deviations applied)\n",
			wantInErr: []string{"ok   alpha/air (", "s, 3 declared deviations applied (DEVIATIONS.md 7, 8))"}},
		{name: "left-out golden lines are counted", opts: ConformOptions{Agent: "a", Profile: "air"},
			left:     map[string][]conform.LeftOut{"alpha/air": {{Entry: 27, Line: 32}, {Entry: 27, Line: 37}}},
			wantRuns: []string{"alpha/air", "beta/air"}, wantOut: "; 2 golden lines left out)\n",
			wantInErr: []string{"s, 2 golden lines left out (DEVIATIONS.md 27))"}},
		{name: "left-out lines of a failed run are listed", opts: ConformOptions{Agent: "a", Scenario: "beta", Profile: "air"}, fail: map[string]error{"beta/air": mismatch},
			left:     map[string][]conform.LeftOut{"beta/air": {{Entry: 27, Line: 32}}},
			wantRuns: []string{"beta/air"}, wantErr: cmdutil.ErrMismatch,
			wantInErr: []string{"1 golden line left out (DEVIATIONS.md 27)", "left out by declared deviation 27: golden line 32"}},
		{name: "masked values of a failed run are listed", opts: ConformOptions{Agent: "a", Scenario: "beta", Profile: "air"}, fail: map[string]error{"beta/air": mismatch},
			masked:   map[string][]conform.AppliedDeviation{"beta/air": {{Entry: 7, Line: 2, Path: "$.result.agentInfo.name"}}},
			wantRuns: []string{"beta/air"}, wantErr: cmdutil.ErrMismatch,
			wantInErr: []string{"FAIL beta/air", "1 declared deviation applied (DEVIATIONS.md 7)", "masked by declared deviation 7: line 2 $.result.agentInfo.name"}},
		{name: "nothing selected", opts: ConformOptions{Agent: "a", Scenario: "zeta"}, wantErr: &cmdutil.FlagError{}},
		{name: "editor lane only", opts: ConformOptions{Agent: "{cwd}/play --scenario {scenario}", Profile: "plain", EditorLane: true},
			wantRuns: []string{"alpha/plain", "beta/plain"}, wantOut: "all 2 runs match (editor lane only, ",
			wantInErr: []string{"against {cwd}/play --scenario {scenario}, comparing the editor lane only with"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			o := tt.opts
			o.IO = factory.IOStreams{Out: &out, ErrOut: &errOut}
			o.Getenv = func(string) string { return "" }
			o.Exe = func() (string, error) { return "/bin/airwire", nil }
			o.Now = time.Now
			o.Getwd = func() (string, error) { return "/start", nil }
			o.LookPath = func(string) (string, error) { return "/usr/bin/x", nil }
			o.Scenarios, o.Goldens, o.Jobs, o.Timeout = dir, filepath.Join(dir, "goldens"), 2, time.Minute
			o.NoValidate = true
			runs := map[string]bool{}
			var mu = make(chan struct{}, 1)
			o.Run = func(_ context.Context, co conform.Options, _ *golden.Golden, _ bool) (*conform.Outcome, error) {
				if co.Airwire != "/bin/airwire" || co.Agent[0] != strings.Fields(tt.opts.Agent)[0] || co.EditorLane != tt.opts.EditorLane {
					t.Errorf("run options: airwire %q agent %q editor lane %v", co.Airwire, co.Agent, co.EditorLane)
				}
				name := conform.GoldenName(co.Scenario, co.Profile)
				mu <- struct{}{}
				runs[name] = true
				<-mu
				return &conform.Outcome{Deviations: tt.masked[name], LeftOut: tt.left[name]}, tt.fail[name]
			}
			err := runConform(context.Background(), &o)
			switch want := tt.wantErr.(type) {
			case nil:
				if err != nil {
					t.Fatalf("err = %v", err)
				}
			case *cmdutil.FlagError:
				var fe *cmdutil.FlagError
				if !errors.As(err, &fe) {
					t.Fatalf("err = %v, want a FlagError", err)
				}
			default:
				if !errors.Is(err, want) {
					t.Fatalf("err = %v, want %v", err, want)
				}
			}
			if len(runs) != len(tt.wantRuns) {
				t.Errorf("runs = %v, want %v", runs, tt.wantRuns)
			}
			for _, r := range tt.wantRuns {
				if !runs[r] {
					t.Errorf("run %s missing (ran %v)", r, runs)
				}
			}
			if !strings.Contains(out.String(), tt.wantOut) {
				t.Errorf("stdout = %q, want %q", out.String(), tt.wantOut)
			}
			for _, s := range tt.wantInErr {
				if !strings.Contains(errOut.String(), s) {
					t.Errorf("stderr lacks %q:\n%s", s, errOut.String())
				}
			}
		})
	}
}

// TestRunConformInterrupted (issue 11 item 5): after Ctrl-C (the context
// ends) no new run starts, the runs the interruption cut short are not
// failures, and conform says how far it got.
func TestRunConformInterrupted(t *testing.T) {
	fc := newFakeConform(t, []string{"alpha", "beta", "gamma"}, nil, nil)
	fc.opts.Jobs = 2
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan string, 10)
	fc.opts.Run = func(rctx context.Context, co conform.Options, _ *golden.Golden, _ bool) (*conform.Outcome, error) {
		started <- conform.GoldenName(co.Scenario, co.Profile)
		<-rctx.Done()
		return &conform.Outcome{}, &conform.RunError{Err: rctx.Err()}
	}
	done := make(chan error, 1)
	go func() { done <- runConform(ctx, &fc.opts) }()
	<-started
	<-started
	cancel()
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("conform did not stop after the interruption")
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n := len(started); n != 0 {
		t.Errorf("%d runs started after the interruption", n)
	}
	if strings.Contains(fc.err.String(), "FAIL") {
		t.Errorf("cancelled runs reported as failures:\n%s", fc.err.String())
	}
	if !strings.Contains(fc.err.String(), "interrupted: 0 of 6 runs finished, 0 failed") {
		t.Errorf("no interruption summary:\n%s", fc.err.String())
	}
}

// TestRunConformData: without --scenarios and --goldens the runs use the
// data built into airwire; --update writes into ./goldens, never into the
// built-in copy; without a schema conform stops before any run (issue 11
// items 13 and 18).
func TestRunConformData(t *testing.T) {
	builtin := t.TempDir()
	if err := os.WriteFile(filepath.Join(builtin, "alpha.yaml"), []byte(strings.ReplaceAll(scenarioYAML, "NAME", "alpha")), 0o644); err != nil {
		t.Fatal(err)
	}
	checkout := t.TempDir()
	if err := os.Mkdir(filepath.Join(checkout, "goldens"), 0o755); err != nil {
		t.Fatal(err)
	}
	schemaErr := errors.New("no schema here")
	schema := schemaDir(t) // before a subtest leaves the checkout
	tests := []struct {
		name        string
		opts        ConformOptions
		cwd         string
		schema      error
		wantGoldens string
		wantErr     error
		wantInErr   string
	}{
		{name: "built in", opts: ConformOptions{}, wantGoldens: filepath.Join(builtin, "goldens")},
		{name: "update writes ./goldens", opts: ConformOptions{Update: true}, cwd: checkout, wantGoldens: "goldens"},
		{name: "update outside a checkout", opts: ConformOptions{Update: true}, cwd: t.TempDir(), wantErr: &cmdutil.FlagError{}, wantInErr: "pass --goldens DIR"},
		{name: "flags win", opts: ConformOptions{Goldens: "g", Update: true}, cwd: t.TempDir(), wantGoldens: "g"},
		{name: "no schema stops before any run", opts: ConformOptions{}, schema: schemaErr, wantErr: conform.ErrNoValidation, wantInErr: "pass --no-validate"},
		{name: "no-validate runs without a schema", opts: ConformOptions{NoValidate: true}, schema: schemaErr, wantGoldens: filepath.Join(builtin, "goldens")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.cwd != "" {
				t.Chdir(tt.cwd)
			}
			var out, errOut bytes.Buffer
			o := tt.opts
			o.Agent, o.Profile, o.Jobs, o.Timeout, o.Now = "a", "plain", 1, time.Minute, time.Now
			o.IO = factory.IOStreams{Out: &out, ErrOut: &errOut}
			o.Getenv = func(string) string { return "" }
			o.Exe = func() (string, error) { return "/bin/airwire", nil }
			o.Getwd = func() (string, error) { return "/start", nil }
			o.LookPath = func(p string) (string, error) { return p, nil }
			o.Suite = func() (suitedata.Dirs, error) {
				return suitedata.Dirs{Scenarios: builtin, Goldens: filepath.Join(builtin, "goldens")}, nil
			}
			o.ACPSchemaDir = func(context.Context, string) (string, error) { return "", tt.schema }
			if tt.schema == nil {
				o.ACPSchemaDir = func(context.Context, string) (string, error) { return schema, nil }
			}
			var ran []conform.Options
			o.Run = func(_ context.Context, co conform.Options, g *golden.Golden, _ bool) (*conform.Outcome, error) {
				ran = append(ran, co)
				if g.Dir() != tt.wantGoldens {
					t.Errorf("goldens %s, want %s", g.Dir(), tt.wantGoldens)
				}
				return &conform.Outcome{}, nil
			}
			err := runConform(context.Background(), &o)
			if tt.wantErr != nil {
				var fe *cmdutil.FlagError
				if _, flag := tt.wantErr.(*cmdutil.FlagError); flag && !errors.As(err, &fe) || !flag && !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.wantInErr) {
					t.Fatalf("err = %v, want %v with %q", err, tt.wantErr, tt.wantInErr)
				}
				if len(ran) > 0 {
					t.Fatalf("%d runs started", len(ran))
				}
				return
			}
			if err != nil || len(ran) != 1 {
				t.Fatalf("err = %v, %d runs\n%s", err, len(ran), errOut.String())
			}
			if ran[0].NoValidate != o.NoValidate || !o.NoValidate && ran[0].ACPSchemaDir == "" {
				t.Errorf("run options: NoValidate %v, ACPSchemaDir %q", ran[0].NoValidate, ran[0].ACPSchemaDir)
			}
		})
	}
}

// schemaDir is the ACP schema `make deps` installed; the test is skipped
// without it.
func schemaDir(t *testing.T) string {
	t.Helper()
	p, err := deps.Paths()
	if err != nil || p.ACPSchemaDir == "" {
		deps.Unavailable(t, "ACP schema not installed (make deps): %v", err)
	}
	return p.ACPSchemaDir
}

// TestAgentLineDefault: without --agent or $AIRWIRE_CONFORM_AGENT the suite
// runs this airwire's own agent; --reference, and --update, the reference
// adapter from make deps; --reference with --agent is a usage error.
func TestAgentLineDefault(t *testing.T) {
	dir := t.TempDir()
	node, ref := filepath.Join(dir, "node"), filepath.Join(dir, "index.js")
	for _, f := range []string{node, ref} {
		if err := os.WriteFile(f, nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"AIRWIRE_NODE": node, "AIRWIRE_REFERENCE_ADAPTER": ref}
	base := ConformOptions{Getenv: func(k string) string { return env[k] }, Exe: func() (string, error) { return "/opt/airwire", nil }}
	tests := []struct {
		name string
		mod  func(*ConformOptions)
		want string
		bad  bool
	}{
		{"default is our agent", func(*ConformOptions) {}, "/opt/airwire agent", false},
		{"--reference", func(o *ConformOptions) { o.Reference = true }, node + " " + ref, false},
		{"--update records from the reference", func(o *ConformOptions) { o.Update = true }, node + " " + ref, false},
		{"--agent wins", func(o *ConformOptions) { o.Agent = "x --y" }, "x --y", false},
		{"--reference and --agent", func(o *ConformOptions) { o.Reference, o.Agent = true, "x" }, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := base
			tt.mod(&o)
			argv, err := agentLine(&o)
			if tt.bad {
				var fe *cmdutil.FlagError
				if !errors.As(err, &fe) {
					t.Fatalf("err = %v, want a usage error", err)
				}
				return
			}
			if err != nil || strings.Join(argv, " ") != tt.want {
				t.Fatalf("agentLine = %q, %v; want %q", argv, err, tt.want)
			}
		})
	}
}
