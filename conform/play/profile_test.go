package play

import (
	"testing"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/conform/scenario"
)

// TestProfileOf: the profile an editor's initialize declares, read from
// the capabilities each profile of the suite sends.
func TestProfileOf(t *testing.T) {
	for _, p := range scenario.AllProfiles {
		caps, err := conform.ClientCapabilities(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		init := mustJSON(t, map[string]any{"jsonrpc": "2.0", "id": 0, "method": "initialize",
			"params": map[string]any{"protocolVersion": 1, "clientCapabilities": caps}})
		if got := ProfileOf(init); got != p {
			t.Errorf("%s's initialize: got %s", p, got)
		}
	}
	for _, tt := range []struct {
		in   string
		want scenario.Profile
	}{
		{`{"method":"initialize","params":{"clientCapabilities":{"auth":{"terminal":true}}}}`, scenario.ProfileZed},
		{`{"method":"initialize","params":{"clientCapabilities":{"_meta":{"jetbrains":{"air":null}}}}}`, scenario.ProfilePlain},
		{`not json`, scenario.ProfilePlain},
		{`{"method":"session/new"}`, scenario.ProfilePlain},
	} {
		if got := ProfileOf([]byte(tt.in)); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.in, got, tt.want)
		}
	}
}
