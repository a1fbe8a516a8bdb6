package conform_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/testroot"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string
		wantErr bool
	}{
		{name: "words", in: "node  /x/index.js --flag", want: []string{"node", "/x/index.js", "--flag"}},
		{name: "double quotes", in: `node "/a b/index.js"`, want: []string{"node", "/a b/index.js"}},
		{name: "single quotes keep backslash", in: `a 'b\c'`, want: []string{"a", `b\c`}},
		{name: "escape", in: `a b\ c`, want: []string{"a", "b c"}},
		{name: "empty quoted arg", in: `a ""`, want: []string{"a", ""}},
		{name: "unterminated", in: `a "b`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := conform.SplitCommand(tt.in)
			if (err != nil) != tt.wantErr || (!tt.wantErr && !reflect.DeepEqual(got, tt.want)) {
				t.Errorf("SplitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

// TestResolveAgent: the README's `--agent "node ./dist/index.js"` works
// although each run starts the adapter in its own workspace (issue 11,
// item 14).
func TestResolveAgent(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dist", "index.js"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	in := func(p string) string { return filepath.Join(dir, p) }
	tests := []struct {
		name string
		argv []string
		want []string
	}{
		{name: "README example", argv: []string{"node", "./dist/index.js"}, want: []string{"node", in("dist/index.js")}},
		{name: "existing file without ./", argv: []string{"node", "dist/index.js", "--x"}, want: []string{"node", in("dist/index.js"), "--x"}},
		{name: "relative executable", argv: []string{"bin/airwire", "agent"}, want: []string{in("bin/airwire"), "agent"}},
		{name: "parent directory", argv: []string{"../agent.sh"}, want: []string{filepath.Join(filepath.Dir(dir), "agent.sh")}},
		{name: "bare name, flags, absolute and non-file values stay", argv: []string{"npx", "--yes", "@scope/pkg", "/abs/x", "--dir=./x"},
			want: []string{"npx", "--yes", "@scope/pkg", "/abs/x", "--dir=./x"}},
		{name: "a run's value stays for the run", argv: []string{"{cwd}/bin/agent", "./{scenario}.json"},
			want: []string{"{cwd}/bin/agent", "./{scenario}.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := conform.ResolveAgent(tt.argv, dir); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ResolveAgent(%q) = %q, want %q", tt.argv, got, tt.want)
			}
		})
	}
}

func TestExpandAgent(t *testing.T) {
	argv := []string{"airwire", "play", "--scenario", "{scenario}", "--profile", "{profile}", "--dir={cwd}/sub", "{other}", "{scenario}-{profile}", "{root}"}
	want := []string{"airwire", "play", "--scenario", "write-new", "--profile", "zed", "--dir=/tmp/aw-1/work/sub", "{other}", "write-new-zed", "/tmp/aw-1"}
	got := conform.ExpandAgent(argv, "write-new", scenario.ProfileZed, conform.Paths{Root: "/tmp/aw-1", Cwd: "/tmp/aw-1/work"})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ExpandAgent = %q, want %q", got, want)
	}
	if argv[3] != "{scenario}" {
		t.Errorf("ExpandAgent changed its argument: %q", argv)
	}
}

// TestRunExpandsAgent: a run starts the adapter with its own scenario,
// profile and workspace in place of the placeholders, and the normalizer
// knows the replaced argv (<agent-argv-N>).
func TestRunExpandsAgent(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stub adapter is a shell script")
	}
	sc, err := scenario.Load(filepath.Join("..", "scenarios", laneScenario+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	record := filepath.Join(t.TempDir(), "argv")
	agent := append(laneAgent(t, record, "shim"), "--log={cwd}/{scenario}-{profile}.log")
	res, err := conform.Run(context.Background(), conform.Options{Airwire: testroot.Binary(t), Agent: agent, Scenario: sc,
		Profile: scenario.ProfilePlain, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	cwd := res.Paths.Cwd
	log := "--log=" + cwd + "/" + laneScenario + "-plain.log"
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Join([]string{"--scenario", laneScenario, "--profile", "plain", log}, "\n") + "\n"; string(b) != want {
		t.Errorf("the adapter got %q, want %q", b, want)
	}
	if n := len(res.Paths.Agent); n != len(agent) || res.Paths.Agent[4] != cwd || res.Paths.Agent[n-1] != log {
		t.Errorf("Paths.Agent = %q", res.Paths.Agent)
	}
	line, err := conform.NewNormalizer(res.Paths).Line([]byte(`{"log":"` + log + `"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(`{"log":"<agent-argv-%d>"}`, len(agent)-1); string(line) != want {
		t.Errorf("normalized %s, want %s", line, want)
	}
}
