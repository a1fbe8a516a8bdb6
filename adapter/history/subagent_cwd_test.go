package history

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/conform/scenario"
)

// TestSubagentCwdGolden reads the stored session of
// subagent-rfd-load-worktree as conform writes it: the child's directory
// is the one the reference announced it with in the golden, from the
// records of its transcript; without them, the metadata's worktreePath;
// metadata that places it nowhere gives none.
func TestSubagentCwdGolden(t *testing.T) {
	const name = "subagent-rfd-load-worktree"
	r := materialise(t, name)
	vars := scenario.ConfigFileVars(r.cwd, filepath.Join(filepath.Dir(r.cwd), "home"), r.configDir, time.Now())
	if err := r.sc.WriteConfigFiles(r.configDir, vars); err != nil {
		t.Fatal(err)
	}
	var want string
	for _, g := range readGolden(t, r.root, name, "plain") {
		var u struct {
			SessionUpdate string `json:"sessionUpdate"`
			Cwd           any    `json:"cwd"`
		}
		if json.Unmarshal(g.msg.Params.Update, &u) == nil && u.SessionUpdate == "subagent_update" {
			if cwd, ok := u.Cwd.(string); ok {
				want = strings.Replace(cwd, "<cwd>", r.cwd, 1)
				break
			}
		}
	}
	if want == "" {
		t.Fatal("the golden announces no child cwd")
	}
	transcript := sessionPath(t, r)
	if got := Subagents(transcript)["toolu_agent"].Cwd; got != want {
		t.Errorf("Cwd = %q, want the golden's %q", got, want)
	}
	sub := filepath.Join(strings.TrimSuffix(transcript, ".jsonl"), "subagents")
	files, _ := filepath.Glob(filepath.Join(sub, "agent-*.jsonl"))
	for _, f := range files {
		if err := os.WriteFile(f, []byte("{\"type\":\"user\",\"cwd\":\"relative\"}\nnot json\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if got := Subagents(transcript)["toolu_agent"].Cwd; got != want {
		t.Errorf("Cwd without records = %q, want the metadata's %q", got, want)
	}
	metas, _ := filepath.Glob(filepath.Join(sub, "agent-*.meta.json"))
	for _, f := range metas {
		if err := os.WriteFile(f, []byte(`{"toolUseId":"toolu_agent","worktreePath":"relative/wt"}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if got := Subagents(transcript)["toolu_agent"].Cwd; got != "" {
		t.Errorf("Cwd with a relative worktreePath = %q, want none", got)
	}
}

// sessionPath is the transcript of the run's stored session.
func sessionPath(t *testing.T, r *run) string {
	t.Helper()
	return scenario.SessionFile(r.configDir, r.cwd, r.sc.Transcript.SessionID)
}
