package claude

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/airwire/airwire/internal/lookup"
)

// The Claude Code CLI versions this agent supports (docs/agent.md, "Claude
// Code versions"): the conformance goldens were recorded from
// GoldenCLIVersion; the range is what the agent was tested with. A CLI
// outside it still runs; the agent logs it and tells the editor.
const (
	GoldenCLIVersion = "2.1.318"
	MinCLIVersion    = "2.1.316"
	MaxCLIVersion    = "2.1.333"
)

// sdkForCLI pairs a CLI version with the Agent SDK release that bundles it
// (the SDK's package.json names its claudeCodeVersion). A CLI not listed
// follows the same numbering: CLI 2.1.N ships with SDK 0.3.N.
var sdkForCLI = lookup.Map{{GoldenCLIVersion, SDKVersion}}

// Version is a CLI version, major.minor.patch.
type Version struct{ Major, Minor, Patch int }

// ParseVersion reads "2.1.318", also as `claude --version` prints it
// ("2.1.318 (Claude Code)") and with a leading "v" or a pre-release
// suffix ("2.1.318-beta.1", compared by its numbers).
func ParseVersion(s string) (Version, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	if i := strings.IndexAny(s, " -+"); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return Version{}, false
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return Version{}, false
		}
		n[i] = v
	}
	return Version{n[0], n[1], n[2]}, true
}

func (v Version) String() string { return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch) }

// Compare is -1, 0 or 1 as v is older than, the same as or newer than w.
func (v Version) Compare(w Version) int {
	for _, d := range [3]int{v.Major - w.Major, v.Minor - w.Minor, v.Patch - w.Patch} {
		if d != 0 {
			if d < 0 {
				return -1
			}
			return 1
		}
	}
	return 0
}

// SupportedRange is the supported range as text: "2.1.316–2.1.333".
func SupportedRange() string { return MinCLIVersion + "–" + MaxCLIVersion }

// CLISupported reports whether version is inside the supported range; an
// unreadable version is not.
func CLISupported(version string) bool {
	v, ok := ParseVersion(version)
	if !ok {
		return false
	}
	lo, _ := ParseVersion(MinCLIVersion)
	hi, _ := ParseVersion(MaxCLIVersion)
	return v.Compare(lo) >= 0 && v.Compare(hi) <= 0
}

// SDKVersionFor is the CLAUDE_AGENT_SDK_VERSION for a CLI of the given
// version: the table's entry, else 0.3.N for a CLI 2.1.N, else (an
// unknown or unreadable version) SDKVersion.
func SDKVersionFor(cliVersion string) string {
	v, ok := ParseVersion(cliVersion)
	if !ok {
		return SDKVersion
	}
	if sdk, ok := sdkForCLI.Get(v.String()); ok {
		return sdk
	}
	if v.Major == 2 && v.Minor == 1 {
		return fmt.Sprintf("0.3.%d", v.Patch)
	}
	return SDKVersion
}

// InitCLIVersion is the claude_code_version of the CLI's answer to
// initialize ("" when it has none).
func InitCLIVersion(initResponse json.RawMessage) string {
	var r struct {
		Version string `json:"claude_code_version"`
	}
	_ = json.Unmarshal(initResponse, &r)
	return r.Version
}
