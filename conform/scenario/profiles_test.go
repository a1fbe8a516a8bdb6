package scenario

import (
	"encoding/json"
	"strings"
	"testing"
)

func must(caps map[string]any, err error) map[string]any {
	if err != nil {
		panic(err)
	}
	return caps
}

// TestProfileDeclarations pins what each profile of conform/scenario/profiles.yaml
// declares: the three default profiles exactly as their goldens record
// them, and each variant as its base with its change.
func TestProfileDeclarations(t *testing.T) {
	const airList = `["nativeSubagentSessions","asyncTasks","sessionFailure","recommendedValue","diffPatch","rawInputRendering","planContentDelta","planFile","agentFileChangeReport"]`
	for _, tt := range []struct {
		p    Profile
		want string
	}{
		{"plain", `{"elicitation":{"form":{}},"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true}`},
		{"zed", `{"_meta":{"terminal-auth":true,"terminal_output":true},"auth":{"terminal":true},"elicitation":{"form":{}},"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true}`},
		{"air", `{"_meta":{"jetbrains":{"air":{"capabilities":` + airList + `,"version":1}},"terminal_output":true,"terminal_output_delta":true},"elicitation":{"form":{}},"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true}`},
		{"air-minimal", `{"_meta":{"jetbrains":{"air":{"capabilities":[],"version":1}},"terminal_output":true},"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true}`},
		{"air-no-form", `{"_meta":{"jetbrains":{"air":{"capabilities":` + airList + `,"version":1}},"terminal_output":true,"terminal_output_delta":true},"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true}`},
		{"zed-notices", `{"_meta":{"terminal-auth":true,"terminal_output":true},"auth":{"terminal":true},"elicitation":{"form":{}},"fs":{"readTextFile":true,"writeTextFile":true},"session":{"notices":{}},"terminal":true}`},
		{"air-notices", `{"_meta":{"jetbrains":{"air":{"capabilities":` + airList + `,"version":1}},"terminal_output":true,"terminal_output_delta":true},"elicitation":{"form":{}},"fs":{"readTextFile":true,"writeTextFile":true},"session":{"notices":{}},"terminal":true}`},
		{"zed-drafts", `{"_meta":{"terminal-auth":true,"terminal_output":true},"auth":{"terminal":true},"elicitation":{"form":{}},"fs":{"readTextFile":true,"writeTextFile":true},"plan":{},"session":{"compaction":{},"configOptions":{"boolean":{}}},"terminal":true}`},
		{"plain-drafts", `{"elicitation":{"form":{}},"fs":{"readTextFile":true,"writeTextFile":true},"plan":{},"session":{"compaction":{},"configOptions":{"boolean":{}}},"terminal":true}`},
		// ACP v2 has no client file system and no client terminals.
		{"plain-v2", `{"elicitation":{"form":{}}}`},
		{"air-v2", `{"_meta":{"jetbrains":{"air":{"capabilities":` + airList + `,"version":1}}},"elicitation":{"form":{}}}`},
	} {
		b, _ := json.Marshal(must(ClientCapabilities(tt.p, nil)))
		if string(b) != tt.want {
			t.Errorf("%s declares\n%s\nwant\n%s", tt.p, b, tt.want)
		}
	}
	if got := strings.Join(ProfileNames(), ","); got != "plain,zed,air,air-minimal,air-no-form,zed-notices,air-notices,zed-drafts,plain-drafts,plain-v2,air-v2" {
		t.Errorf("profiles %s", got)
	}
	if got := DefaultProfiles(); len(got) != 3 || got[0] != ProfilePlain || got[1] != ProfileZed || got[2] != ProfileAir {
		t.Errorf("default profiles %v", got)
	}
	for p, want := range map[Profile]int{"plain": 1, "air-notices": 1, "plain-v2": 2, "air-v2": 2} {
		if got := ProtocolVersion(p); got != want {
			t.Errorf("ProtocolVersion(%s) = %d, want %d", p, got, want)
		}
	}
}

// TestProfileChangeLeavesTheProfile: a scenario's change works on a copy;
// the next run of the profile declares what the file says.
func TestProfileChangeLeavesTheProfile(t *testing.T) {
	before, _ := json.Marshal(must(ClientCapabilities("air-no-form", nil)))
	changed := must(ClientCapabilities("air-no-form", &CapabilityChange{Merge: map[string]any{"_meta": map[string]any{"x": true}},
		Remove: []string{"_meta.jetbrains.air.version", "fs.readTextFile"}, WithoutAir: []string{"planFile"}}))
	if _, ok := changed["_meta"].(map[string]any)["x"]; !ok {
		t.Fatalf("merge not applied: %v", changed)
	}
	after, _ := json.Marshal(must(ClientCapabilities("air-no-form", nil)))
	if string(before) != string(after) {
		t.Errorf("a change edited the profile:\n%s\n%s", before, after)
	}
	if _, err := ClientCapabilities("nope", nil); err == nil || !strings.Contains(err.Error(), "air-minimal") {
		t.Errorf("unknown profile: %v", err)
	}
}

// TestParseProfilesRefuses: the checks of a profiles file.
func TestParseProfilesRefuses(t *testing.T) {
	for _, tt := range []struct{ yaml, want string }{
		{"profiles:\n- {name: a, declare: {x: 1}}\n- {name: a, declare: {x: 1}}\n", "defined twice"},
		{"profiles:\n- {name: a}\n", "exactly one of declare and base"},
		{"profiles:\n- {name: a, base: b, merge: {x: 1}}\n- {name: b, declare: {x: 1}}\n", "not defined before it"},
		{"profiles:\n- {name: a, declare: {x: 1}, bogus: 1}\n", "bogus"},
		{"profiles:\n- {name: a, declare: {x: 1}, protocolVersion: 3}\n", "1 or 2"},
		{"profiles:\n- {name: a, declare: {x: 1}}\n- {name: b, base: a, protocolVersion: 2}\n", "differs from its base"},
	} {
		if _, err := parseProfiles([]byte(tt.yaml)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err %v, want %q", tt.yaml, err, tt.want)
		}
	}
}
