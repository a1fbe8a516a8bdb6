package proxy

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// The model API a CLI is given: the flag settings' env wins over the
// environment, in either form of the option; a settings file's path is
// not read. Only JSON settings that set ANTHROPIC_BASE_URL are rewritten,
// and the rest of them keep their values (numbers as written).
func TestShimRoutesTheCLIsModelAPI(t *testing.T) {
	env := []string{"ANTHROPIC_BASE_URL=https://env.example", "ANTHROPIC_CUSTOM_HEADERS=X-Env-Key: e1\nX-Other: e2"}
	gw := `{"n":1.50,"env":{"ANTHROPIC_BASE_URL":"https://gw.example/v","ANTHROPIC_CUSTOM_HEADERS":"Cf-Aig-Authorization: g1"}}`
	for _, tc := range []struct {
		name     string
		args     []string
		upstream string
		secret   []string
		routed   bool
	}{
		{"environment only", []string{"--verbose"}, "https://env.example", []string{"X-Env-Key", "X-Other"}, false},
		{"flag settings", []string{"--settings", gw, "--verbose"}, "https://gw.example/v", []string{"X-Env-Key", "X-Other", "Cf-Aig-Authorization"}, true},
		{"flag settings, = form", []string{"--settings=" + gw}, "https://gw.example/v", []string{"X-Env-Key", "X-Other", "Cf-Aig-Authorization"}, true},
		{"a settings file", []string{"--settings", "/etc/claude.json"}, "https://env.example", []string{"X-Env-Key", "X-Other"}, false},
		{"settings without a base URL", []string{"--settings", `{"model":"m"}`}, "https://env.example", []string{"X-Env-Key", "X-Other"}, false},
		{"settings that are not one JSON object", []string{"--settings", gw + "x"}, "https://env.example", []string{"X-Env-Key", "X-Other"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := routeOf(env, tc.args)
			if r.Upstream != tc.upstream || !slices.Equal(r.Secret, tc.secret) {
				t.Errorf("route %+v, want upstream %s and secret %v", r, tc.upstream, tc.secret)
			}
			if want := []string{"e1", "e2", "g1"}[:len(tc.secret)]; !slices.Equal(r.values, want) {
				t.Errorf("header values %v, want %v", r.values, want)
			}
			out := r.settings.routed(tc.args, "http://127.0.0.1:1/cli-1")
			if !tc.routed {
				if !slices.Equal(out, tc.args) {
					t.Errorf("rewrote %v to %v", tc.args, out)
				}
				return
			}
			fs := flagSettingsOf(out)
			i, val := fs.at, strings.TrimPrefix(out[fs.at], "--settings=")
			var s struct {
				N   json.Number       `json:"n"`
				Env map[string]string `json:"env"`
			}
			if err := json.Unmarshal([]byte(val), &s); err != nil {
				t.Fatal(err)
			}
			if s.Env["ANTHROPIC_BASE_URL"] != "http://127.0.0.1:1/cli-1" || s.N != "1.50" || s.Env["ANTHROPIC_CUSTOM_HEADERS"] != "Cf-Aig-Authorization: g1" {
				t.Errorf("routed settings %s", val)
			}
			if len(out) != len(tc.args) || (tc.args[0] == "--settings" && (i != 1 || out[2] != "--verbose")) {
				t.Errorf("arguments %v", out)
			}
			if tc.args[0] == "--settings" && tc.args[1] != gw {
				t.Error("the caller's arguments changed")
			}
		})
	}
}
