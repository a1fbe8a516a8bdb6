package conform

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/golden"
)

const (
	goldensDir  = "../goldens"
	refName     = `"name":"@agentclientprotocol/claude-agent-acp"`
	ourName     = `"name":"airwire"`
	refLauncher = `"terminal-auth":{"args":["<agent-argv-1>","--cli"`
	ourLauncher = `"terminal-auth":{"args":["agent","--cli"`
	refCommand  = `"command":"<agent-argv-0>"`
	ourCommand  = `"command":"<airwire>"`
	// refCustom is in the reference's AIR agent list, not in ours (entry 10).
	refCustom = `"customInstructions",`
	// The reference's session capabilities for a plain or Zed client have
	// no subagents; ours do (entry 21).
	refSessionCaps = `"resume":{},"systemPrompt"`
	ourSessionCaps = `"resume":{},"subagents":{},"systemPrompt"`
	zedInitLines   = 2 // the initialize request and its response
	// a skill built into Claude Code: the reference marks it, ours does not (entry 14)
	refBuiltinSkill = `{"_meta":{"jetbrains":{"air":{"kind":"skill","version":1}}},"description"`
	ourBuiltinSkill = `{"description"`
)

// zedGolden is a real golden whose initialize response carries both the
// agent's name and the Zed terminal-auth launcher.
func zedGolden(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(goldensDir, "text-and-thinking", "zed.golden"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{refName, refLauncher, refCommand} {
		if !bytes.Contains(b, []byte(s)) {
			t.Fatalf("the golden no longer holds %s", s)
		}
	}
	return b
}

// ours turns the reference's transcript into what our adapter sends: its
// own name, launcher, AIR agent list, session capabilities and commands,
// then the extra edits.
func ours(g []byte, edits ...string) []byte {
	s := strings.NewReplacer(refName, ourName, refLauncher, ourLauncher, refCommand, ourCommand, refCustom, "",
		refSessionCaps, ourSessionCaps, refBuiltinSkill, ourBuiltinSkill).Replace(string(g))
	if len(edits) > 0 {
		s = strings.NewReplacer(edits...).Replace(s)
	}
	return []byte(s)
}

func committedDeviations(t *testing.T) []Deviation {
	t.Helper()
	devs, err := LoadDeviations(goldensDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(devs) < 2 {
		t.Fatalf("%s declares %d deviations, want the agentInfo name and the terminal-auth launcher", DeviationsFile, len(devs))
	}
	return devs
}

// TestApplyDeviationsCommitted: the committed declarations make our
// adapter's initialize response compare equal to a real Zed golden, six
// values masked (one name, two commands, two launcher words, the subagents
// session capability), and the
// reference's own run is left alone.
func TestApplyDeviationsCommitted(t *testing.T) {
	g := zedGolden(t)
	devs := committedDeviations(t)
	got, applied := ApplyDeviations(devs, g, ours(g))
	if !bytes.Equal(got, g) {
		t.Fatalf("masked transcript still differs: %v", golden.Compare("zed.golden", g, got))
	}
	var paths []string
	for _, a := range applied {
		if a.Line != zedInitLines {
			t.Errorf("masked line %d, want the initialize response (line %d)", a.Line, zedInitLines)
		}
		paths = append(paths, fmt.Sprintf("%d %s", a.Entry, a.Path))
	}
	want := []string{
		"7 $.result.agentInfo.name",
		`8 $.result.authMethods[0]._meta["terminal-auth"].command`,
		`8 $.result.authMethods[1]._meta["terminal-auth"].command`,
		`8 $.result.authMethods[0]._meta["terminal-auth"].args[0]`,
		`8 $.result.authMethods[1]._meta["terminal-auth"].args[0]`,
		"21 $.result.agentCapabilities.sessionCapabilities.subagents",
	}
	if !slices.Equal(paths, want) {
		t.Errorf("applied %q, want %q", paths, want)
	}
	if got, applied := ApplyDeviations(devs, g, g); !bytes.Equal(got, g) || len(applied) > 0 {
		t.Errorf("the reference's own transcript was changed: %d applied", len(applied))
	}
}

// TestApplyDeviationsScope: a declared path is ignored only for the
// declared agent, in the declared messages, at the declared path; every
// other difference still fails with its JSON path.
func TestApplyDeviationsScope(t *testing.T) {
	// The first difference of our unmasked initialize response: the keys
	// compare in order, and agentCapabilities comes before agentInfo.
	const subagentsPath = "$.result.agentCapabilities.sessionCapabilities.subagents"
	g := zedGolden(t)
	devs := committedDeviations(t)
	sessionNew := `{"id":1,"jsonrpc":"2.0","method":"session/new","params":{"cwd":"<cwd>"`
	tests := []struct {
		name     string
		devs     []Deviation
		actual   []byte
		wantPath string // the first difference left, "" = none
		applied  int
	}{
		{name: "undeclared difference on the same line",
			actual: ours(g, `"title":"Claude Agent"`, `"title":"Our Agent"`), wantPath: "$.result.agentInfo.title", applied: 6},
		{name: "launcher word after args[0]",
			actual:   ours(g, `"agent","--cli","auth","login","--console"`, `"agent","--cli","auth","login","--other"`),
			wantPath: `$.result.authMethods[1]._meta["terminal-auth"].args[4]`, applied: 6},
		{name: "undeclared difference on another line",
			actual: ours(g, sessionNew, strings.Replace(sessionNew, "<cwd>", "/x", 1)), wantPath: "$.params.cwd", applied: 6},
		{name: "another agent gets no declaration",
			actual: ours(g, ourName, `"name":"other-agent"`), wantPath: subagentsPath},
		{name: "a declaration naming the reference never applies to it",
			devs:   renamed(devs, "@agentclientprotocol/claude-agent-acp"),
			actual: []byte(strings.Replace(string(g), refCommand, ourCommand, -1)), wantPath: `$.result.authMethods[0]._meta["terminal-auth"].command`},
		{name: "method selects the request, not its response",
			devs:   reselected(devs, "initialize", ""),
			actual: ours(g), wantPath: subagentsPath},
		{name: "response of another method",
			devs:   reselected(devs, "", "session/new"),
			actual: ours(g), wantPath: subagentsPath},
		{name: "other direction",
			devs:   retagged(devs, TagEditorToAgent),
			actual: ours(g), wantPath: subagentsPath},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.devs == nil {
				tt.devs = devs
			}
			got, applied := ApplyDeviations(tt.devs, g, tt.actual)
			if len(applied) != tt.applied {
				t.Errorf("applied %d deviations, want %d: %+v", len(applied), tt.applied, applied)
			}
			if bytes.Equal(got, g) {
				t.Fatalf("the difference at %s was masked", tt.wantPath)
			}
			if e := golden.Compare("zed.golden", g, got); e.Path != tt.wantPath {
				t.Errorf("first difference at %q, want %q (%s)", e.Path, tt.wantPath, e.Error()[:min(300, len(e.Error()))])
			}
		})
	}
}

func renamed(devs []Deviation, agent string) []Deviation {
	out := slices.Clone(devs)
	for i := range out {
		out[i].Agent = agent
	}
	return out
}

func reselected(devs []Deviation, method, response string) []Deviation {
	out := slices.Clone(devs)
	for i := range out {
		out[i].Method, out[i].Response = method, response
	}
	return out
}

func retagged(devs []Deviation, tag string) []Deviation {
	out := slices.Clone(devs)
	for i := range out {
		out[i].Tag = tag
	}
	return out
}

// TestApplyDeviationsPresence: a declared path the actual lacks, or has
// where the golden has none, is masked too; a CLI-lane tag pattern
// selects every CLI process.
func TestApplyDeviationsPresence(t *testing.T) {
	golden := "client editor->agent {\"id\":0,\"method\":\"initialize\"}\n" +
		"client agent->editor {\"id\":0,\"result\":{\"agentInfo\":{\"name\":\"ref\",\"title\":\"T\"}}}\n" +
		"cli:1 spawn {\"argv\":[\"<cli>\",\"-p\"]}\n" +
		"cli:2 spawn {\"argv\":[\"<cli>\",\"-p\"]}\n"
	actual := strings.NewReplacer(`"ref","title":"T"`, `"ours"`, `"-p"]`, `"-q"]`).Replace(golden)
	devs, err := ParseDeviations([]byte(`[
		{"entry":1,"agent":"ours","tag":"client agent->editor","response":"initialize","paths":["$.result.agentInfo.title"],"reason":"r"},
		{"entry":1,"agent":"ours","tag":"cli:* spawn","paths":["$.argv[1]"],"reason":"r"}]`), map[int]string{1: "x"})
	if err != nil {
		t.Fatal(err)
	}
	got, applied := ApplyDeviations(devs, []byte(golden), []byte(actual))
	want := strings.Replace(golden, `"ref","title":"T"`, `"ours","title":"T"`, 1)
	if string(got) != want || len(applied) != 3 {
		t.Errorf("got %d applied:\n%s\nwant:\n%s", len(applied), got, want)
	}
	untitled := strings.Replace(golden, `,"title":"T"`, "", 1)
	got, applied = ApplyDeviations(devs, []byte(untitled), []byte(strings.Replace(actual, `"ours"`, `"ours","title":"U"`, 1)))
	if want := strings.Replace(untitled, `"ref"`, `"ours"`, 1); string(got) != want || len(applied) != 3 || applied[0].Path != "$.result.agentInfo.title" {
		t.Errorf("a key the golden lacks: %+v\n%s\nwant:\n%s", applied, got, want)
	}
}

// TestParseDeviations: malformed declarations are errors.
func TestParseDeviations(t *testing.T) {
	entries := map[int]string{7: "x"}
	ok := `"entry":7,"agent":"airwire","tag":"client agent->editor","response":"initialize","paths":["$.result.agentInfo.name"],"reason":"r"`
	tests := map[string]string{
		"unknown field":          `[{` + ok + `,"scenario":"a"}]`,
		"bad runs pattern":       `[{` + ok + `,"runs":["a["]}]`,
		"empty runs pattern":     `[{` + ok + `,"runs":[""]}]`,
		"no reason":              `[{` + strings.Replace(ok, `"reason":"r"`, `"reason":""`, 1) + `}]`,
		"no agent":               `[{` + strings.Replace(ok, `"airwire"`, `""`, 1) + `}]`,
		"no paths":               `[{` + strings.Replace(ok, `["$.result.agentInfo.name"]`, `[]`, 1) + `}]`,
		"entry not in the doc":   `[{` + strings.Replace(ok, `"entry":7`, `"entry":70`, 1) + `}]`,
		"method and response":    `[{` + ok + `,"method":"initialize"}]`,
		"response on a CLI tag":  `[{` + strings.Replace(ok, `"client agent->editor"`, `"cli:1 agent->cli"`, 1) + `}]`,
		"bad tag pattern":        `[{` + strings.Replace(ok, `"client agent->editor","response":"initialize"`, `"cli:[","method":"x"`, 1) + `}]`,
		"path without $":         `[{` + strings.Replace(ok, `"$.result`, `"result`, 1) + `}]`,
		"path with no step":      `[{` + strings.Replace(ok, `"$.result.agentInfo.name"`, `"$"`, 1) + `}]`,
		"path with a bad index":  `[{` + strings.Replace(ok, `agentInfo.name`, `a[x]`, 1) + `}]`,
		"path with a bad key":    `[{` + strings.Replace(ok, `agentInfo.name`, `a..b`, 1) + `}]`,
		"unclosed quoted key":    `[{` + strings.Replace(ok, `agentInfo.name`, `a[\"b\"`, 1) + `}]`,
		"data after the list":    `[{` + ok + `}] []`,
		"not a list":             `{` + ok + `}`,
		"entry as a title":       `[{` + strings.Replace(ok, `"entry":7`, `"entry":"7"`, 1) + `}]`,
		"unknown compare":        `[{` + ok + `,"compare":"pattern"}]`,
		"extra with paths":       `[{` + ok + `,"extra":true}]`,
		"extra with compare":     `[{` + strings.Replace(ok, `["$.result.agentInfo.name"]`, `[]`, 1) + `,"extra":true,"runs":["a/air"],"compare":"identity"}]`,
		"extra without runs":     `[{` + strings.Replace(ok, `["$.result.agentInfo.name"]`, `[]`, 1) + `,"extra":true}]`,
		"paths as a single path": `[{` + strings.Replace(ok, `["$.result.agentInfo.name"]`, `"$.result.agentInfo.name"`, 1) + `}]`,
		"equals without when":    `[{` + ok + `,"equals":"turn"}]`,
		"equals not JSON":        `[{` + ok + `,"when":"$.result","equals":"turn}]`,
		"with on a mask":         `[{` + ok + `,"with":["$.result.x"]}]`,
		"absent with paths":      `[{` + ok + `,"absent":true,"runs":["s/air"]}]`,
		"absent without runs":    `[{` + strings.Replace(ok, `"paths":["$.result.agentInfo.name"],`, ``, 1) + `,"absent":true}]`,
		"absent with compare":    `[{` + strings.Replace(ok, `"paths":["$.result.agentInfo.name"],`, ``, 1) + `,"absent":true,"runs":["s/air"],"compare":"identity"}]`,
		"absent with a bad with": `[{` + strings.Replace(ok, `"paths":["$.result.agentInfo.name"],`, ``, 1) + `,"absent":true,"runs":["s/air"],"with":["x"]}]`,
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := ParseDeviations([]byte(in), entries); !errors.Is(err, ErrBadDeviation) {
				t.Errorf("err = %v, want ErrBadDeviation", err)
			}
		})
	}
	devs, err := ParseDeviations([]byte(`[{`+strings.Replace(ok, `agentInfo.name`, `a[\"b-c\"][2][*].d_1`, 1)+`}]`), entries)
	if err != nil {
		t.Fatal(err)
	}
	want := []step{{key: "result", isKey: true}, {key: "a", isKey: true}, {key: "b-c", isKey: true}, {index: 2}, {index: -1}, {key: "d_1", isKey: true}}
	if !reflect.DeepEqual(devs[0].steps[0], want) {
		t.Errorf("steps %+v, want %+v", devs[0].steps[0], want)
	}
}

// TestLoadDeviationsFiles: no file declares nothing; a file needs its
// DEVIATIONS.md.
func TestLoadDeviationsFiles(t *testing.T) {
	if devs, err := LoadDeviations(t.TempDir()); err != nil || devs != nil {
		t.Errorf("no file: %v %v", devs, err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, DeviationsFile), []byte(`[]`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadDeviations(dir); !errors.Is(err, ErrBadDeviation) {
		t.Errorf("no %s: err = %v", DeviationsDoc, err)
	}
}

// TestCommittedDeviations: every committed declaration names an existing
// DEVIATIONS.md entry of the "Our adapter" section, never the adapter the
// goldens were recorded from, and each of its paths holds a value in at
// least one golden line it selects (an unused declaration fails here); a
// declaration limited to runs needs one of its paths held in their goldens,
// an absent one a line it selects there, and one of extra lines a golden
// of its runs.
func TestCommittedDeviations(t *testing.T) {
	devs := committedDeviations(t)
	doc, err := os.ReadFile(filepath.Join(goldensDir, DeviationsDoc))
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(doc, []byte("\n## Our adapter (airwire agent)\n"))
	if start < 0 {
		t.Fatalf("%s has no section \"Our adapter (airwire agent)\"", DeviationsDoc)
	}
	ourSection := doc[start+1:]
	if end := bytes.Index(ourSection, []byte("\n## ")); end >= 0 {
		ourSection = ourSection[:end]
	}
	ourEntries := DeviationEntries(ourSection)
	for i, d := range devs {
		if _, ok := ourEntries[d.Entry]; !ok {
			t.Errorf("declaration %d names entry %d, not one of %s's \"Our adapter\" section %v", i, d.Entry, DeviationsDoc, ourEntries)
		}
	}
	files, err := filepath.Glob(filepath.Join(goldensDir, "*", "*"+golden.Suffix))
	if err != nil || len(files) == 0 {
		t.Fatalf("no goldens: %v", err)
	}
	used := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr := newTranscript(b)
		ref := tr.agentName()
		run := filepath.Base(filepath.Dir(f)) + "/" + strings.TrimSuffix(filepath.Base(f), golden.Suffix)
		for i, d := range devs {
			if d.Agent == ref {
				t.Fatalf("declaration %d names %q, the adapter %s was recorded from", i, ref, f)
			}
			if len(d.Runs) > 0 && !d.namesRun(run) {
				continue
			}
			if d.Extra {
				used[fmt.Sprint(i)] = true // the golden lacks the line: that it exists is enough
				continue
			}
			for _, line := range tr.selected(&devs[i]) {
				if d.Absent {
					used[fmt.Sprint(i)] = true // a golden line it leaves out
				}
				v := tr.value(line)
				for k, s := range d.steps {
					if hasPath(v, s) {
						used[fmt.Sprint(i, d.Paths[k])] = true
						used[fmt.Sprint(i)] = true
					}
					if len(s) > 0 && hasPath(v, s[:len(s)-1]) {
						used[fmt.Sprint(i, "parent")] = true
					}
				}
			}
		}
	}
	for i, d := range devs {
		if len(d.Runs) > 0 {
			// A path may be a key only our adapter sends (the golden has
			// none to hold, only the object it goes into); the run itself
			// fails when the declaration masks nothing there
			// (ErrDeviationGone).
			if !used[fmt.Sprint(i)] && !used[fmt.Sprint(i, "parent")] {
				t.Errorf("declaration %d (entry %d): no golden of its runs %q has a line it selects with one of its paths or the object it goes into", i, d.Entry, d.Runs)
			}
			continue
		}
		for _, p := range d.Paths {
			if !used[fmt.Sprint(i, p)] {
				t.Errorf("declaration %d (entry %d): no golden line it selects has %s", i, d.Entry, p)
			}
		}
	}
}

// TestDeclaresFor: an update with an adapter that has declarations is
// refused (Check), one with the reference is not.
func TestDeclaresFor(t *testing.T) {
	g := zedGolden(t)
	devs := committedDeviations(t)
	if DeclaresFor(devs, g) {
		t.Error("the reference's transcript has declarations")
	}
	if !DeclaresFor(devs, ours(g)) {
		t.Error("our adapter's transcript has none")
	}
}

// TestDeviationEntries reads every numbered entry of the committed
// DEVIATIONS.md, titles over two lines included.
func TestDeviationEntries(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(goldensDir, DeviationsDoc))
	if err != nil {
		t.Fatal(err)
	}
	got := DeviationEntries(doc)
	for n := 1; n <= 8; n++ {
		if got[n] == "" {
			t.Errorf("entry %d missing: %v", n, got)
		}
	}
	if want := "With the real CLI, each API retry is its own record, and the turn's failure a further one."; got[6] != want {
		t.Errorf("entry 6 = %q, want %q", got[6], want)
	}
	// The entries are numbered 1, 2, … in the order they appear, with no
	// number missing or repeated: code, declarations and conform's output
	// cite them by number.
	for i, m := range entryRE.FindAllSubmatch(doc, -1) {
		if n, _ := strconv.Atoi(string(m[1])); n != i+1 {
			t.Errorf("entry %d appears in place %d: number the entries 1, 2, … in order", n, i+1)
		}
	}
}

// TestOutcomeMatch: Check's comparison masks the declared values of our
// adapter's transcript, records them, and still fails on the rest.
func TestOutcomeMatch(t *testing.T) {
	g := zedGolden(t)
	devs := committedDeviations(t)
	dir := t.TempDir()
	gd := golden.New(dir, golden.WithUpdate(false))
	if err := os.MkdirAll(filepath.Join(dir, "scn"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gd.File("scn/zed"), g, 0o644); err != nil {
		t.Fatal(err)
	}
	out := &Outcome{}
	if err := out.match(gd, "scn/zed", ours(g), devs, false); err != nil || len(out.Deviations) != 6 {
		t.Fatalf("our transcript: %v, %d deviations applied", err, len(out.Deviations))
	}
	out = &Outcome{}
	err := out.match(gd, "scn/zed", ours(g, `"stopReason":"end_turn"`, `"stopReason":"cancelled"`), devs, false)
	var mm *golden.MismatchError
	if !errors.As(err, &mm) || mm.Path != "$.result.stopReason" || len(out.Deviations) != 6 {
		t.Fatalf("an undeclared difference: %v, %d deviations applied", err, len(out.Deviations))
	}
	if err := (&Outcome{}).match(gd, "scn/zed", g, devs, false); err != nil {
		t.Fatalf("the reference: %v", err)
	}
}

// TestApplyDeviationsWhen: a `when` path narrows a declaration to the lines
// that hold it, in each transcript, so the same path on other lines still
// compares.
func TestApplyDeviationsWhen(t *testing.T) {
	golden := "client editor->agent {\"id\":0,\"method\":\"initialize\"}\n" +
		"client agent->editor {\"id\":0,\"result\":{\"agentInfo\":{\"name\":\"ref\"}}}\n" +
		"client agent->editor {\"method\":\"u\",\"params\":{\"m\":{\"k\":{\"a\":1}},\"mcp\":true}}\n" +
		"client agent->editor {\"method\":\"u\",\"params\":{\"m\":{\"k\":{\"b\":2}}}}\n"
	devs, err := ParseDeviations([]byte(`[
		{"entry":1,"agent":"ours","tag":"client agent->editor","response":"initialize","paths":["$.result.agentInfo.name"],"reason":"r"},
		{"entry":1,"agent":"ours","tag":"client agent->editor","method":"u","when":"$.params.mcp","paths":["$.params.m"],"reason":"r"}]`), map[int]string{1: "x"})
	if err != nil {
		t.Fatal(err)
	}
	ours := strings.Replace(golden, `"ref"`, `"ours"`, 1)
	masked := strings.Replace(ours, `"m":{"k":{"a":1}},`, ``, 1)
	got, applied := ApplyDeviations(devs, []byte(golden), []byte(masked))
	if string(got) != golden || len(applied) != 2 {
		t.Errorf("the selected line's missing key: %d applied\n%s\nwant:\n%s", len(applied), got, golden)
	}
	other := strings.Replace(ours, `{"b":2}`, `{"b":3}`, 1)
	got, _ = ApplyDeviations(devs, []byte(golden), []byte(other))
	if !strings.Contains(string(got), `{"b":3}`) {
		t.Errorf("a line without the when path was masked:\n%s", got)
	}
	if _, err := ParseDeviations([]byte(`[{"entry":1,"agent":"a","tag":"t","when":"$.[","paths":["$.x"],"reason":"r"}]`), map[int]string{1: "x"}); err == nil {
		t.Error("a bad when path was accepted")
	}
}

// TestPairOn: a declaration whose difference removes from the actual line
// what its When looks for pairs the lines by PairOn (which both sides
// hold), and When only says whether the run has the difference: a run
// whose golden holds no When line is not one it applies to.
func TestPairOn(t *testing.T) {
	head := "client editor->agent {\"id\":0,\"method\":\"initialize\"}\n" +
		"client agent->editor {\"id\":0,\"result\":{\"agentInfo\":{\"name\":\"ref\"}}}\n"
	golden := head + "client agent->editor {\"method\":\"u\",\"params\":{\"c\":[{\"n\":1},{\"k\":\"s\",\"n\":2}]}}\n"
	ours := strings.Replace(strings.Replace(golden, `"ref"`, `"ours"`, 1), `"k":"s",`, ``, 1)
	decl := func(pairOn string) []Deviation {
		devs, err := ParseDeviations([]byte(`[
		{"entry":1,"agent":"ours","tag":"client agent->editor","response":"initialize","paths":["$.result.agentInfo.name"],"reason":"r"},
		{"entry":1,"agent":"ours","tag":"client agent->editor","method":"u","when":"$.params.c[?k=\"s\"]",`+pairOn+`"paths":["$.params.c[?k=\"s\"].k"],"reason":"r"}]`), map[int]string{1: "x"})
		if err != nil {
			t.Fatal(err)
		}
		return devs
	}
	if got, _ := ApplyDeviations(decl(`"pairOn":"$.params.c",`), []byte(golden), []byte(ours)); string(got) != golden {
		t.Errorf("with pairOn the element's key is not masked:\n%s", got)
	}
	if got, _ := ApplyDeviations(decl(``), []byte(golden), []byte(ours)); string(got) == golden {
		t.Error("without pairOn the actual line, which lacks the when path, was paired")
	}
	if gone := GoneDeviations(decl(`"pairOn":"$.params.c",`), "s/p", []byte(golden), []byte(ours)); len(gone) != 0 {
		t.Errorf("gone %v in a run that has the difference", gone)
	}
	plain := strings.Replace(golden, `"k":"s",`, ``, 1)
	if gone := GoneDeviations(decl(`"pairOn":"$.params.c",`), "s/p", []byte(plain), []byte(ours)); len(gone) != 0 {
		t.Errorf("gone %v in a run whose golden has no when line", gone)
	}
	if _, err := ParseDeviations([]byte(`[{"entry":1,"agent":"a","tag":"t","pairOn":"$.x","paths":["$.x"],"reason":"r"}]`), map[int]string{1: "x"}); err == nil {
		t.Error("a pairOn without when was accepted")
	}
}

// subagentEditReport is the file-change report of
// file-change-report-subagent-edit/air.golden (the reference's, DEVIATIONS
// 18) and the one our adapter sends instead.
const (
	refSubagentReport = `"agentFileChangeReport":{"declaredComplete":false,"paths":["<cwd>/NOTES.md"],"requestId":"report-3","status":"reported","truncated":false,"version":1}`
	ourSubagentReport = `"agentFileChangeReport":{"reason":"invalidOutput","requestId":"report-3","status":"unavailable","version":1}`
)

// TestRunScopedDeviation: the committed entry-18 declaration masks the
// report of the run it names, fails that run once our report is the
// reference's again (ErrDeviationGone), and masks nothing in another
// run's report (file-change-report-reported), whose differences still fail.
func TestRunScopedDeviation(t *testing.T) {
	devs := committedDeviations(t)
	const run, other = "file-change-report-subagent-edit/air", "file-change-report-reported/air"
	dir := t.TempDir()
	gd := golden.New(dir, golden.WithUpdate(false))
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(goldensDir, name+golden.Suffix))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(gd.File(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(gd.File(name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		return b
	}
	g := read(run)
	if !bytes.Contains(g, []byte(refSubagentReport)) {
		t.Fatalf("%s no longer holds the reference's report %s", run, refSubagentReport)
	}
	out := &Outcome{}
	if err := out.match(gd, run, ours(g, refSubagentReport, ourSubagentReport), devs, false); err != nil {
		t.Fatalf("our report: %v", err)
	}
	var masked []string
	for _, a := range out.Deviations {
		if a.Entry == 18 {
			masked = append(masked, a.Path)
		}
	}
	if len(masked) != 5 {
		t.Errorf("entry 18 masked %q, want status, reason, paths, declaredComplete, truncated", masked)
	}
	if err := (&Outcome{}).match(gd, run, ours(g), devs, false); !errors.Is(err, ErrDeviationGone) {
		t.Errorf("our report equal to the reference's: err = %v, want ErrDeviationGone", err)
	}
	if err := (&Outcome{}).match(gd, run, g, devs, false); err != nil {
		t.Errorf("the reference's own run: %v", err)
	}
	o := read(other)
	const reported = `"status":"reported"`
	if !bytes.Contains(o, []byte(reported)) {
		t.Fatalf("%s no longer holds %s", other, reported)
	}
	err := (&Outcome{}).match(gd, other, ours(o, reported, `"status":"unavailable"`), devs, false)
	var mm *golden.MismatchError
	if !errors.As(err, &mm) || !strings.HasSuffix(mm.Path, ".agentFileChangeReport.status") {
		t.Errorf("another run's report status: err = %v, want a mismatch at its status", err)
	}
}

// TestGoneWithoutRuns: every declaration that applies to a run and masks
// nothing there fails it, not only those that name runs: one without Runs
// (by its tag and method), one with When where that path selects a line.
// A When that selects no line in either transcript does not apply.
func TestGoneWithoutRuns(t *testing.T) {
	const refText = "client editor->agent {\"id\":0,\"method\":\"initialize\"}\n" +
		"client agent->editor {\"id\":0,\"result\":{\"agentInfo\":{\"name\":\"ref\"}}}\n" +
		"client agent->editor {\"method\":\"u\",\"params\":{\"m\":1,\"mcp\":true}}\n" +
		"client agent->editor {\"method\":\"v\",\"params\":{\"n\":1}}\n"
	devs, err := ParseDeviations([]byte(`[
		{"entry":1,"agent":"ours","tag":"client agent->editor","response":"initialize","paths":["$.result.agentInfo.name"],"reason":"r"},
		{"entry":2,"agent":"ours","tag":"client agent->editor","method":"u","when":"$.params.mcp","paths":["$.params.m"],"reason":"r"},
		{"entry":3,"agent":"ours","tag":"client agent->editor","method":"v","paths":["$.params.n"],"reason":"r"},
		{"entry":4,"agent":"ours","tag":"client agent->editor","method":"u","when":"$.params.none","paths":["$.params.m"],"reason":"r"}]`),
		map[int]string{1: "a", 2: "b", 3: "c", 4: "d"})
	if err != nil {
		t.Fatal(err)
	}
	ours := strings.Replace(refText, `"ref"`, `"ours"`, 1)
	differ := strings.NewReplacer(`"m":1`, `"m":2`, `"n":1`, `"n":2`).Replace(ours)
	if gone := GoneDeviations(devs, "scn/air", []byte(refText), []byte(differ)); len(gone) != 0 {
		t.Fatalf("every difference shown: gone %+v", gone)
	}
	entries := func(ds []Deviation) []int {
		var out []int
		for _, d := range ds {
			out = append(out, d.Entry)
		}
		return out
	}
	same := strings.Replace(differ, `"n":2`, `"n":1`, 1)
	if got := entries(GoneDeviations(devs, "scn/air", []byte(refText), []byte(same))); !slices.Equal(got, []int{3}) {
		t.Errorf("a declaration without runs that masks nothing: gone %v, want [3]", got)
	}
	same = strings.Replace(differ, `"m":2`, `"m":1`, 1)
	if got := entries(GoneDeviations(devs, "scn/air", []byte(refText), []byte(same))); !slices.Equal(got, []int{2}) {
		t.Errorf("a when declaration whose line matches: gone %v, want [2]", got)
	}
	if got := GoneDeviations(devs, "scn/air", []byte(refText), []byte(refText)); len(got) != 0 {
		t.Errorf("the reference's own run: gone %v", entries(got))
	}
	dir := t.TempDir()
	gd := golden.New(dir, golden.WithUpdate(false))
	if err := os.MkdirAll(filepath.Join(dir, "scn"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gd.File("scn/air"), []byte(refText), 0o644); err != nil {
		t.Fatal(err)
	}
	err = (&Outcome{}).match(gd, "scn/air", []byte(same), devs, false)
	if !errors.Is(err, ErrDeviationGone) || !strings.Contains(err.Error(), "entry 2") {
		t.Errorf("match: err = %v, want ErrDeviationGone naming entry 2", err)
	}
}

// TestIdentityDeviation: a declaration compared by identity masks random
// values only where both sides share their pattern: the same lines hold a
// value, and the same of them share one.
func TestIdentityDeviation(t *testing.T) {
	head := "client editor->agent {\"id\":0,\"method\":\"initialize\"}\n" +
		"client agent->editor {\"id\":0,\"result\":{\"agentInfo\":{\"name\":\"%s\"}}}\n"
	lines := func(name string, uuids ...string) string {
		b := fmt.Sprintf(head, name)
		for _, u := range uuids {
			if u == "" {
				b += "cli:1 agent->cli {\"type\":\"user\"}\n"
				continue
			}
			b += "cli:1 agent->cli {\"type\":\"user\",\"uuid\":\"" + u + "\"}\n"
		}
		return b
	}
	devs, err := ParseDeviations([]byte(`[{"entry":1,"agent":"ours","tag":"cli:* agent->cli","paths":["$.uuid"],"compare":"identity","reason":"r"}]`), map[int]string{1: "x"})
	if err != nil {
		t.Fatal(err)
	}
	golden := lines("ref", "<uuid-2>", "<uuid-3>", "<uuid-2>")
	for _, tt := range []struct {
		name   string
		actual []string
		masked bool
	}{
		{"numbers shifted, same pattern", []string{"<uuid-1>", "<uuid-2>", "<uuid-1>"}, true},
		{"a new uuid where the golden reuses one", []string{"<uuid-1>", "<uuid-2>", "<uuid-3>"}, false},
		{"a uuid reused where the golden has a new one", []string{"<uuid-1>", "<uuid-1>", "<uuid-1>"}, false},
		{"a uuid missing", []string{"<uuid-1>", "", "<uuid-1>"}, false},
		{"a line more", []string{"<uuid-1>", "<uuid-2>", "<uuid-1>", "<uuid-4>"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			actual := lines("ours", tt.actual...)
			got, applied := ApplyDeviations(devs, []byte(golden), []byte(actual))
			if masked := len(applied) > 0; masked != tt.masked {
				t.Fatalf("masked %v (%d values), want %v", masked, len(applied), tt.masked)
			}
			if tt.masked && string(got) != strings.Replace(golden, `"ref"`, `"ours"`, 1) {
				t.Errorf("masked transcript:\n%s", got)
			}
			if !tt.masked && string(got) != actual {
				t.Errorf("an unmasked transcript changed:\n%s", got)
			}
		})
	}
}

// TestExtraLineDeviation: an extra declaration leaves out the actual lines
// it selects past the golden's count, and only those: the line both sides
// have still compares, a line it does not select still fails, and once the
// adapter no longer sends the extra line the declaration is gone.
func TestExtraLineDeviation(t *testing.T) {
	const refText = "client editor->agent {\"id\":0,\"method\":\"initialize\"}\n" +
		"client agent->editor {\"id\":0,\"result\":{\"agentInfo\":{\"name\":\"ref\"}}}\n" +
		"client agent->editor {\"method\":\"u\",\"params\":{\"state\":\"running\"}}\n" +
		"cli:1 spawn {\"argv\":[]}"
	devs, err := ParseDeviations([]byte(`[
		{"entry":1,"agent":"ours","tag":"client agent->editor","response":"initialize","paths":["$.result.agentInfo.name"],"reason":"r"},
		{"entry":2,"agent":"ours","tag":"client agent->editor","method":"u","when":"$.params.state","extra":true,"runs":["scn/air"],"reason":"r"}]`),
		map[int]string{1: "a", 2: "b"})
	if err != nil {
		t.Fatal(err)
	}
	ours := strings.Replace(refText, `"ref"`, `"ours"`, 1)
	const stopped = "client agent->editor {\"method\":\"u\",\"params\":{\"state\":\"stopped\"}}\n"
	extra := strings.Replace(ours, "cli:1", stopped+"cli:1", 1)
	got, applied := ApplyDeviations(devs, []byte(refText), []byte(extra))
	if string(got) != refText || len(applied) != 2 || applied[1] != (AppliedDeviation{Entry: 2, Line: 4, Path: ExtraLine}) {
		t.Errorf("the extra line: applied %+v\n%s\nwant:\n%s", applied, got, refText)
	}
	changed := strings.Replace(extra, `"running"`, `"paused"`, 1)
	if got, _ := ApplyDeviations(devs, []byte(refText), []byte(changed)); !strings.Contains(string(got), `"paused"`) || strings.Contains(string(got), `"stopped"`) {
		t.Errorf("the line both sides have was left out or masked:\n%s", got)
	}
	other := strings.Replace(ours, "cli:1", "client agent->editor {\"method\":\"v\"}\ncli:1", 1)
	if got, _ := ApplyDeviations(devs, []byte(refText), []byte(other)); !strings.Contains(string(got), `"v"`) {
		t.Errorf("a line the declaration does not select was left out:\n%s", got)
	}
	if gone := GoneDeviations(devs, "scn/air", []byte(refText), []byte(ours)); len(gone) != 1 || gone[0].Entry != 2 {
		t.Errorf("no extra line: gone %+v, want entry 2", gone)
	}
	// When selects no line on either side: the declared line is missing all the same.
	noState := strings.Replace(refText, `"state":"running"`, `"n":1`, 1)
	if gone := GoneDeviations(devs, "scn/air", []byte(noState), []byte(strings.Replace(noState, `"ref"`, `"ours"`, 1))); len(gone) != 1 || gone[0].Entry != 2 {
		t.Errorf("no line selected at all: gone %+v, want entry 2", gone)
	}
	if gone := GoneDeviations(devs, "other/air", []byte(noState), []byte(strings.Replace(noState, `"ref"`, `"ours"`, 1))); len(gone) != 0 {
		t.Errorf("a run the declaration does not name: gone %+v", gone)
	}
}
