package adapter

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gateMutation removes one gate of the AIR extensions from the source and
// names the check that must then fail: a scenario run of `airwire conform`
// against the mutated agent (scenario, profile), or a package's unit tests
// (pkg, run). issue 9: "for at least ten gates, removing the gate fails a
// named scenario".
type gateMutation struct {
	name      string
	file      string // relative to the repository root
	from, to  string // from occurs exactly once in file
	scenario  string
	profile   string
	pkg, run  string
	rationale string
}

var gateMutations = []gateMutation{
	{name: "commandTitle only for AIR", file: "adapter/toolcall/air_tool_call_contract.go",
		from: "\tif !r.air() {\n\t\treturn\n\t}\n\tin := parseInput(use.Input)\n\ta := AIRMeta{}", to: "\tin := parseInput(use.Input)\n\ta := AIRMeta{}",
		scenario: "bash-foreground", profile: "zed", rationale: "Zed gets no _meta.jetbrains (Compatibility rule)"},
	{name: "diffPatch capability", file: "adapter/toolcall/air_tool_call_contract.go",
		from: "return r.Caps.AIR.Client && r.Caps.AIR.Has(caps.DiffPatch)", to: "return r.Caps.AIR.Client",
		scenario: "edit-without-diff-patch", profile: "air", rationale: "an AIR client without diffPatch gets the plain diff (Diff patch, Activation)"},
	{name: "session failure revision bump", file: "adapter/sessionfailure/session_failure.go",
		from: "\ts.revisions[id]++\n", to: "\ts.revisions[id] = 1\n",
		pkg: "./adapter/sessionfailure/", run: ".", rationale: "a record's revision rises (Identity and revisions)"},
	{name: "fork point lookup order", file: "adapter/history/fork_point.go",
		from: "\tif live != nil {\n", to: "\tif live != nil && false {\n",
		pkg: "./adapter/history/", run: "TestResolveForkPointOrder", rationale: "the live session is asked first (Session fork point)"},
	{name: "fork point with no match", file: "adapter/session_fork_point.go",
		from: "\tif !ok {\n\t\tdata, _ :=", to: "\tif false {\n\t\tdata, _ :=",
		scenario: "fork-point-no-match", profile: "air", rationale: "no match is invalidParams (Session fork point)"},
	{name: "asyncTasks capability", file: "adapter/asynctasks/frames.go",
		from:     "func (r *Tasks) userFrame(m *claude.Frame) {\n\tif !r.enabled {\n\t\treturn\n\t}\n",
		to:       "func (r *Tasks) userFrame(m *claude.Frame) {\n",
		scenario: "bash-background", profile: "zed", rationale: "the backgrounded marker needs asyncTasks (Async tasks)"},
	{name: "async task only from structured data", file: "adapter/asynctasks/frames.go",
		from: "\tf := taskEventOf(line)\n\tswitch subtype {",
		to: "\tif subtype == \"session_state_changed\" && line.State == \"running\" {\n\t\tt := r.task(\"autonomous-turn\")\n" +
			"\t\tt.startedObserved, t.name, t.taskType = true, \"Claude is working\", \"turn\"\n\t\tr.announce(t, announceOpts{withoutToolCall: true})\n\t}\n" +
			"\tf := taskEventOf(line)\n\tswitch subtype {",
		scenario: "bash-background", profile: "air", rationale: "a turn Claude Code runs on its own is no async task (Async tasks; DEVIATIONS.md 27)"},
	{name: "contextCompaction only for AIR", file: "adapter/compaction/lifecycle.go",
		from: "air: c.AIR.Client}", to: "air: true}",
		scenario: "compaction-legacy", profile: "zed", rationale: "a client that is not AIR gets no contextCompaction key (Context compaction)"},
	{name: "skill command keys only for AIR", file: "adapter/session.go",
		from: "\tif !s.agent.clientCaps().AIR.Client {\n\t\ts.notify(sessionconfig.CommandsUpdate(cmds))", to: "\tif false {\n\t\ts.notify(sessionconfig.CommandsUpdate(cmds))",
		scenario: "skill", profile: "zed", rationale: "kind/skillPath are AIR metadata keys"},
	{name: "AIR _meta key filter", file: "adapter/toolcall/session.go",
		from: "\tif s.render.air() && !s.metaFilter.apply(&u) {\n\t\treturn out\n\t}", to: "",
		scenario: "bash-background", profile: "air", rationale: "AIR gets no unchanged _meta key (Tool call contract)"},
	{name: "sessionFailure capability", file: "adapter/session_failure.go",
		from: "on: s.agent.clientCaps().AIR.Has(caps.SessionFailure)", to: "on: s.agent.clientCaps().AIR.Client",
		scenario: "session-failure-without-capability", profile: "air", rationale: "no sessionFailure record without the capability (Session failure)"},
	{name: "agent declaration only for AIR", file: "adapter/agentinfo/negotiation.go",
		from: "\tif !c.AIR.Client {\n\t\treturn meta\n\t}\n\tmeta = airmeta.Merge(meta, \"capabilities\"", to: "\tmeta = airmeta.Merge(meta, \"capabilities\"",
		scenario: "text-and-thinking", profile: "plain", rationale: "no _meta.jetbrains key for a client that is not AIR (Negotiation)"},
	{name: "prompt suggestions only for AIR", file: "adapter/session_info.go",
		from: "\tif !air {\n\t\treturn nil\n\t}\n\tp.published = text", to: "\tp.published = text",
		scenario: "prompt-suggestion", profile: "zed", rationale: "promptSuggestions is an AIR key"},
	{name: "dialog kinds only with form elicitation", file: "adapter/start.go",
		from: "\tif !c.FormElicit {\n\t\treturn nil\n\t}\n\treturn []string{permission.DialogRefusalFallback}", to: "\treturn []string{permission.DialogRefusalFallback}",
		scenario: "ask-user-question", profile: "air-no-form", rationale: "only a form can present the refusal-fallback prompt"},
	{name: "CLI notices with session.notices", file: "adapter/translator.go",
		from: "\tif t.s.agent.clientCaps().Notices {\n\t\tt.informationalNotice(m)\n\t\treturn\n\t}\n", to: "",
		scenario: "ask-user-question", profile: "zed-notices", rationale: "a CLI warning is a notice update for a client with session notices (Session failure, Delivery)"},
	{name: "boolean config options only when declared", file: "adapter/start.go",
		from: "BooleanOptions: c.BooleanOptions,", to: "BooleanOptions: true,",
		scenario: "set-config-option", profile: "zed", rationale: "Fast mode and Ultracode are On/Off selects for a client without session.configOptions.boolean"},
	{name: "approved plan after a clear-context restart only with plan", file: "adapter/clear_context.go",
		from: "if c := s.agent.clientCaps(); c.Plan {", to: "if c := s.agent.clientCaps(); true {",
		scenario: "exit-plan-clear-context", profile: "zed", rationale: "plan_update goes only to a client that declares plan"},
	{name: "approved plan only with plan", file: "adapter/toolcall/approved_plan.go",
		from: "!r.Caps.Plan || ", to: "",
		scenario: "exit-plan-approve", profile: "zed", rationale: "plan_update goes only to a client that declares plan"},
}

// TestGateMutations builds airwire with each gate removed (go build
// -overlay, so the tree is never touched) and checks that its named check
// fails, while the same check passes on the unmutated source.
func TestGateMutations(t *testing.T) {
	if testing.Short() {
		t.Skip("builds one airwire per gate; not in -short")
	}
	root := repoRoot(t)
	tmp := t.TempDir()
	clean := buildWithOverlay(t, root, tmp, "clean", nil)
	for i, m := range gateMutations {
		t.Run(m.name, func(t *testing.T) {
			overlay := mutatedOverlay(t, root, tmp, i, m)
			if m.pkg != "" {
				if out, err := goTest(root, nil, m.pkg, m.run); err != nil {
					t.Fatalf("the unit tests fail without the mutation: %v\n%s", err, out)
				}
				if out, err := goTest(root, overlay, m.pkg, m.run); err == nil {
					t.Fatalf("removing the gate (%s) fails no test of %s:\n%s", m.rationale, m.pkg, out)
				}
				return
			}
			if out, err := conformRun(clean, m); err != nil {
				t.Fatalf("%s/%s fails without the mutation: %v\n%s", m.scenario, m.profile, err, out)
			}
			bin := buildWithOverlay(t, root, tmp, "mut"+string(rune('a'+i)), overlay)
			out, err := conformRun(bin, m)
			if err == nil || !strings.Contains(out, "FAIL "+m.scenario+"/"+m.profile) {
				t.Fatalf("removing the gate (%s) does not fail %s/%s: %v\n%s", m.rationale, m.scenario, m.profile, err, out)
			}
		})
	}
}

// mutatedOverlay writes the mutated copy of m.file and the overlay file
// that swaps it in, and returns the overlay's path.
func mutatedOverlay(t *testing.T, root, tmp string, i int, m gateMutation) []string {
	t.Helper()
	src := filepath.Join(root, m.file)
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte(m.from)); n != 1 {
		t.Fatalf("%s holds the gate %q %d times, want once: update the mutation", m.file, m.from, n)
	}
	mutated := filepath.Join(tmp, "mutant", strings.ReplaceAll(m.file, "/", "_"))
	_ = os.MkdirAll(filepath.Dir(mutated), 0o755)
	if err := os.WriteFile(mutated, bytes.Replace(b, []byte(m.from), []byte(m.to), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	ov, _ := json.Marshal(map[string]any{"Replace": map[string]string{src: mutated}})
	path := filepath.Join(tmp, "overlay-"+string(rune('a'+i))+".json")
	if err := os.WriteFile(path, ov, 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{"-overlay", path}
}

func buildWithOverlay(t *testing.T, root, tmp, name string, overlay []string) string {
	t.Helper()
	bin := filepath.Join(tmp, name)
	args := append([]string{"build"}, overlay...)
	cmd := exec.Command("go", append(args, "-o", bin, "./cmd/airwire")...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %v: %v\n%s", overlay, err, out)
	}
	return bin
}

func goTest(root string, overlay []string, pkg, run string) (string, error) {
	args := append([]string{"test", "-count=1"}, overlay...)
	cmd := exec.Command("go", append(args, "-run", run, pkg)...)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// conformRun replays m's scenario against bin's own agent, without the
// schema validation (the golden comparison is what the gate is judged by).
func conformRun(bin string, m gateMutation) (string, error) {
	cmd := exec.Command(bin, "conform", "--agent", bin+" agent", "--scenario", m.scenario, "--profile", m.profile,
		"--no-validate", "--jobs", "1", "--run-timeout", "60s")
	out, err := cmd.CombinedOutput()
	return string(out), err
}
