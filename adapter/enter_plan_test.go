package adapter

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/airwire/airwire/adapter/claude"
)

// cassetteHooks returns the hook callbacks the CLI sent in a recorded run.
func cassetteHooks(t *testing.T, scenario, profile string) []claude.HookCallback {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot(t), "goldens", scenario, profile+".cassette"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []claude.HookCallback
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e struct {
			Dir string `json:"dir"`
			Msg struct {
				Type    string `json:"type"`
				Request struct {
					Subtype string `json:"subtype"`
					claude.HookCallback
				} `json:"request"`
			} `json:"msg"`
		}
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Dir == "cli" && e.Msg.Request.Subtype == "hook_callback" {
			out = append(out, e.Msg.Request.HookCallback)
		}
	}
	return out
}

// In the recorded run the real CLI's PostToolUse hook of EnterPlanMode is
// the one hook that moves the session to plan mode (the golden's
// current_mode_update follows it); the other hooks of that run and of a
// Skill run do not, nor does a subagent's EnterPlanMode.
func TestEntersPlanMode(t *testing.T) {
	hooks := cassetteHooks(t, "enter-plan-mode", "plain") // one PostToolUse callback: the agent's own
	entered := 0
	for _, h := range hooks {
		if entersPlanMode(h.Input) {
			entered++
			if h.ToolUseID != "toolu_plan" {
				t.Errorf("plan mode entered by the hook of %q", h.ToolUseID)
			}
			sub := h.Input
			sub.AgentID = "a1"
			if entersPlanMode(sub) {
				t.Error("a subagent's EnterPlanMode moved the session to plan mode")
			}
		}
	}
	if entered != 1 {
		t.Errorf("%d of %d hooks enter plan mode, want 1", entered, len(hooks))
	}
	for _, h := range cassetteHooks(t, "skill", "plain") {
		if entersPlanMode(h.Input) {
			t.Errorf("a %s hook of %s entered plan mode", h.Input.HookEventName, h.Input.ToolName)
		}
	}
}
