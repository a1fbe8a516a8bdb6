package caps

import (
	"encoding/json"
	"testing"

	"github.com/airwire/airwire/adapter/acpv2"
)

func TestParseReadsTheDeclarationsOfEachClient(t *testing.T) {
	zed := Parse(json.RawMessage(`{"_meta":{"terminal-auth":true,"terminal_output":true},"auth":{"terminal":true},"elicitation":{"form":{}},"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true}`))
	if !zed.TerminalOutput || !zed.TerminalAuth || !zed.AuthTerminal || !zed.FormElicit || zed.URLElicit || !zed.ReadTextFile || !zed.WriteTextFile || !zed.Terminal || zed.AIR.Client {
		t.Errorf("zed = %+v", zed)
	}
	if url := Parse(json.RawMessage(`{"elicitation":{"url":{}}}`)); !url.URLElicit || url.FormElicit {
		t.Errorf("a client with URL elicitation only = %+v", url)
	}
	plain := Parse(json.RawMessage(`{"fs":{"readTextFile":true},"terminal":true}`))
	if plain.TerminalChannel() || plain.FormElicit || plain.AIR.Client {
		t.Errorf("plain = %+v", plain)
	}
	// One ill-typed part does not hide the others.
	odd := Parse(json.RawMessage(`{"fs":"yes","terminal":true,"_meta":{"terminal_output":true}}`))
	if !odd.Terminal || !odd.TerminalOutput || odd.ReadTextFile {
		t.Errorf("odd = %+v", odd)
	}
}

// Contract "Client declaration": a capability is accepted only when the
// version is a finite integer ≥ 1, capabilities is an array, and the array
// holds the exact name; a malformed declaration enables nothing.
func TestAIRDeclaration(t *testing.T) {
	tests := []struct {
		air    string
		client bool
		has    bool
	}{
		{`{"version":1,"capabilities":["diffPatch"]}`, true, true},
		{`{"version":2,"capabilities":["diffPatch","x"]}`, true, true},
		{`{"version":1.5,"capabilities":["diffPatch"]}`, true, false},
		{`{"version":0,"capabilities":["diffPatch"]}`, true, false},
		{`{"version":"1","capabilities":["diffPatch"]}`, true, false},
		{`{"capabilities":["diffPatch"]}`, true, false},
		{`{"version":1,"capabilities":"diffPatch"}`, true, false},
		{`{"version":1,"capabilities":["DiffPatch"," diffPatch"]}`, true, false},
		{`{"version":1}`, true, false},
		{`"air"`, false, false},
	}
	for _, tt := range tests {
		c := Parse(json.RawMessage(`{"_meta":{"jetbrains":{"air":` + tt.air + `}}}`))
		if c.AIR.Client != tt.client || c.AIR.Has(DiffPatch) != tt.has {
			t.Errorf("%s: client %v has %v, want %v %v", tt.air, c.AIR.Client, c.AIR.Has(DiffPatch), tt.client, tt.has)
		}
	}
	if c := Parse(nil); c.AIR.Client || c.Terminal {
		t.Errorf("absent capabilities = %+v", c)
	}
}

// Contract "Native subagent sessions": `subagents` declares the draft RFD
// only as an object (the reference's clientSupportsSubagents); an array,
// null or a boolean declares nothing, and one ill-typed part elsewhere does
// not hide it.
func TestSubagentsDeclaration(t *testing.T) {
	for raw, want := range map[string]bool{
		`{"subagents":{}}`:                        true,
		`{"subagents":{"x":1},"fs":"odd"}`:        true,
		`{"subagents":[]}`:                        false,
		`{"subagents":null}`:                      false,
		`{"subagents":true}`:                      false,
		`{"_meta":{"subagents":{}},"terminal":1}`: false,
	} {
		if got := Parse(json.RawMessage(raw)).Subagents; got != want {
			t.Errorf("%s: Subagents = %v, want %v", raw, got, want)
		}
	}
}

// session.configOptions.boolean and plan are read the reference's way
// (`!= null`): any value but null declares them; an ACP v2 client has
// both as baseline, through the v1 declaration its capabilities mean.
func TestBooleanOptionsAndPlanDeclarations(t *testing.T) {
	for raw, want := range map[string][2]bool{
		`{"session":{"configOptions":{"boolean":{}}},"plan":{}}`:        {true, true},
		`{"session":{"configOptions":{"boolean":true}},"plan":true}`:    {true, true},
		`{"session":{"configOptions":{"boolean":null}},"plan":null}`:    {false, false},
		`{"session":{"configOptions":{}},"fs":"odd","plan":{}}`:         {false, true},
		`{"session":{"boolean":{}},"_meta":{"plan":{}}}`:                {false, false},
		`{"session":{"configOptions":{"boolean":{}}},"terminal":"yes"}`: {true, false},
	} {
		c := Parse(json.RawMessage(raw))
		if got := [2]bool{c.BooleanOptions, c.Plan}; got != want {
			t.Errorf("%s: BooleanOptions, Plan = %v, want %v", raw, got, want)
		}
	}
	var v2 acpv2.InitializeParams
	_ = json.Unmarshal([]byte(`{"protocolVersion":2,"capabilities":{}}`), &v2)
	for _, served := range []bool{true, false} {
		if c := Parse(v2.V1ClientCapabilities(served)); !c.BooleanOptions || !c.Plan {
			t.Errorf("a v2 client (served %v): %+v; want boolean options and plans", served, c)
		}
	}
}
