package agent

import (
	"strings"
	"testing"
)

// TestLogDevFull: /dev/full opens but takes no line; the agent refuses it
// at the start with the reason.
func TestLogDevFull(t *testing.T) {
	_, err := runAgentLog(t, "/dev/full", "", nil)
	if err == nil || !strings.Contains(err.Error(), "--log /dev/full: cannot write to it") {
		t.Fatalf("err = %v", err)
	}
}
