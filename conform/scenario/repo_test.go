package scenario

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/testroot"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	return testroot.Root(t)
}

// referenceBehaviours are the 40 scenarios of the reference adapter's own
// suite (research/claude-agent-acp.md §3); each must have a scenario file.
var referenceBehaviours = []string{
	"ask-user-question", "async-task-ends-before-tool-id", "async-task-held-until-tool-id", "async-task-released-at-turn-end",
	"bash-background", "bash-error", "bash-foreground", "compaction-failed-legacy", "compaction-legacy", "compaction-update",
	"edit-rejected", "edit-with-permission", "exit-plan-approve", "exit-plan-reject", "goal", "grep-and-glob", "mcp-tool",
	"memory-recall", "network-permission", "notebook-edit", "permission-denied", "rate-limit-and-origin", "read",
	"session-load-replay", "session-setup", "skill", "subagent-agent-async", "subagent-late-child-update",
	"subagent-native-sessions", "subagent-nested", "subagent-task-legacy", "subagent-transcript-extension",
	"task-create-update", "task-output-and-stop", "text-and-thinking", "todo-write", "tool-progress",
	"web-fetch-and-search", "write-existing", "write-new",
}

func TestRepositoryScenarios(t *testing.T) {
	scs, err := LoadDir(filepath.Join(repoRoot(t), "scenarios"))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*Scenario{}
	for _, sc := range scs {
		byName[sc.Name] = sc
	}
	for _, name := range referenceBehaviours {
		if byName[name] == nil {
			t.Errorf("reference behaviour %s has no scenario", name)
		}
	}
	extra := len(scs) - len(referenceBehaviours)
	if len(scs) < 60 || extra < 20 {
		t.Errorf("%d scenarios (%d beyond the reference's 40), want at least 60 and 20", len(scs), extra)
	}
	covered := map[string]bool{}
	for _, sc := range scs {
		for _, c := range sc.Covers {
			covered[c] = true
		}
	}
	for _, sec := range []string{"Session index", "Session fork point", "Agent file-change report", "Session failure",
		"Recommended config values", "Presentation hints", "Removed keys", "Goal", "Async tasks"} {
		if !covered[sec] {
			t.Errorf("no scenario covers %q", sec)
		}
	}
}

// TestSubsectionCoverage: every contract subsection is named by a
// scenario's covers or listed in Uncovered with its reason, never both.
func TestSubsectionCoverage(t *testing.T) {
	scs, err := LoadDir(filepath.Join(repoRoot(t), "scenarios"))
	if err != nil {
		t.Fatal(err)
	}
	coveredBy := map[string][]string{}
	for _, sc := range scs {
		for _, c := range sc.Covers {
			coveredBy[c] = append(coveredBy[c], sc.Name)
		}
	}
	for _, sub := range AllSubsections() {
		_, listed := Uncovered.Get(sub)
		switch by := coveredBy[sub]; {
		case len(by) == 0 && !listed:
			t.Errorf("%q: no scenario covers it and Uncovered gives no reason", sub)
		case len(by) > 0 && listed:
			t.Errorf("%q: covered by %v, remove it from Uncovered", sub, by)
		}
	}
	for _, row := range Uncovered {
		sub, reason := row[0], row[1]
		if !IsSubsection(sub) || strings.TrimSpace(reason) == "" {
			t.Errorf("Uncovered[%q]: not a subsection, or no reason", sub)
		}
	}
}

// TestOutline: every section, each followed by its own subsections.
func TestOutline(t *testing.T) {
	out := Outline()
	if len(out) != len(Sections)+len(AllSubsections()) {
		t.Fatalf("Outline has %d rows, want %d sections + %d subsections", len(out), len(Sections), len(AllSubsections()))
	}
	current := ""
	for _, row := range out {
		sec, _, isSub := strings.Cut(row, SubsectionSep)
		if !isSub {
			current = row
			continue
		}
		if sec != current || !IsSubsection(row) {
			t.Errorf("subsection %q is not under its section (after %q)", row, current)
		}
	}
}
