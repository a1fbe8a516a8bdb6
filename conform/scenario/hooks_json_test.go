package scenario

import (
	"encoding/json"
	"testing"
)

// The fake CLI reads its script as JSON: an empty hook list ("send none")
// must not turn into nil ("send PostToolUse") on the way.
func TestToolHooksSurviveJSON(t *testing.T) {
	for name, hooks := range map[string][]string{"nil": nil, "empty": {}, "both": {HookPostToolUse, "PreToolUse"}} {
		b, err := json.Marshal(ToolStep{Hooks: hooks})
		if err != nil {
			t.Fatal(err)
		}
		var back ToolStep
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if (back.Hooks == nil) != (hooks == nil) || len(back.Hooks) != len(hooks) {
			t.Fatalf("%s: %v came back as %v (%s)", name, hooks, back.Hooks, b)
		}
	}
}
