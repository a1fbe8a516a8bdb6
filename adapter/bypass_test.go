package adapter

import "testing"

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
