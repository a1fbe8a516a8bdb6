package conform

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/golden"
)

// TestConformHelpEditorLane: the help says what the agent command's
// placeholders stand for and what --editor-lane compares.
func TestConformHelpEditorLane(t *testing.T) {
	var out bytes.Buffer
	cmd := NewCmdConform(factory.New("test", factory.WithIO(nil, &out, &out)), nil)
	cmd.SetOut(&out)
	cmd.SetArgs([]string{"--help"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"In the adapter command, {scenario}, {profile}", "{cwd}", "the run's scenario name, its profile name",
		"its workspace directory", "--editor-lane", "compare only the editor lane",
		`--agent "airwire play --scenario {scenario} --profile {profile}`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("help lacks %q", want)
		}
	}
}

// TestFailureOfEditorLane: a run compared on the editor lane only shows
// the golden as compared, its client lines, beside its own.
func TestFailureOfEditorLane(t *testing.T) {
	file := filepath.Join(t.TempDir(), "plain.golden")
	client := "client editor->agent {\"id\":0}\nclient agent->editor {\"id\":0,\"result\":{}}\n"
	if err := os.WriteFile(file, []byte(client+"cli:1 spawn {\"argv\":[]}\ncli:run spawn {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := "client editor->agent {\"id\":0}\nclient agent->editor {\"id\":0,\"result\":{\"x\":1}}\n"
	mm := golden.Compare(file, []byte(client), []byte(got))
	for _, editorLane := range []bool{false, true} {
		f := failureOf(outcome{err: mm, out: &conform.Outcome{Compared: []byte(got), EditorLane: editorLane}}, file, nil)
		want := 4
		if editorLane {
			want = 2
		}
		if len(f.Expected) != want {
			t.Errorf("editor lane %v: expected transcript has %d lines, want %d: %q", editorLane, len(f.Expected), want, f.Expected)
		}
	}
}
