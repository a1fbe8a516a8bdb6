package airmeta

import (
	"encoding/json"
	"testing"
)

// TestMergeKeepsOtherNamespaces: a payload lands at jetbrains.air.<key>
// next to version 1, and every other key of _meta, jetbrains and
// jetbrains.air stays (contract: "AIR metadata keys").
func TestMergeKeepsOtherNamespaces(t *testing.T) {
	meta := json.RawMessage(`{"claudeCode":{"toolName":"Bash"},"jetbrains":{"other":1,"air":{"commandTitle":"x"}},"steering":{"supported":true}}`)
	got := MergeJSON(meta, "permission", map[string]any{"version": 1, "title": "t"})
	want := `{"claudeCode":{"toolName":"Bash"},"jetbrains":{"air":{"commandTitle":"x","permission":{"title":"t","version":1},"version":1},"other":1},"steering":{"supported":true}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if string(Payload(got, "commandTitle")) != `"x"` {
		t.Errorf("payload: %s", Payload(got, "commandTitle"))
	}
	if string(MergeJSON(nil, "kind", "plan")) != `{"jetbrains":{"air":{"kind":"plan","version":1}}}` {
		t.Errorf("empty meta: %s", MergeJSON(nil, "kind", "plan"))
	}
}

// TestMergeDoesNotChangeItsInput: Merge works on copies.
func TestMergeDoesNotChangeItsInput(t *testing.T) {
	in := map[string]any{"jetbrains": map[string]any{"air": map[string]any{"a": 1}}}
	_ = Merge(in, "b", 2)
	if air := in["jetbrains"].(map[string]any)["air"].(map[string]any); len(air) != 1 {
		t.Errorf("input changed: %v", air)
	}
}
