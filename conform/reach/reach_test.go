package reach

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/airwire/airwire/internal/deps"
)

// srcA is a crafted module. Its first line holds a character outside the
// BMP, so UTF-16 offsets (V8's) and byte offsets differ after it.
const srcA = `// é😀 offsets count UTF-16 code units
function f(x) {
  if (x) {
    return 1;
  }
  return 2;
}
function g(y) {
  if (y) {
    return null;
  }
  const h = () => 0;
  return h;
}
function never() {
  return 3;
}
`

const srcB = "export function b() {\n  return 1;\n}\n"

// at is the UTF-16 offset of the first occurrence of s in src.
func at(t *testing.T, src, s string) int {
	t.Helper()
	i := strings.Index(src, s)
	if i < 0 {
		t.Fatalf("%q not in the source", s)
	}
	return len(utf16.Encode([]rune(src[:i])))
}

// rng is a V8 range from the start of from to the end of to.
func rng(t *testing.T, src, from, to string, count int) v8Range {
	t.Helper()
	return v8Range{StartOffset: at(t, src, from), EndOffset: at(t, src, to) + len(utf16.Encode([]rune(to))), Count: count}
}

// crafted writes a dist/ with a.js, tool-calls/b.js, consts.js (no
// function) and an unloaded diff.js, and the coverage of three processes:
//   - p1 calls f twice with x truthy (the if block ran as often as f, so V8
//     dropped its range; `return 2` never ran), and g once with y falsy;
//   - p2 calls f once with x falsy (the if block did not run; `return 2`
//     ran as often as f, dropped), never calls g (so h is not reported),
//     and loads b.js and calls b, and consts.js;
//   - p3 is a Node process that loads no dist/ module.
func crafted(t *testing.T) (covDir, dist string) {
	t.Helper()
	root := t.TempDir()
	dist = filepath.Join(root, "node_modules", "@agentclientprotocol", "claude-agent-acp", "dist")
	for name, src := range map[string]string{"a.js": srcA, "tool-calls/b.js": srcB, "consts.js": "export const C = 1;\n", "diff.js": "export function d() {}\n"} {
		p := filepath.Join(dist, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	urlA, urlB := "file://"+filepath.ToSlash(filepath.Join(dist, "a.js")), "file://"+filepath.ToSlash(filepath.Join(dist, "tool-calls", "b.js"))
	top := func(src string) v8Function {
		return v8Function{Ranges: []v8Range{{0, len(utf16.Encode([]rune(src))), 1}}}
	}
	fBody := func(n int) v8Range { return rng(t, srcA, "function f", "return 2;\n}", n) }
	gBody := func(n int) v8Range { return rng(t, srcA, "function g", "return h;\n}", n) }
	p1 := v8File{Result: []v8Script{
		{URL: "node:internal/main", Functions: []v8Function{{FunctionName: "main", Ranges: []v8Range{{0, 10, 1}}}}},
		{URL: urlA, Functions: []v8Function{top(srcA),
			{FunctionName: "f", Ranges: []v8Range{fBody(2), rng(t, srcA, "return 2;", "return 2;", 0)}},
			{FunctionName: "g", Ranges: []v8Range{gBody(1), rng(t, srcA, "{\n    return null;", "return null;\n  }", 0)}},
			{FunctionName: "h", Ranges: []v8Range{rng(t, srcA, "() => 0", "() => 0", 0)}},
			{FunctionName: "never", Ranges: []v8Range{rng(t, srcA, "function never", "return 3;\n}", 0)}},
		}},
	}}
	p2 := v8File{Result: []v8Script{
		{URL: urlA, Functions: []v8Function{top(srcA),
			{FunctionName: "f", Ranges: []v8Range{fBody(1), rng(t, srcA, "{\n    return 1;", "return 1;\n  }", 0)}},
			{FunctionName: "g", Ranges: []v8Range{gBody(0)}},
			{FunctionName: "never", Ranges: []v8Range{rng(t, srcA, "function never", "return 3;\n}", 0)}},
		}},
		{URL: urlB, Functions: []v8Function{top(srcB), {FunctionName: "b", Ranges: []v8Range{rng(t, srcB, "function b", "}", 1)}}}},
		{URL: "file://" + filepath.ToSlash(filepath.Join(dist, "consts.js")), Functions: []v8Function{top("export const C = 1;\n")}},
	}}
	p3 := v8File{Result: []v8Script{{URL: "file:///elsewhere/cli.js", Functions: []v8Function{{Ranges: []v8Range{{0, 5, 1}}}}}}}
	covDir = filepath.Join(root, "cov")
	if err := os.Mkdir(covDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]v8File{"coverage-1-1-0.json": p1, "coverage-2-1-0.json": p2, "coverage-3-1-0.json": p3} {
		data, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(covDir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return covDir, dist
}

// The merge over processes: a function counts once, executed when any
// process ran it; a block V8 dropped in one process (it ran as often as
// its function) counts as executed there; a function hidden inside one
// that never ran in a process (h in p2) is still known from another; the
// module's top level is no function; lines are those of the source.
func TestBuildMergesProcesses(t *testing.T) {
	covDir, dist := crafted(t)
	cov, err := Read(covDir)
	if err != nil {
		t.Fatal(err)
	}
	if cov.Files != 3 || cov.Processes != 2 {
		t.Errorf("files %d, processes %d; want 3 and 2", cov.Files, cov.Processes)
	}
	rep, err := Build(cov, "")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Dist != dist {
		t.Errorf("dist %q, want %q", rep.Dist, dist)
	}
	want := []Module{
		{Name: "a.js", Loaded: true, Functions: Count{2, 4}, Blocks: Count{2, 3},
			Uncovered: []Function{{Name: "h", Line: 12, EndLine: 12}, {Name: "never", Line: 15, EndLine: 17}}},
		{Name: "tool-calls/b.js", Area: "tool reporters", Loaded: true, Functions: Count{1, 1}},
		{Name: "consts.js", Loaded: true},
		{Name: "diff.js", Area: "diff"},
	}
	if !reflect.DeepEqual(rep.Modules, want) {
		t.Errorf("modules:\n got %+v\nwant %+v", rep.Modules, want)
	}
	if c := rep.Contract; c.Functions != (Count{1, 1}) || !reflect.DeepEqual(c.NotLoaded, []string{"diff.js"}) {
		t.Errorf("contract group %+v", c)
	}
	if rep.Total.Functions != (Count{3, 5}) || rep.Total.Blocks != (Count{2, 3}) {
		t.Errorf("total %+v", rep.Total)
	}
}

// The text names every unexecuted function with its lines, marks the
// areas under Target, and says which modules no process loaded.
func TestWriteText(t *testing.T) {
	covDir, _ := crafted(t)
	cov, err := Read(covDir)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Build(cov, "")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, re := range []string{
		`\na\.js +- +2/4 +50\.0 % +2/3 +66\.7 %\n`,
		`\ndiff\.js +diff +not loaded`,
		`\n  12-12\th\n  15-17\tnever\n`,
		`\ndiff +0/0 +- +0/0 +- +1 \(1 not loaded: diff\.js\)\n`,
		`\ntool reporters +1/1 +100\.0 % +0/0`,
		`\nall of dist/ +3/5 +60\.0 % +2/3`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("the text does not match %q:\n%s", re, out)
		}
	}
}

// A directory without coverage, or whose coverage holds no dist/ script
// (NODE_V8_COVERAGE did not reach the adapter), is an error that says so.
func TestReadWithoutAdapterCoverage(t *testing.T) {
	if _, err := Read(t.TempDir()); err == nil || !strings.Contains(err.Error(), "NODE_V8_COVERAGE") {
		t.Errorf("empty dir: err = %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "coverage-1-1-0.json"), []byte(`{"result":[{"url":"node:fs","functions":[]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cov, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Build(cov, ""); err == nil || !strings.Contains(err.Error(), "NODE_V8_COVERAGE") {
		t.Errorf("no dist script: err = %v", err)
	}
}

// referenceDist is the installed reference's dist/ (make deps), or skips.
func referenceDist(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
	dist := filepath.Join(dir, ".deps", "acp", "node_modules", "@agentclientprotocol", "claude-agent-acp", "dist")
	if _, err := os.Stat(dist); err != nil {
		deps.Unavailable(t, "the reference adapter is not installed (make deps)")
	}
	return dist
}

// Every module Areas names exists in the installed reference, so the
// mapping does not go stale silently when the reference changes; and the
// modules the contract's areas are known by land in them.
func TestAreasMatchTheReference(t *testing.T) {
	dist := referenceDist(t)
	for _, a := range Areas {
		for _, m := range a.Modules {
			if _, err := os.Stat(filepath.Join(dist, filepath.FromSlash(m))); err != nil {
				t.Errorf("area %s: %s is not in the reference's dist/: %v", a.Name, m, err)
			}
		}
	}
	for module, area := range map[string]string{
		"tool-calls/renderer.js": "tool reporters", "tool-calls/reporters/compaction.js": "compaction",
		"permissions/options/shell.js": "permissions", "session-index/list-subscriptions.js": "session index",
		"session-failure-extension.js": "session failure", "native-subagents.js": "subagents",
		"acp-agent.js": "", "session-mode.js": "",
	} {
		if got := AreaOf(module); got != area {
			t.Errorf("AreaOf(%s) = %q, want %q", module, got, area)
		}
	}
}

// countAt picks the innermost range that contains a block.
func TestCountAt(t *testing.T) {
	run := []counted{{span{0, 100}, 1}, {span{10, 50}, 0}, {span{20, 30}, 4}, {span{60, 70}, 0}}
	for _, tc := range []struct {
		b    span
		want int
	}{{span{20, 30}, 4}, {span{22, 25}, 4}, {span{35, 40}, 0}, {span{55, 58}, 1}, {span{61, 62}, 0}, {span{200, 210}, 0}} {
		if got := countAt(run, tc.b); got != tc.want {
			t.Errorf("countAt(%v) = %d, want %d", tc.b, got, tc.want)
		}
	}
}

// Select keeps the modules its patterns name, sums them (unloaded ones
// included, as not loaded), and the text gives the sum in place of the
// areas; a malformed pattern or one that names no module is an error.
func TestSelect(t *testing.T) {
	covDir, _ := crafted(t)
	cov, err := Read(covDir)
	if err != nil {
		t.Fatal(err)
	}
	build := func() *Report {
		rep, err := Build(cov, "")
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	rep := build()
	if err := rep.Select([]string{"tool-calls/*", "a.js", "diff.js"}); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range rep.Modules {
		names = append(names, m.Name)
	}
	if want := []string{"a.js", "tool-calls/b.js", "diff.js"}; !reflect.DeepEqual(names, want) {
		t.Errorf("selected modules %q, want %q", names, want)
	}
	sel := rep.Selection
	if sel == nil || sel.Functions != (Count{3, 5}) || sel.Blocks != (Count{2, 3}) || !reflect.DeepEqual(sel.NotLoaded, []string{"diff.js"}) {
		t.Fatalf("selection %+v", sel)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !regexp.MustCompile(`\nselected modules \(tool-calls/\*, a\.js, diff\.js\) +3/5 +60\.0 % +2/3 +66\.7 % +3 \(1 not loaded: diff\.js\)\n`).MatchString(out) ||
		strings.Contains(out, "consts.js") || strings.Contains(out, "Contract areas") {
		t.Errorf("the text of a selection:\n%s", out)
	}
	for _, bad := range []string{"[", "v2/*"} {
		if err := build().Select([]string{bad}); err == nil {
			t.Errorf("pattern %q: no error", bad)
		}
	}
}
