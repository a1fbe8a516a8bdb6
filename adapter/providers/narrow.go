package providers

import (
	"strings"

	"github.com/airwire/airwire/adapter/modelid"
)

// Model is a row of a session's model picker: Value is what the client
// picks, ResolvedModel the model the SDK resolves it to ("" when the SDK
// names none, as for an alias).
type Model struct{ Value, ResolvedModel string }

// Narrow keeps the models a gateway listed and returns the indexes of
// those kept, so the caller filters its own rows. A row matches when its
// resolved model (its value when it has none) names a listed model in any
// spelling: `claude-sonnet-5[1m]` matches a listed
// `claude-sonnet-5-20260101`. Under a Bedrock regionPrefix a row resolved
// to another prefix is dropped even when its model is listed: the CLI
// would call it in the other region. A row named only by an alias is
// checked as far as the alias tells: `default` is kept, and a family
// alias when a model of that family is listed. When no kept row matches
// by its model, the gateway serves none of them and nothing is kept: the
// session offers no model.
func Narrow(models []Model, listed []string, regionPrefix string) []int {
	set := map[string]bool{}
	for _, id := range listed {
		if n := modelid.Normalize(id); n != "" {
			set[n] = true
		}
	}
	var kept []int
	matched := false
	for i, m := range models {
		id := m.Value
		if m.ResolvedModel != "" {
			id = m.ResolvedModel
		}
		if p := RegionPrefix(id); regionPrefix != "" && p != "" && p != regionPrefix {
			continue
		}
		n := modelid.Normalize(id)
		switch {
		case set[n]:
			matched = true
		case m.ResolvedModel != "":
			continue
		case m.Value != "default" && !(modelid.IsFamily(n) && listsFamily(set, n)):
			continue
		}
		kept = append(kept, i)
	}
	if !matched {
		return nil
	}
	return kept
}

// listsFamily reports whether a listed model belongs to family.
func listsFamily(listed map[string]bool, family string) bool {
	for id := range listed {
		if strings.Contains(id, "-"+family) {
			return true
		}
	}
	return false
}
