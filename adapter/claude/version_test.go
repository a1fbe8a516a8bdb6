package claude

import (
	"slices"
	"testing"
)

// The goldens' CLI is paired with the SDK that bundles it (its package.json
// says claudeCodeVersion 2.1.318 for SDK 0.3.318); another 2.1.N CLI with
// 0.3.N; anything else keeps SDKVersion.
func TestSDKVersionFor(t *testing.T) {
	for cli, want := range map[string]string{
		"2.1.318": "0.3.318", "2.1.318 (Claude Code)": "0.3.318", "2.1.333": "0.3.333", "v2.1.316": "0.3.316",
		"2.2.1": SDKVersion, "": SDKVersion, "garbage": SDKVersion,
	} {
		if got := SDKVersionFor(cli); got != want {
			t.Errorf("SDKVersionFor(%q) = %q, want %q", cli, got, want)
		}
	}
	if SDKVersionFor(GoldenCLIVersion) != SDKVersion {
		t.Errorf("the goldens' CLI %s must keep SDK %s", GoldenCLIVersion, SDKVersion)
	}
}

func TestCLISupported(t *testing.T) {
	for v, want := range map[string]bool{
		GoldenCLIVersion: true, MinCLIVersion: true, MaxCLIVersion: true, "2.1.320 (Claude Code)": true,
		"2.1.315": false, "2.1.334": false, "2.0.999": false, "3.0.0": false, "": false, "2.1": false,
	} {
		if got := CLISupported(v); got != want {
			t.Errorf("CLISupported(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestInitCLIVersion(t *testing.T) {
	if got := InitCLIVersion([]byte(`{"pid":1,"claude_code_version":"2.1.318"}`)); got != "2.1.318" {
		t.Errorf("got %q", got)
	}
	if got := InitCLIVersion([]byte(`{}`)); got != "" {
		t.Errorf("got %q", got)
	}
}

// The CLI's version, when known, picks CLAUDE_AGENT_SDK_VERSION.
func TestEnvSDKVersionFollowsTheCLI(t *testing.T) {
	got := Env(nil, EnvOptions{CLIVersion: "2.1.330"})
	if !slices.Contains(got, "CLAUDE_AGENT_SDK_VERSION=0.3.330") {
		t.Errorf("Env = %q, want CLAUDE_AGENT_SDK_VERSION=0.3.330", got)
	}
}
