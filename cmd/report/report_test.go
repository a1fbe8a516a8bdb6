package report

import (
	"bytes"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/cmdutil"
	"github.com/airwire/airwire/cmd/factory"
	"github.com/airwire/airwire/reports"
)

// shard writes a shard report holding runs (id → status).
func shard(t *testing.T, i int, runs map[string]reports.Status) string {
	t.Helper()
	r := &reports.Report{Agent: "node dist/index.js", Shard: &reports.ShardSpec{Index: i, Total: 2}}
	for _, id := range slices.Sorted(maps.Keys(runs)) { // in one order: the duplicate named below is the first
		st := runs[id]
		sc, p, _ := strings.Cut(id, "/")
		run := reports.Run{Scenario: sc, Profile: p, Status: st, DurationMS: 1000}
		if st == reports.StatusFail || st == reports.StatusExpectedFail {
			run.Failure = &reports.Failure{Check: reports.CheckGolden, Message: "does not match"}
		}
		if st == reports.StatusExpectedFail {
			run.Baseline = &reports.Entry{Scenario: sc, Profile: p, Reason: "issue 9", File: "known.yaml", Line: 1}
		}
		r.Add(run)
	}
	path := filepath.Join(t.TempDir(), "shard.json")
	if err := r.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	return path
}

func runMergeCmd(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	f := factory.New("test", factory.WithIO(nil, &out, &bytes.Buffer{}))
	cmd := NewCmdReport(f)
	cmd.SetArgs(append([]string{"merge"}, args...))
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	err := cmd.Execute()
	return out.String(), err
}

func TestMerge(t *testing.T) {
	a := shard(t, 1, map[string]reports.Status{"read/air": reports.StatusPass, "read/zed": reports.StatusExpectedFail})
	b := shard(t, 2, map[string]reports.Status{"write-new/air": reports.StatusPass})
	dir := t.TempDir()
	json, junit, html := filepath.Join(dir, "r.json"), filepath.Join(dir, "junit.xml"), filepath.Join(dir, "html")
	out, err := runMergeCmd(t, a, b, "--json", json, "--junit", junit, "--html", html)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "3 runs from 2 reports: 2 pass, 0 fail, 1 expected-fail, 0 skip") {
		t.Errorf("stdout %q", out)
	}
	merged, err := reports.Read(json)
	if err != nil || merged.Summary.Total != 3 || merged.Shard != nil || merged.Runs[0].ID() != "read/air" {
		t.Fatalf("merged report %+v, %v", merged, err)
	}
	for _, f := range []string{junit, filepath.Join(html, reports.HTMLFile)} {
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}

	failed := shard(t, 2, map[string]reports.Status{"write-new/air": reports.StatusFail})
	if _, err := runMergeCmd(t, a, failed, "--json", json); !errors.Is(err, cmdutil.ErrMismatch) {
		t.Errorf("a failed run: err = %v, want a mismatch", err)
	}
	var fe *cmdutil.FlagError
	if _, err := runMergeCmd(t, a, a, "--json", json); !errors.As(err, &fe) || !strings.Contains(err.Error(), "read/air is in report 1 and report 2") {
		t.Errorf("a run twice: err = %v", err)
	}
	if _, err := runMergeCmd(t, a); !errors.As(err, &fe) || !strings.Contains(err.Error(), "nothing to write") {
		t.Errorf("no output: err = %v", err)
	}
}
