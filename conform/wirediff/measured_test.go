package wirediff

import (
	"strings"
	"testing"
)

const compaction = `client agent->editor {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"<session-1>","update":{"_meta":{"jetbrains":{"air":{"contextCompaction":{"durationMs":86,"postTokens":2508,"preTokens":22,"trigger":"manual","version":1}}}},"sessionUpdate":"tool_call_update","toolCallId":"<uuid-1>"}}}`

// TestMeasuredValuesMasked: a compaction's duration and token estimates,
// and a duration in a text, differ between two recordings by nature and
// raise nothing, as in a live conform run; its other values still do.
func TestMeasuredValuesMasked(t *testing.T) {
	remeasured := strings.NewReplacer(`"durationMs":86`, `"durationMs":99`, `"postTokens":2508`, `"postTokens":2572`,
		`"preTokens":22`, `"preTokens":980019`).Replace(compaction)
	text := strings.Replace(chunk, `"Hi"`, `"tool_uses: 1\nduration_ms: 2232"`, 1)
	old := run(t, initAIR, prompt, compaction, text, endTurn)
	new := run(t, initAIR, prompt, remeasured, strings.Replace(text, "2232", "1998", 1), endTurn)
	if r := Diff(old, new, nil); len(r.Findings) != 0 {
		t.Errorf("measured values raise findings: %q", rulesOf(r))
	}
	changed := run(t, initAIR, prompt, strings.Replace(remeasured, `"version":1`, `"version":2`, 1), text, endTurn)
	if got := rulesOf(Diff(old, changed, nil)); len(got) != 1 || !strings.HasSuffix(got[0], "contextCompaction.version") {
		t.Errorf("a changed version: %q", got)
	}
}
