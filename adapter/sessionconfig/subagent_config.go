package sessionconfig

import (
	"encoding/json"
	"slices"
	"strings"
)

// Contract "Native subagent sessions": a child session reports its own
// configuration (the reference's subagent configuration): the permission
// mode and the model it runs with, as one-entry options built from the
// root session's lists.

// SubagentModeOption is the `mode` config option of a child session that
// runs in modeID: the root session's entry for that mode (with its AIR
// presentation hint), or a bare entry named after an unknown mode.
func (s *Session) SubagentModeOption(modeID string) json.RawMessage {
	entry := choice{Value: modeID, Name: modeID}
	if i := slices.IndexFunc(s.modes, func(m Mode) bool { return m.ID == modeID }); i >= 0 {
		m := s.modes[i]
		entry = choice{Value: m.ID, Name: m.Name, Description: m.Description, Meta: m.Meta}
	}
	return marshal(configOption{ID: "mode", Name: "Mode", Description: "Session permission mode", Category: "mode",
		Type: "select", CurrentValue: modeID, Options: []choice{entry}})
}

// SubagentModelEntry is the entry of the root session's `model` option for
// model, a model id that a child response reported, best first: the
// current entry when it runs that model up to a context hint, the entry
// whose value or resolved model is that id, an entry that runs that model
// up to a context hint. A concrete entry comes before `default`. ok is
// false when no entry matches.
func (s *Session) SubagentModelEntry(model string) (value, name string, ok bool) {
	o := s.modelOption()
	entries := slices.Clone(o.Options)
	slices.SortStableFunc(entries, func(a, b choice) int { return boolInt(a.Value == "default") - boolInt(b.Value == "default") })
	observed := canonicalModelID(model)
	resolved := func(v string) string {
		for _, m := range s.models {
			if m.Value == v && m.ResolvedModel != "" {
				return canonicalModelID(m.ResolvedModel)
			}
		}
		return canonicalModelID(v)
	}
	same := func(v string) bool { return stripContextHint(resolved(v)) == stripContextHint(observed) }
	pick := func(match func(choice) bool) (string, string, bool) {
		if i := slices.IndexFunc(entries, match); i >= 0 {
			return entries[i].Value, entries[i].Name, true
		}
		return "", "", false
	}
	if v, n, ok := pick(func(c choice) bool { return c.Value == s.model && same(c.Value) }); ok {
		return v, n, true
	}
	if v, n, ok := pick(func(c choice) bool { return c.Value == model || resolved(c.Value) == observed }); ok {
		return v, n, true
	}
	return pick(func(c choice) bool { return same(c.Value) })
}

// ModelDisplayName is the CLI's display name of the model id model (its
// value or resolved model), "" when the list does not have it.
func (s *Session) ModelDisplayName(model string) string {
	for _, m := range s.models {
		if m.Value == model || m.ResolvedModel == model {
			return m.DisplayName
		}
	}
	return ""
}

// EffortName is the display name of an effort level ("xhigh" → "Xhigh").
func EffortName(level string) string { return effortName(level) }

// stripContextHint removes a trailing context hint ("[1m]") of a
// canonical model id.
func stripContextHint(id string) string {
	if i := strings.LastIndexByte(id, '['); i > 0 && strings.HasSuffix(id, "m]") {
		return id[:i]
	}
	return id
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
