package subagents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/airwire/airwire/adapter/claude/claudetest"
)

// TestRFDChildCwd: a hook's `cwd` that is the parent's is not reported; one
// named before the announcement goes in it; a later other directory goes
// in a `subagent_update`, once; the parent's directory again, even spelled
// through a symlink, is `cwd: null`; a relative `cwd` is ignored.
func TestRFDChildCwd(t *testing.T) {
	root := t.TempDir()
	tree := filepath.Join(root, "tree")
	if err := os.Mkdir(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	var got []string
	r := newRouter(true, "root", func(_ string, u any) {
		m, ok := u.(map[string]any)
		if !ok || m["sessionUpdate"] != "subagent_update" {
			return
		}
		if cwd, has := m["cwd"]; has {
			raw, _ := json.Marshal(cwd)
			got = append(got, string(raw))
		} else if _, announce := m["capabilities"]; announce {
			got = append(got, "announced without cwd")
		}
	}, nil)
	r.rfd, r.form.cwd = true, root
	hook := func(agent, cwd string) {
		r.HookReport(json.RawMessage(`{"agent_id":"` + agent + `","cwd":"` + cwd + `","hook_event_name":"PreToolUse"}`))
	}
	start := func(task string) {
		r.Frame(claudetest.Frame(`{"subtype":"task_started","task_id":"` + task + `","subagent_type":"Explore"}`))
	}
	hook("a1", root)
	start("a1")
	hook("a2", tree)
	start("a2")
	hook("a1", tree)
	hook("a1", tree)
	hook("a1", link)
	hook("a1", "relative")
	want := []string{"announced without cwd", `"` + tree + `"`, `"` + tree + `"`, "null"}
	if !slices.Equal(got, want) {
		t.Errorf("cwd reports = %v, want %v", got, want)
	}
}
