package adapter

import (
	"encoding/json"
	"testing"
)

// TestBypassAllowed: the Claude CLI's rule for
// --allow-dangerously-skip-permissions as root: IS_SANDBOX exactly 1, or
// CLAUDE_CODE_BUBBLEWRAP set. IS_SANDBOX=yes made every session/new fail
// (the CLI refuses the flag); now the flag is not passed.
func TestBypassAllowed(t *testing.T) {
	tests := []struct {
		uid  int
		env  map[string]string
		want bool
	}{
		{1000, nil, true},
		{-1, nil, true}, // Windows
		{0, nil, false},
		{0, map[string]string{"IS_SANDBOX": "1"}, true},
		{0, map[string]string{"IS_SANDBOX": "yes"}, false},
		{0, map[string]string{"IS_SANDBOX": "true"}, false},
		{0, map[string]string{"CLAUDE_CODE_BUBBLEWRAP": "1"}, true},
		{1000, map[string]string{"IS_SANDBOX": "yes"}, true},
	}
	for _, tt := range tests {
		if got := bypassAllowed(tt.uid, func(k string) string { return tt.env[k] }); got != tt.want {
			t.Errorf("uid %d, env %v: bypass allowed = %v, want %v", tt.uid, tt.env, got, tt.want)
		}
	}
}

// Contract "Permission modes": only allowDangerouslySkipPermissions false
// in the session's _meta removes Bypass permissions; true, absent or a
// malformed _meta keeps the agent's own rule. Pinned on the wire by the
// permission-bypass-removed scenario.
func TestHostRemovesBypass(t *testing.T) {
	for meta, want := range map[string]bool{
		`{"claudeCode":{"options":{"allowDangerouslySkipPermissions":false}}}`: true,
		`{"claudeCode":{"options":{"allowDangerouslySkipPermissions":true}}}`:  false,
		`{"claudeCode":{"options":{}}}`:                                        false,
		``:                                                                     false,
		`[1]`:                                                                  false,
	} {
		if got := hostRemovesBypass(json.RawMessage(meta)); got != want {
			t.Errorf("%s: %v, want %v", meta, got, want)
		}
	}
}
