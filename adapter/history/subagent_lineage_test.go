package history

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestLineage places a nested agent: the session's transcript launched
// outer (toolu_outer), outer's transcript launched inner (toolu_inner); a
// sidechain row of the session's transcript is no launch of the session.
func TestLineage(t *testing.T) {
	dir := t.TempDir()
	transcript := filepath.Join(dir, "s.jsonl")
	sub := filepath.Join(dir, "s", "subagents")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(transcript, `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_outer","name":"Agent","input":{}}]}}
{"type":"assistant","isSidechain":true,"message":{"content":[{"type":"tool_use","id":"toolu_inner","name":"Agent","input":{}}]}}
`)
	write(filepath.Join(sub, "agent-aouter.meta.json"), `{"toolUseId":"toolu_outer","agentType":"Explore","description":"Outer"}`)
	write(filepath.Join(sub, "agent-ainner.meta.json"), `{"toolUseId":"toolu_inner","name":"inner-one"}`)
	write(filepath.Join(sub, "agent-aouter.jsonl"), `{"type":"assistant","agentId":"aouter","message":{"content":[{"type":"tool_use","id":"toolu_inner","name":"Task","input":{}}]}}
`)
	want := []LineageEntry{
		{AgentID: "aouter", LaunchID: "toolu_outer", AgentType: "Explore", Description: "Outer"},
		{AgentID: "ainner", LaunchID: "toolu_inner", ParentAgentID: "aouter", Name: "inner-one"},
	}
	if got := Lineage(transcript, "ainner"); !reflect.DeepEqual(got, want) {
		t.Errorf("Lineage(ainner) = %+v, want %+v", got, want)
	}
	if got := Lineage(transcript, "nobody"); got != nil {
		t.Errorf("Lineage(nobody) = %+v, want nil", got)
	}
	if got := LaunchedBy(transcript, "toolu_inner"); got != "ainner" {
		t.Errorf("LaunchedBy(toolu_inner) = %q, want ainner", got)
	}
	// outer's transcript lost: inner cannot be placed
	os.Remove(filepath.Join(sub, "agent-aouter.jsonl"))
	if got := Lineage(transcript, "ainner"); got != nil {
		t.Errorf("Lineage(ainner) without the launcher's transcript = %+v, want nil", got)
	}
}
