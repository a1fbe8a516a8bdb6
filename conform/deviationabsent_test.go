package conform

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/golden"
)

// absentGolden is a reference transcript with a task of taskType "turn"
// (spawned, then completed), a request the agent sends during it with the
// editor's answer, a shell task that stays, and a CLI line whose uuid the
// run numbers after the turn task's.
const absentGolden = "client editor->agent {\"id\":0,\"method\":\"initialize\"}\n" +
	"client agent->editor {\"id\":0,\"result\":{\"agentInfo\":{\"name\":\"ref\"}}}\n" +
	"client agent->editor {\"method\":\"session/update\",\"params\":{\"update\":{\"asyncTaskId\":\"turn-<uuid-1>\",\"sessionUpdate\":\"async_task_spawned\",\"taskType\":\"turn\"}}}\n" +
	"client agent->editor {\"id\":4,\"method\":\"ask\",\"params\":{\"asyncTaskId\":\"turn-<uuid-1>\"}}\n" +
	"client editor->agent {\"id\":4,\"result\":{}}\n" +
	"client agent->editor {\"method\":\"session/update\",\"params\":{\"update\":{\"asyncTaskId\":\"<task-1>\",\"sessionUpdate\":\"async_task_spawned\",\"taskType\":\"shell\"}}}\n" +
	"client agent->editor {\"method\":\"session/update\",\"params\":{\"update\":{\"asyncTaskId\":\"turn-<uuid-1>\",\"sessionUpdate\":\"async_task_state_update\",\"state\":\"completed\"}}}\n" +
	"cli:1 agent->cli {\"uuid\":\"<uuid-2>\"}\n"

// absentOurs is what an adapter that does not publish the turn sends: the
// CLI line's uuid is the run's first.
const absentOurs = "client editor->agent {\"id\":0,\"method\":\"initialize\"}\n" +
	"client agent->editor {\"id\":0,\"result\":{\"agentInfo\":{\"name\":\"ours\"}}}\n" +
	"client agent->editor {\"method\":\"session/update\",\"params\":{\"update\":{\"asyncTaskId\":\"<task-1>\",\"sessionUpdate\":\"async_task_spawned\",\"taskType\":\"shell\"}}}\n" +
	"cli:1 agent->cli {\"uuid\":\"<uuid-1>\"}\n"

const absentDecls = `[
	{"entry":1,"agent":"ours","tag":"client agent->editor","response":"initialize","paths":["$.result.agentInfo.name"],"reason":"r"},
	{"entry":2,"agent":"ours","tag":"client agent->editor","method":"session/update","when":"$.params.update.taskType","equals":"turn",
	 "absent":true,"with":["$.params.update.asyncTaskId","$.params.asyncTaskId"],"runs":["scn/air"],"reason":"r"}]`

func absentDeviations(t *testing.T) []Deviation {
	t.Helper()
	devs, err := ParseDeviations([]byte(absentDecls), map[int]string{1: "a", 2: "b"})
	if err != nil {
		t.Fatal(err)
	}
	return devs
}

// TestLeaveOut: an absent declaration leaves out of the golden the line it
// selects (taskType "turn", not the shell task), the lines its With paths
// tie to it (the turn's state, the request naming it) and the editor's
// answer to that request, numbers the uuids that are left again, and
// reports each golden line it left out.
func TestLeaveOut(t *testing.T) {
	devs := absentDeviations(t)
	got, left := LeaveOut(devs, []byte(absentGolden), []byte(absentOurs))
	want := strings.Replace(absentOurs, `"ours"`, `"ref"`, 1)
	if string(got) != want {
		t.Errorf("golden left:\n%s\nwant:\n%s", got, want)
	}
	var lines []int
	for _, l := range left {
		if l.Entry != 2 {
			t.Errorf("line %d left out for entry %d, want 2", l.Line, l.Entry)
		}
		lines = append(lines, l.Line)
	}
	if !slices.Equal(lines, []int{3, 4, 5, 7}) {
		t.Errorf("left out lines %v, want [3 4 5 7]", lines)
	}
	// Applied with the masks, our transcript is the golden as left.
	masked, _ := ApplyDeviations(devs, got, []byte(absentOurs))
	if string(masked) != string(got) {
		t.Errorf("masked:\n%s\nwant:\n%s", masked, got)
	}
}

// TestLeaveOutScope: an absent declaration leaves nothing out for the
// goldens' own adapter or for an adapter it does not name, and a golden
// without the selected line loses nothing.
func TestLeaveOutScope(t *testing.T) {
	devs := absentDeviations(t)
	for name, actual := range map[string]string{
		"the reference":   absentGolden,
		"another adapter": strings.Replace(absentOurs, `"ours"`, `"other"`, 1),
	} {
		if got, left := LeaveOut(devs, []byte(absentGolden), []byte(actual)); string(got) != absentGolden || len(left) > 0 {
			t.Errorf("%s: %d lines left out:\n%s", name, len(left), got)
		}
	}
	noTurn := strings.Replace(absentGolden, `"taskType":"turn"`, `"taskType":"shell"`, 1)
	if got, left := LeaveOut(devs, []byte(noTurn), []byte(absentOurs)); string(got) != noTurn || len(left) > 0 {
		t.Errorf("a golden without the turn: %d lines left out", len(left))
	}
}

// TestAbsentGone: an absent declaration fails each run it names where the
// golden has no line it selects, applies to no other run, and never to the
// reference.
func TestAbsentGone(t *testing.T) {
	devs := absentDeviations(t)
	noTurn := strings.Replace(absentGolden, `"taskType":"turn"`, `"taskType":"shell"`, 1)
	ours := strings.Replace(noTurn, `"ref"`, `"ours"`, 1)
	if gone := GoneDeviations(devs, "scn/air", []byte(absentGolden), []byte(absentOurs)); len(gone) != 0 {
		t.Errorf("the golden has the turn: gone %+v", gone)
	}
	if gone := GoneDeviations(devs, "scn/air", []byte(noTurn), []byte(ours)); len(gone) != 1 || !gone[0].Absent {
		t.Errorf("the golden lacks the turn: gone %+v, want the absent declaration", gone)
	}
	if gone := GoneDeviations(devs, "other/air", []byte(noTurn), []byte(ours)); len(gone) != 0 {
		t.Errorf("a run it does not name: gone %+v", gone)
	}
	if gone := GoneDeviations(devs, "scn/air", []byte(noTurn), []byte(noTurn)); len(gone) != 0 {
		t.Errorf("the reference's own run: gone %+v", gone)
	}
}

// TestOutcomeMatchAbsent: Check's comparison passes our transcript without
// the golden's turn lines and counts them (also on the editor lane only),
// fails when our transcript still holds them (they are not the golden's
// any more), and fails with ErrDeviationGone where the golden has none.
func TestOutcomeMatchAbsent(t *testing.T) {
	devs := absentDeviations(t)
	dir := t.TempDir()
	gd := golden.New(dir, golden.WithUpdate(false))
	write := func(text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, "scn"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(gd.File("scn/air"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(absentGolden)
	for _, editorLane := range []bool{false, true} {
		out := &Outcome{EditorLane: editorLane}
		if err := out.match(gd, "scn/air", []byte(absentOurs), devs, false); err != nil || len(out.LeftOut) != 4 || len(out.Deviations) != 1 {
			t.Errorf("editor lane %v: %v, %d lines left out, %d values masked", editorLane, err, len(out.LeftOut), len(out.Deviations))
		}
	}
	kept := strings.Replace(absentGolden, `"ref"`, `"ours"`, 1)
	var mm *golden.MismatchError
	out := &Outcome{}
	if err := out.match(gd, "scn/air", []byte(kept), devs, false); !errors.As(err, &mm) || mm.Kind != golden.Extra {
		t.Errorf("ours with the turn: err = %v, want extra lines", err)
	}
	if !strings.Contains(string(out.Expected), `"<task-1>"`) || strings.Contains(string(out.Expected), "turn-") {
		t.Errorf("Expected is not the golden as compared:\n%s", out.Expected)
	}
	write(strings.Replace(absentGolden, `"taskType":"turn"`, `"taskType":"shell"`, 1))
	if err := (&Outcome{}).match(gd, "scn/air", []byte(absentOurs), devs, false); !errors.Is(err, ErrDeviationGone) {
		t.Errorf("a golden without the turn: err = %v, want ErrDeviationGone", err)
	}
}

// TestRenumber: placeholders only left-out lines held give up their
// numbers; one that moves behind another is numbered after it; a kind not
// numbered by first appearance keeps its numbers.
func TestRenumber(t *testing.T) {
	orig := "a <uuid-1> <req-1>\nb <uuid-2> <uuid-3> <session-2>\nc <uuid-1> <req-2> <session-1>"
	kept := "b <uuid-2> <uuid-3> <session-2>\nc <uuid-1> <req-2> <session-1>"
	want := "b <uuid-1> <uuid-2> <session-2>\nc <uuid-3> <req-1> <session-1>"
	if got := renumber(orig, kept); got != want {
		t.Errorf("renumber = %q, want %q", got, want)
	}
	odd := "a <task-2>\nb <task-1>"
	if got := renumber(odd+"\nc <task-3>", odd); got != odd {
		t.Errorf("a kind numbered otherwise was renumbered: %q", got)
	}
}

// TestCommittedAbsentTurnTask: the committed entry-27 declaration leaves
// the reference's task of a turn Claude Code runs on its own (its spawn
// and its state update) out of each golden it names, and our transcript
// without them, its uuids numbered from the first, matches; one that keeps
// the task fails.
func TestCommittedAbsentTurnTask(t *testing.T) {
	devs := committedDeviations(t)
	for _, run := range []string{"bash-background/air", "background-tasks-changed/air", "cancel-before-first-chunk/air"} {
		t.Run(run, func(t *testing.T) {
			g, err := os.ReadFile(filepath.Join(goldensDir, run+golden.Suffix))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			gd := golden.New(dir, golden.WithUpdate(false))
			if err := os.MkdirAll(filepath.Dir(gd.File(run)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(gd.File(run), g, 0o644); err != nil {
				t.Fatal(err)
			}
			// Entry 26: a late output path goes out as progress.
			const refLate, ourLate = `"sessionUpdate":"async_task_state_update","state":"completed"}}}`, `"sessionUpdate":"async_task_progress"}}}`
			var all, kept []string
			for _, l := range strings.Split(string(ours(g)), "\n") {
				if strings.Contains(l, `"outputFilePath"`) && strings.HasSuffix(l, refLate) {
					l = strings.TrimSuffix(l, refLate) + ourLate
				}
				all = append(all, l)
				if !strings.Contains(l, `"asyncTaskId":"autonomous-turn-<uuid-1>"`) {
					kept = append(kept, l)
				}
			}
			if len(kept) != strings.Count(string(g), "\n")+1-2 {
				t.Fatalf("%s no longer holds the turn task's spawn and state update", run)
			}
			without := strings.ReplaceAll(strings.Join(kept, "\n"), "<uuid-2>", "<uuid-1>")
			out := &Outcome{}
			if err := out.match(gd, run, []byte(without), devs, false); err != nil || len(out.LeftOut) != 2 {
				t.Fatalf("ours without the turn task: %v, %d lines left out", err, len(out.LeftOut))
			}
			var mm *golden.MismatchError
			if err := (&Outcome{}).match(gd, run, []byte(strings.Join(all, "\n")), devs, false); !errors.As(err, &mm) {
				t.Errorf("ours with the turn task: err = %v, want a mismatch", err)
			}
		})
	}
}
