package sessionconfig

import (
	"github.com/airwire/airwire/adapter/airmeta"

	"github.com/airwire/airwire/internal/lookup"
)

// modeKinds is the presentation kind of each permission mode (contract:
// "Presentation hints"): the mode config option and the session modes of
// an AIR client carry it at `_meta.jetbrains.air.kind`. The old `_meta.kind`
// goes to no client ("Removed keys").
var modeKinds = lookup.Map{
	{"default", "standard"},
	{"acceptEdits", "standard"},
	{"plan", "plan"},
	{"auto", "auto_review"},
	{"bypassPermissions", "full_access"},
}

// withModeKinds returns modes with their AIR kind when hints is true.
func withModeKinds(modes []Mode, hints bool) []Mode {
	if !hints {
		return modes
	}
	out := make([]Mode, len(modes))
	for i, m := range modes {
		if kind, ok := modeKinds.Get(m.ID); ok {
			m.Meta = airmeta.Merge(m.Meta, "kind", kind)
		}
		out[i] = m
	}
	return out
}
