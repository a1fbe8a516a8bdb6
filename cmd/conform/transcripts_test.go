package conform

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/diff"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/golden"
	"github.com/airwire/airwire/reports"
)

// goldenReport is a report of 344 runs of the checkout's goldens, every
// one failing as conform reports it (failureOf): each run is its golden
// with the default mode changed ("auto" to "default", in the session's
// config options and the CLI's argv) and, with stop, every end_turn a
// cancelled; a golden neither touches gets one extra line.
func goldenReport(t *testing.T, stop bool) *reports.Report {
	files, err := filepath.Glob(filepath.Join(repoRoot(t), "goldens", "*", "*.golden"))
	if err != nil || len(files) < 344 {
		t.Fatalf("%d goldens: %v", len(files), err)
	}
	r := &reports.Report{Agent: "node dist/index.js", Sections: []string{"Goal"}}
	for _, file := range files[:344] {
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		got := bytes.ReplaceAll(want, []byte(`"currentValue":"auto"`), []byte(`"currentValue":"default"`))
		got = bytes.ReplaceAll(got, []byte(`--permission-mode=auto`), []byte(`--permission-mode=default`))
		if stop {
			got = bytes.ReplaceAll(got, []byte(`"stopReason":"end_turn"`), []byte(`"stopReason":"cancelled"`))
		}
		if bytes.Equal(got, want) {
			got = append(got, "client agent->editor {\"jsonrpc\":\"2.0\",\"method\":\"_x/extra\",\"params\":{}}\n"...)
		}
		mm := golden.Compare(file, want, got)
		if mm == nil {
			t.Fatalf("%s: no difference", file)
		}
		profile := strings.TrimSuffix(filepath.Base(file), ".golden")
		r.Add(reports.Run{Scenario: filepath.Base(filepath.Dir(file)), Profile: profile, Status: reports.StatusFail,
			Golden: file, Transcript: lines(got), Failure: failureOf(outcome{err: mm, out: &conform.Outcome{Compared: got}}, file, nil)})
	}
	r.Sort()
	r.Group()
	return r
}

// TestGoldenReportIsSmallAndDiffs: a JSON report of 344 failed runs of
// the real goldens, their transcripts beside it, is under 5 MB, and
// "airwire diff" of two such reports still finds the changes between
// their transcripts (every end_turn that became cancelled), read back
// from the folders.
func TestGoldenReportIsSmallAndDiffs(t *testing.T) {
	dir := t.TempDir()
	oldPath, newPath := filepath.Join(dir, "old.json"), filepath.Join(dir, "new.json")
	if err := goldenReport(t, false).WriteJSON(oldPath); err != nil {
		t.Fatal(err)
	}
	if err := goldenReport(t, true).WriteJSON(newPath); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(oldPath)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() >= 5<<20 {
		t.Errorf("the report is %d bytes, over 5 MB", st.Size())
	}
	t.Logf("old.json: %d bytes, its transcripts: %d bytes", st.Size(), dirSize(t, reports.TranscriptsDir(oldPath)))
	var out bytes.Buffer
	f := factory.New("test", factory.WithIO(&bytes.Buffer{}, &out, &bytes.Buffer{}), factory.WithEnv(nil))
	cmd := diff.NewCmdDiff(f, nil)
	cmd.SetArgs([]string{oldPath, newPath})
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	err = cmd.Execute()
	if !errors.Is(err, cmdutil.ErrMismatch) || !strings.Contains(out.String(), `$.result.stopReason`) || !strings.Contains(out.String(), `"cancelled"`) {
		t.Errorf("airwire diff: err = %v, output:\n%.2000s", err, out.String())
	}
}

func dirSize(t *testing.T, dir string) int64 {
	var n int64
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		n += info.Size()
	}
	return n
}
