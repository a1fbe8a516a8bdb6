package acpv2

import (
	"strings"
	"testing"
)

func TestProtocolsFromEnv(t *testing.T) {
	for value, want := range map[string]Protocols{"": Auto, "auto": Auto, "v1": V1, "v2": V2} {
		if got, err := ProtocolsFromEnv(value); err != nil || got != want {
			t.Errorf("ProtocolsFromEnv(%q) = %q, %v; want %q", value, got, err, want)
		}
	}
	for _, typo := range []string{"1", "2", "V2", "both", " v1"} {
		_, err := ProtocolsFromEnv(typo)
		if err == nil || !strings.Contains(err.Error(), EnvProtocol) || !strings.Contains(err.Error(), `"v2"`) {
			t.Errorf("ProtocolsFromEnv(%q) = %v; want an error naming %s and its values", typo, err, EnvProtocol)
		}
	}
}

// Each setting's answer to a client asking for each version, as the SDK's
// router selects: auto gives 2 from 2 up and 1 below; v1 negotiates every
// client down to 1; v2 refuses a v1 client.
func TestSelect(t *testing.T) {
	cases := []struct {
		p         Protocols
		requested int64
		version   int
		ok        bool
	}{
		{Auto, 1, 1, true}, {Auto, 2, 2, true}, {Auto, 7, 2, true}, {Auto, 0, 0, false},
		{V1, 1, 1, true}, {V1, 2, 1, true}, {V1, 0, 1, true},
		{V2, 1, 0, false}, {V2, 2, 2, true}, {V2, 3, 2, true},
	}
	for _, c := range cases {
		if v, ok := c.p.Select(c.requested); v != c.version || ok != c.ok {
			t.Errorf("%s.Select(%d) = %d, %v; want %d, %v", c.p, c.requested, v, ok, c.version, c.ok)
		}
	}
	e := V2.UnsupportedVersion(1)
	if e.Code != -32022 || string(e.Data) != `{"requested":1,"supported":[2]}` {
		t.Errorf("UnsupportedVersion = %d %s", e.Code, e.Data)
	}
}
