package scenario

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/airwire/airwire/internal/lookup"
)

// ProfilesFile is the client profiles file, built in here: the
// clientCapabilities each profile declares in initialize.
const ProfilesFile = "profiles.yaml"

//go:embed profiles.yaml
var profilesData []byte

// ProfileDef is one client profile of conform/scenario/profiles.yaml: a named
// initialize.clientCapabilities. Exactly one of Declare and Base is set; a
// profile with Base starts from its base's declaration and applies its
// change (merge, remove, withoutAir, addAir, as a scenario's capabilities
// section does).
type ProfileDef struct {
	Name Profile `yaml:"name"`
	// Description is one line saying which client the profile stands for.
	Description string `yaml:"description"`
	// Default marks the profiles a scenario without profiles: runs.
	Default bool `yaml:"default,omitempty"`
	// ProtocolVersion is the ACP protocolVersion the profile asks for in
	// initialize: 1 (when not given, and not inherited from Base) or 2, the
	// ACP v2 draft.
	ProtocolVersion int `yaml:"protocolVersion,omitempty"`
	// Declare is the whole declaration of a profile without Base.
	Declare map[string]any `yaml:"declare,omitempty"`
	// Base names an earlier profile of the file.
	Base Profile `yaml:"base,omitempty"`
	// CapabilityChange changes the base's declaration.
	CapabilityChange `yaml:",inline"`
}

// profileSet is the parsed profiles file.
type profileSet struct {
	defs   []ProfileDef
	byName map[Profile]*ProfileDef
}

// builtIn is the parsed profiles file, parsed on first use.
var builtIn = lookup.Lazy[*profileSet]{Build: func() *profileSet { return mustParseProfiles(profilesData) }}

// mustParseProfiles parses the built-in profiles file; a broken file is a
// bug of the build, caught by every test of the package.
func mustParseProfiles(data []byte) *profileSet {
	set, err := parseProfiles(data)
	if err != nil {
		panic(fmt.Sprintf("conform/scenario/%s: %v", ProfilesFile, err))
	}
	return set
}

// parseProfiles decodes and checks a profiles file: unique names, exactly
// one of declare and base, a base defined earlier in the file.
func parseProfiles(data []byte) (*profileSet, error) {
	var file struct {
		Profiles []ProfileDef `yaml:"profiles"`
	}
	if err := decodeStrict(data, &file); err != nil {
		return nil, err
	}
	set := &profileSet{defs: file.Profiles, byName: map[Profile]*ProfileDef{}}
	for i := range set.defs {
		d := &set.defs[i]
		switch {
		case d.Name == "":
			return nil, fmt.Errorf("profiles[%d]: no name", i)
		case set.byName[d.Name] != nil:
			return nil, fmt.Errorf("profiles[%d]: %q defined twice", i, d.Name)
		case (d.Base == "") == (d.Declare == nil):
			return nil, fmt.Errorf("profile %s: give exactly one of declare and base", d.Name)
		case d.Base != "" && set.byName[d.Base] == nil:
			return nil, fmt.Errorf("profile %s: base %q is not defined before it", d.Name, d.Base)
		case d.ProtocolVersion != 0 && d.ProtocolVersion != 1 && d.ProtocolVersion != 2:
			return nil, fmt.Errorf("profile %s: protocolVersion %d (1 or 2)", d.Name, d.ProtocolVersion)
		case d.Base != "" && d.ProtocolVersion != 0 && d.ProtocolVersion != set.byName[d.Base].ProtocolVersion:
			return nil, fmt.Errorf("profile %s: protocolVersion %d differs from its base %s's (a declaration of one version is no base for the other)", d.Name, d.ProtocolVersion, d.Base)
		}
		if d.Base != "" {
			d.ProtocolVersion = set.byName[d.Base].ProtocolVersion
		}
		if d.ProtocolVersion == 0 {
			d.ProtocolVersion = 1
		}
		set.byName[d.Name] = d
	}
	return set, nil
}

// ProfileNames returns the names of every profile, in file order.
func ProfileNames() []string {
	out := make([]string, 0, len(builtIn.Get().defs))
	for _, d := range builtIn.Get().defs {
		out = append(out, string(d.Name))
	}
	return out
}

// KnownProfile reports whether conform/scenario/profiles.yaml defines p.
func KnownProfile(p Profile) bool { return builtIn.Get().byName[p] != nil }

// ProtocolVersion returns the ACP protocolVersion profile p asks for in
// initialize (1 for an unknown profile, which ClientCapabilities refuses).
func ProtocolVersion(p Profile) int {
	if d := builtIn.Get().byName[p]; d != nil {
		return d.ProtocolVersion
	}
	return 1
}

// DefaultProfiles returns the profiles a scenario without profiles: runs.
func DefaultProfiles() []Profile {
	var out []Profile
	for _, d := range builtIn.Get().defs {
		if d.Default {
			out = append(out, d.Name)
		}
	}
	return out
}

// ClientCapabilities returns the initialize clientCapabilities of profile p
// (conform/scenario/profiles.yaml) with the scenario's change applied (change may
// be nil), in the order of the fields of CapabilityChange: merge, remove,
// withoutAir, addAir. The AIR list edits apply only to a declaration with
// _meta.jetbrains.air.
func ClientCapabilities(p Profile, change *CapabilityChange) (map[string]any, error) {
	d := builtIn.Get().byName[p]
	if d == nil {
		return nil, fmt.Errorf("unknown profile %q (the profiles are %s)", p, strings.Join(ProfileNames(), ", "))
	}
	var caps map[string]any
	var err error
	if d.Base != "" {
		caps, err = ClientCapabilities(d.Base, &d.CapabilityChange)
	} else {
		caps, err = jsonCopy(d.Declare)
	}
	if err != nil || change == nil {
		return caps, err
	}
	return applyChange(caps, change)
}

// applyChange applies change to caps, which it owns.
func applyChange(caps map[string]any, change *CapabilityChange) (map[string]any, error) {
	if change.Merge != nil {
		merge, err := jsonCopy(change.Merge)
		if err != nil {
			return nil, fmt.Errorf("capabilities.merge: %w", err)
		}
		mergeInto(caps, merge)
	}
	for _, path := range change.Remove {
		removePath(caps, strings.Split(path, "."))
	}
	meta, _ := caps["_meta"].(map[string]any)
	jb, _ := meta["jetbrains"].(map[string]any)
	air, _ := jb["air"].(map[string]any)
	if air == nil || len(change.WithoutAir)+len(change.AddAir) == 0 {
		return caps, nil
	}
	list, _ := air["capabilities"].([]any)
	drop := map[string]bool{}
	for _, n := range change.WithoutAir {
		drop[n] = true
	}
	kept := []any{}
	for _, n := range list {
		if s, _ := n.(string); !drop[s] {
			kept = append(kept, n)
		}
	}
	for _, n := range change.AddAir {
		kept = append(kept, n)
	}
	air["capabilities"] = kept
	return caps, nil
}

// jsonCopy copies a YAML-decoded object into plain JSON types, so that a
// change never touches the profile it started from.
func jsonCopy(m map[string]any) (map[string]any, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	return out, json.Unmarshal(b, &out)
}

// mergeInto deep-merges src into dst: objects merge, other values replace.
func mergeInto(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				mergeInto(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
}

func removePath(m map[string]any, path []string) {
	if len(path) == 0 || m == nil {
		return
	}
	if len(path) == 1 {
		delete(m, path[0])
		return
	}
	next, _ := m[path[0]].(map[string]any)
	removePath(next, path[1:])
}
