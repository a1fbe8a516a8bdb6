package conform_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/testroot"
)

func TestEditorLane(t *testing.T) {
	canon := "client editor->agent {\"id\":0}\nclient agent->editor {\"id\":0}\ncli:1 spawn {\"argv\":[]}\ncli:1 agent->cli {}\ncli:run spawn {}\n"
	want := "client editor->agent {\"id\":0}\nclient agent->editor {\"id\":0}\n"
	if got := string(conform.EditorLane([]byte(canon))); got != want {
		t.Errorf("EditorLane = %q, want %q", got, want)
	}
	if got := string(conform.EditorLane([]byte(strings.TrimSuffix(want, "\n")))); got != want {
		t.Errorf("EditorLane without a final newline = %q, want %q", got, want)
	}
}

func TestEditorDeviations(t *testing.T) {
	devs := []conform.Deviation{
		{Entry: 1, Tag: conform.TagAgentToEditor},
		{Entry: 2, Tag: "cli:* agent->cli"},
		{Entry: 3, Tag: "client *"},
		{Entry: 4, Tag: "cli:run spawn"},
	}
	var got []int
	for _, d := range conform.EditorDeviations(devs) {
		got = append(got, d.Entry)
	}
	if len(got) != 2 || got[0] != 1 || got[1] != 3 {
		t.Errorf("EditorDeviations kept entries %v, want [1 3]", got)
	}
}

// laneScenario is the scripted scenario the lane tests run, with plain.
const laneScenario = "rate-limit-and-origin"

// laneAgent writes the stub adapter of the lane tests: it records its
// arguments in record, then runs `airwire agent`. Its command line names
// the run ({cwd}, {scenario}, {profile}); with mode "nocli" it hands the
// agent the run's fake CLI itself rather than the recorder's shim, so the
// journal has no CLI lane, as with `airwire play`, which plays its CLI
// itself.
func laneAgent(t *testing.T, record, mode string) []string {
	t.Helper()
	script := filepath.Join(t.TempDir(), "agent.sh")
	body := `#!/bin/sh
airwire=$1 record=$2 mode=$3 cwd=$4
shift 4
printf '%s\n' "$@" > "$record"
if [ "$mode" = nocli ]; then
	CLAUDE_CODE_EXECUTABLE="$cwd/../bin/claude"
	export CLAUDE_CODE_EXECUTABLE
fi
exec "$airwire" agent
`
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return []string{script, testroot.Binary(t), record, mode, "{cwd}", "--scenario", "{scenario}", "--profile", "{profile}"}
}

// laneGoldens copies the suite's golden of laneScenario/plain and the
// declaration files into a directory, with edit applied to the golden.
// With cliDeclared it adds a declaration of the airwire agent for a CLI
// lane of that run (a value on every adapter -> CLI line).
func laneGoldens(t *testing.T, cliDeclared bool, edit func(lines []string)) *golden.Golden {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{conform.DeviationsDoc, conform.KnownFindingsFile} {
		b, err := os.ReadFile(filepath.Join("..", "goldens", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join("..", "goldens", conform.DeviationsFile))
	if err != nil {
		t.Fatal(err)
	}
	var devs []map[string]any
	if err := json.Unmarshal(b, &devs); err != nil {
		t.Fatal(err)
	}
	if cliDeclared {
		devs = append(devs, map[string]any{"entry": 7, "agent": "airwire", "tag": "cli:* agent->cli", "paths": []string{"$.type"},
			"runs": []string{laneScenario + "/plain"}, "reason": "a declaration for the CLI lane (test)"})
	}
	if b, err = json.Marshal(devs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, conform.DeviationsFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := os.ReadFile(filepath.Join("..", "goldens", laneScenario, "plain"+golden.Suffix))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(g), "\n")
	edit(lines)
	if err := os.MkdirAll(filepath.Join(dir, laneScenario), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, laneScenario, "plain"+golden.Suffix), []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return golden.New(dir, golden.WithUpdate(false))
}

// editLine applies f to the first line with prefix and returns its
// 1-based number.
func editLine(t *testing.T, lines []string, prefix string, f func(string) string) int {
	t.Helper()
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			if lines[i] = f(l); lines[i] == l {
				t.Fatalf("the edit changed nothing on line %d: %s", i+1, l)
			}
			return i + 1
		}
	}
	t.Fatalf("no golden line starts with %q", prefix)
	return 0
}

// TestCheckEditorLane: with EditorLane a run is compared on its client
// lines only. A run whose CLI lane differs from the golden's (a value of
// it, or no CLI lane at all), and a declaration for a CLI lane that then
// masks nothing, pass with it and fail without it; a difference on the
// editor lane fails with it.
func TestCheckEditorLane(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stub adapter is a shell script")
	}
	sc, err := scenario.Load(filepath.Join("..", "scenarios", laneScenario+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	record := filepath.Join(t.TempDir(), "argv")
	check := func(t *testing.T, mode string, g *golden.Golden, editorLane bool) (*conform.Outcome, error) {
		t.Helper()
		o := conform.Options{Airwire: testroot.Binary(t), Agent: laneAgent(t, record, mode), Scenario: sc,
			Profile: scenario.ProfilePlain, NoValidate: true, EditorLane: editorLane}
		return conform.Check(context.Background(), o, g, false)
	}
	cliDeclared := laneGoldens(t, true, func([]string) {})
	cliEdited := laneGoldens(t, false, func(lines []string) {
		editLine(t, lines, "cli:run spawn", func(l string) string { return strings.Replace(l, `"auth"`, `"auth-edited"`, 1) })
	})
	var editorLine int
	editorEdited := laneGoldens(t, false, func(lines []string) {
		editorLine = editLine(t, lines, conform.TagAgentToEditor+` {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"<session-1>","update":{"sessionUpdate":"session_info_update"`,
			func(l string) string { return strings.Replace(l, conform.DefaultTitle, "Another title", 1) })
	})

	t.Run("no CLI lane, a declaration for it", func(t *testing.T) {
		out, err := check(t, "nocli", cliDeclared, true)
		if err != nil {
			t.Fatalf("editor lane: %v", err)
		}
		if !out.EditorLane || strings.Contains(string(out.Compared), "cli:") || !strings.HasPrefix(string(out.Compared), "client ") {
			t.Errorf("Compared is not the editor lane (EditorLane %v):\n%s", out.EditorLane, out.Compared)
		}
		if _, err := check(t, "nocli", cliDeclared, false); !errors.Is(err, conform.ErrLaneMissing) {
			t.Errorf("both lanes: err = %v, want ErrLaneMissing", err)
		}
	})
	t.Run("CLI lane differs", func(t *testing.T) {
		if _, err := check(t, "shim", cliEdited, true); err != nil {
			t.Errorf("editor lane: %v", err)
		}
		var mm *golden.MismatchError
		if _, err := check(t, "shim", cliEdited, false); !errors.As(err, &mm) || !strings.HasPrefix(mm.Tag, "cli:") {
			t.Errorf("both lanes: err = %v, want a mismatch on the CLI lane", err)
		}
	})
	t.Run("editor lane differs", func(t *testing.T) {
		var mm *golden.MismatchError
		if _, err := check(t, "shim", editorEdited, true); !errors.As(err, &mm) || mm.Line != editorLine {
			t.Fatalf("err = %v, want a mismatch on golden line %d", err, editorLine)
		}
		if !strings.Contains(mm.Want, "Another title") {
			t.Errorf("mismatch: want %q, got %q", mm.Want, mm.Got)
		}
	})
	t.Run("update", func(t *testing.T) {
		o := conform.Options{Airwire: testroot.Binary(t), Agent: laneAgent(t, record, "shim"), Scenario: sc, Profile: scenario.ProfilePlain,
			NoValidate: true, EditorLane: true}
		if _, err := conform.Check(context.Background(), o, golden.New(t.TempDir(), golden.WithUpdate(true)), false); !errors.Is(err, conform.ErrEditorLaneUpdate) {
			t.Errorf("err = %v, want ErrEditorLaneUpdate", err)
		}
	})
}
