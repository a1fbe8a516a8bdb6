package adapter

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maskMutation puts back, in one file, a behaviour that a narrowed
// declared deviation (goldens/agent-deviations.json) must not hide, and
// names the replay run that must then fail.
type maskMutation struct {
	name     string
	entry    int // the goldens/DEVIATIONS.md entry whose mask is tested
	file     string
	edits    [][2]string // each from occurs exactly once in file
	scenario string
	profile  string
}

var maskMutations = []maskMutation{
	{name: "customInstructions advertised", entry: 10, file: "adapter/agentinfo/negotiation.go",
		edits:    [][2]string{{"\tcaps.AsyncTasks,\n\tcaps.RecommendedValue,", "\tcaps.AsyncTasks,\n\t\"customInstructions\",\n\tcaps.RecommendedValue,"}},
		scenario: "text-and-thinking", profile: "air"},
	{name: "planFile not advertised", entry: 10, file: "adapter/agentinfo/negotiation.go",
		edits:    [][2]string{{"\tcaps.PlanFile,\n\tBackgroundSubagents,", "\tBackgroundSubagents,"}},
		scenario: "text-and-thinking", profile: "air"},
	{name: "sessionBatchGet advertised", entry: 11, file: "adapter/agentinfo/negotiation.go",
		edits:    [][2]string{{`{caps.SessionIndex, "sessionArchive",`, `{caps.SessionIndex, "sessionBatchGet", "sessionArchive",`}},
		scenario: "session-rename", profile: "air"},
	{name: "sessionRename not advertised", entry: 11, file: "adapter/agentinfo/negotiation.go",
		edits:    [][2]string{{`"sessionArchive", "sessionRename", "sessionListSubscribe"}`, `"sessionArchive", "sessionListSubscribe"}`}},
		scenario: "session-list-paging", profile: "air"},
	{name: "the reference's jetbrains.air.mcp", entry: 12, file: "adapter/toolcall/air_tool_call_contract.go",
		edits: [][2]string{
			{"type AIRMeta struct {\n", "type AIRMeta struct {\n\tMCP map[string]string `json:\"mcp,omitempty\"`\n"},
			{"\ta := AIRMeta{}\n", "\ta := AIRMeta{}\n\tif s, tool, ok := strings.Cut(strings.TrimPrefix(use.Name, \"mcp__\"), \"__\"); ok && isMCPTool(use.Name) {\n\t\ta.MCP = map[string]string{\"server\": s, \"tool\": tool}\n\t}\n"},
			{"a.Skill == nil {\n\t\treturn", "a.Skill == nil && a.MCP == nil {\n\t\treturn"},
		},
		scenario: "mcp-tool", profile: "air"},
	{name: "another key in an MCP tool call's jetbrains.air", entry: 12, file: "adapter/toolcall/air_tool_call_contract.go",
		edits:    [][2]string{{"\tif a.CommandTitle == \"\" && !a.Subagent", "\tif isMCPTool(use.Name) {\n\t\ta.CommandTitle = use.Name\n\t}\n\tif a.CommandTitle == \"\" && !a.Subagent"}},
		scenario: "mcp-elicitation", profile: "air"},
	{name: "failure title keeps the address", entry: 15, file: "adapter/sessionfailure/title.go",
		edits:    [][2]string{{"[]*lazyre.Regexp{urlRE, tokenRE, addressRE, pathRE}", "[]*lazyre.Regexp{}"}},
		scenario: "session-failure-overloaded-retries", profile: "air"},
	{name: "notice id reuses the previous number", entry: 16, file: "adapter/sessionfailure/session_failure.go",
		edits:    [][2]string{{"\"%s:notice:%s:%d\", s.sessionID, s.epoch, s.next)", "\"%s:notice:%s:%d\", s.sessionID, s.epoch, s.next-1)"}},
		scenario: "model-refusal-fallback", profile: "air"},
	{name: "revision does not rise", entry: 16, file: "adapter/sessionfailure/session_failure.go",
		edits:    [][2]string{{"\ts.revisions[id]++\n", "\ts.revisions[id] = 1\n"}},
		scenario: "rate-limit-429-retries", profile: "air"},
	{name: "replayed failure loses its live id", entry: 16, file: "adapter/sessionfailure/session_failure.go",
		edits:    [][2]string{{"\tid := turnID + \":error\"\n\tif turnID == \"\" {", "\tid := s.sessionID + \":history-error:\" + messageUUID\n\tif false {"}},
		scenario: "session-failure-replayed-usage-limit", profile: "air"},
	{name: "prompt without a uuid", entry: 16, file: "adapter/prompt.go",
		edits:    [][2]string{{"\tt.promptUUID = msg.UUID\n", "\tmsg.UUID = \"\"\n\tt.promptUUID = msg.UUID\n"}},
		scenario: "text-and-thinking", profile: "air"},
	{name: "prompt without a uuid in a retry run", entry: 16, file: "adapter/prompt.go",
		edits:    [][2]string{{"\tt.promptUUID = msg.UUID\n", "\tmsg.UUID = \"\"\n\tt.promptUUID = msg.UUID\n"}},
		scenario: "rate-limit-429-retries", profile: "air"},
}

// TestMaskMutations: each narrowed declaration masks only the difference
// it declares. For each mutation (our agent's old or a wrong behaviour put
// back with go build -overlay), the named run passes on the unmutated
// source and fails on the mutant.
func TestMaskMutations(t *testing.T) {
	if testing.Short() {
		t.Skip("builds one airwire per mutation; not in -short")
	}
	root := repoRoot(t)
	tmp := t.TempDir()
	clean := buildWithOverlay(t, root, tmp, "clean", nil)
	passed := map[string]bool{}
	for i, m := range maskMutations {
		t.Run(m.name, func(t *testing.T) {
			run := gateMutation{scenario: m.scenario, profile: m.profile}
			if key := m.scenario + "/" + m.profile; !passed[key] {
				if out, err := conformRun(clean, run); err != nil {
					t.Fatalf("%s fails without the mutation: %v\n%s", key, err, out)
				}
				passed[key] = true
			}
			bin := buildWithOverlay(t, root, tmp, "mask"+string(rune('a'+i)), maskOverlay(t, root, tmp, i, m))
			out, err := conformRun(bin, run)
			if err == nil || !strings.Contains(out, "FAIL "+m.scenario+"/"+m.profile) {
				t.Fatalf("the mutation is hidden by entry %d's mask: %s/%s passes: %v\n%s", m.entry, m.scenario, m.profile, err, out)
			}
			t.Log(failureCause(out))
		})
	}
}

// maskOverlay writes m's mutated file and the overlay that swaps it in.
func maskOverlay(t *testing.T, root, tmp string, i int, m maskMutation) []string {
	t.Helper()
	src := filepath.Join(root, m.file)
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range m.edits {
		if n := bytes.Count(b, []byte(e[0])); n != 1 {
			t.Fatalf("%s holds %q %d times, want once: update the mutation", m.file, e[0], n)
		}
		b = bytes.Replace(b, []byte(e[0]), []byte(e[1]), 1)
	}
	mutated := filepath.Join(tmp, "maskmut", string(rune('a'+i))+"_"+filepath.Base(m.file))
	_ = os.MkdirAll(filepath.Dir(mutated), 0o755)
	if err := os.WriteFile(mutated, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ov, _ := json.Marshal(map[string]any{"Replace": map[string]string{src: mutated}})
	path := filepath.Join(tmp, "maskoverlay-"+string(rune('a'+i))+".json")
	if err := os.WriteFile(path, ov, 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{"-overlay", path}
}

// failureCause is the line after a run's "--- FAIL" header: why it failed.
func failureCause(out string) string {
	_, after, _ := strings.Cut(out, "--- FAIL ")
	lines := strings.SplitN(after, "\n", 3)
	if len(lines) < 2 {
		return ""
	}
	return lines[1]
}
