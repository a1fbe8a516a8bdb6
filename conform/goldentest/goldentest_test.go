package goldentest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/internal/testroot"
)

// TestRead: the tagged JSON lines of a golden, in order, without the lines
// that hold no JSON; AgentMessages keeps the agent's.
func TestRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.golden")
	golden := "# a comment\nclient editor->agent {\"id\":0}\ncli:1 spawn {\"argv\":[]}\nclient agent->editor {\"id\":0,\"result\":{}}\n"
	if err := os.WriteFile(path, []byte(golden), 0o644); err != nil {
		t.Fatal(err)
	}
	got := goldentest.Read(t, path)
	want := []goldentest.Line{
		{Tag: "client editor->agent", Msg: json.RawMessage(`{"id":0}`)},
		{Tag: "cli:1 spawn", Msg: json.RawMessage(`{"argv":[]}`)},
		{Tag: "client agent->editor", Msg: json.RawMessage(`{"id":0,"result":{}}`)},
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines %q, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i].Tag != want[i].Tag || string(got[i].Msg) != string(want[i].Msg) {
			t.Errorf("line %d: %q %s, want %q %s", i, got[i].Tag, got[i].Msg, want[i].Tag, want[i].Msg)
		}
	}
	if msgs := goldentest.AgentMessages(t, path); len(msgs) != 1 || string(msgs[0]) != `{"id":0,"result":{}}` {
		t.Errorf("agent messages %q", msgs)
	}
}

// TestCanon: keys sorted, numbers as written, no HTML escaping, for raw
// JSON and Go values alike.
func TestCanon(t *testing.T) {
	if got := goldentest.Canon(t, json.RawMessage(`{"b":1.50,"a":"<x>"}`)); got != `{"a":"<x>","b":1.50}` {
		t.Errorf("raw: %s", got)
	}
	if got := goldentest.Canon(t, map[string]any{"b": 2, "a": []int{1}}); got != `{"a":[1],"b":2}` {
		t.Errorf("value: %s", got)
	}
}

// TestProfile: the recorded runs of a profile sit next to their cassettes.
func TestProfile(t *testing.T) {
	all, recorded := goldentest.Profile(t, "air", false), goldentest.Profile(t, "air", true)
	if len(recorded) == 0 || len(recorded) >= len(all) {
		t.Fatalf("%d recorded of %d air goldens", len(recorded), len(all))
	}
	for name, p := range recorded {
		if all[name] != p {
			t.Errorf("%s: %s not among all goldens", name, p)
		}
		goldentest.LoadCassette(t, p)
	}
}

// TestChildLane reads a recorded native subagent run: its child lane
// holds an announcement, and every row is a child's or a subagent_* one.
func TestChildLane(t *testing.T) {
	all := goldentest.SessionUpdates(t, goldentest.Path(t, "subagent-native-sessions", "air"))
	lane := goldentest.ChildLane(t, "<session-1>", all)
	if len(all) == 0 || len(lane) == 0 || len(lane) >= len(all) {
		t.Fatalf("%d updates, %d on the child lane", len(all), len(lane))
	}
	if !strings.Contains(strings.Join(lane, "\n"), `"sessionUpdate":"subagent_spawned"`) {
		t.Errorf("no subagent_spawned on the child lane:\n%s", strings.Join(lane, "\n"))
	}
	for _, row := range lane {
		if strings.Contains(row, `"sessionId":"<session-1>"`) && !strings.Contains(row, `"sessionUpdate":"subagent_`) {
			t.Errorf("a root update on the child lane: %s", row)
		}
	}
}

func TestLineDiff(t *testing.T) {
	if d := goldentest.LineDiff("u", []string{"a", "b"}, []string{"a", "b"}); d != "" {
		t.Errorf("equal rows: %q", d)
	}
	d := goldentest.LineDiff("update", []string{"a", "x"}, []string{"a", "b", "c"})
	for _, want := range []string{"update: got 2, want 3", "#2\n   got  x\n   want b", "#3\n   got  <none>\n   want c"} {
		if !strings.Contains(d, want) {
			t.Errorf("%q lacks %q", d, want)
		}
	}
	if strings.Contains(d, "#1") {
		t.Errorf("an equal row reported: %q", d)
	}
}

// TestNoMachinePathInGoldens: a recording names the machine it was made on
// only through placeholders (<agent-argv-0>, <cwd>, <tmp>, …). The
// installed dependencies' directory, or an npm package directory under a
// path, is this machine leaking into the repo.
func TestNoMachinePathInGoldens(t *testing.T) {
	files := append(goldentest.Files(t), goldentest.V2Files(t)...)
	for _, g := range files {
		files = append(files, goldentest.CassettePath(g))
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, leak := range []string{"/.deps/", "/node_modules/", `\\node_modules\\`} {
			if i := strings.Index(string(data), leak); i >= 0 {
				t.Errorf("%s holds a path of the recording machine: …%s…", path, excerpt(string(data), i))
			}
		}
	}
}

func excerpt(s string, i int) string {
	return s[max(0, i-60):min(len(s), i+40)]
}

// TestFilesByVersion: Files holds the goldens of the ACP v1 profiles,
// V2Files those of the v2 ones, and together they are every golden.
func TestFilesByVersion(t *testing.T) {
	v1, v2 := goldentest.Files(t), goldentest.V2Files(t)
	all, err := filepath.Glob(filepath.Join(testroot.Root(t), "goldens", "*", "*.golden"))
	if err != nil || len(v2) == 0 || len(v1)+len(v2) != len(all) {
		t.Fatalf("%d v1 + %d v2 goldens of %d (%v)", len(v1), len(v2), len(all), err)
	}
	for _, f := range v2 {
		if !strings.HasSuffix(f, "-v2.golden") {
			t.Errorf("%s is not of a v2 profile", f)
		}
	}
}
