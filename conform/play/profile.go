package play

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/procgroup"
)

// ProfileFor is the profile of sc an editor's initialize request declares:
// the one of sc's profiles whose clientCapabilities (with the scenario's
// change) it repeats exactly, else the default profile of ProfileOf.
func ProfileFor(sc *scenario.Scenario, initialize []byte) scenario.Profile {
	var m struct {
		Params struct {
			ClientCapabilities json.RawMessage `json:"clientCapabilities"`
		} `json:"params"`
	}
	if json.Unmarshal(initialize, &m) == nil && len(m.Params.ClientCapabilities) > 0 {
		for _, p := range sc.RunProfiles() {
			if sameJSON(m.Params.ClientCapabilities, p, sc.Capabilities) {
				return p
			}
		}
	}
	return ProfileOf(initialize)
}

// sameJSON reports whether caps is the declaration of p with change.
func sameJSON(caps json.RawMessage, p scenario.Profile, change *scenario.CapabilityChange) bool {
	want, err := scenario.ClientCapabilities(p, change)
	if err != nil {
		return false
	}
	var got any
	if json.Unmarshal(caps, &got) != nil {
		return false
	}
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	return string(a) == string(b)
}

// ProfileOf is the default profile nearest to what an editor's initialize
// request declares: air when its clientCapabilities carry
// _meta.jetbrains.air, zed when they declare terminal auth (auth.terminal
// or _meta["terminal-auth"]), plain otherwise (also for a first frame that
// is not an initialize).
func ProfileOf(initialize []byte) scenario.Profile {
	var m struct {
		Params struct {
			ClientCapabilities struct {
				Auth struct {
					Terminal bool `json:"terminal"`
				} `json:"auth"`
				Meta struct {
					JetBrains struct {
						Air json.RawMessage `json:"air"`
					} `json:"jetbrains"`
					TerminalAuth bool `json:"terminal-auth"`
				} `json:"_meta"`
			} `json:"clientCapabilities"`
		} `json:"params"`
	}
	if json.Unmarshal(initialize, &m) != nil {
		return scenario.ProfilePlain
	}
	caps := m.Params.ClientCapabilities
	switch {
	case len(caps.Meta.JetBrains.Air) > 0 && string(caps.Meta.JetBrains.Air) != "null":
		return scenario.ProfileAir
	case caps.Auth.Terminal || caps.Meta.TerminalAuth:
		return scenario.ProfileZed
	}
	return scenario.ProfilePlain
}

func hasProfile(sc *scenario.Scenario, p scenario.Profile) bool {
	for _, q := range sc.RunProfiles() {
		if q == p {
			return true
		}
	}
	return false
}

func profileList(sc *scenario.Scenario) string {
	var names []string
	for _, p := range sc.RunProfiles() {
		names = append(names, string(p))
	}
	return strings.Join(names, ", ")
}

// scenarioPrompts counts the prompts of the scenario's editor steps.
func scenarioPrompts(sc *scenario.Scenario) int {
	n := 0
	for _, st := range sc.Client.Steps {
		if st.Prompt != nil {
			n++
		}
	}
	return n
}

// endingText says how a process ended.
func endingText(e procgroup.Ending) string {
	if e.Signal != "" {
		return "killed by " + e.Signal
	}
	return "exit " + strconv.Itoa(e.Code)
}
