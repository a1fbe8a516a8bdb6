package agentprocs

import "testing"

func TestIsAgent(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"airwire", "agent"}, true},
		{[]string{"/usr/local/bin/airwire", "agent", "--log-level", "debug"}, true},
		{[]string{"airwire", "conform", "agent"}, false},
		{[]string{"airwire"}, false},
		{nil, false},
	} {
		if got := IsAgent(tc.args); got != tc.want {
			t.Errorf("IsAgent(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
