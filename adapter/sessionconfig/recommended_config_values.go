package sessionconfig

import (
	"encoding/json"
	"slices"

	"github.com/airwire/airwire/adapter/claudesettings"
)

// Contract "Recommended config values": a client that declared the AIR
// capability `recommendedValue` (Options.Recommended) gets concrete model
// and effort rows instead of the ambiguous `default` ones, and the
// recommendation at `_meta.jetbrains.air.recommendedValue` of each
// selector. Without the capability nothing here applies ("Activation").

// recommendedEffortLevel is the effort the extension recommends ("Effort").
const recommendedEffortLevel = "medium"

// airRecommendation is the selector `_meta` carrying value (contract "AIR
// metadata keys": every payload next to `version: 1`).
func airRecommendation(value string) map[string]any {
	return map[string]any{"jetbrains": map[string]any{"air": map[string]any{"version": 1, "recommendedValue": value}}}
}

// recommendedModel is the named model the CLI's `default` entry resolves
// to: its resolvedModel matched exactly to another entry's (the `-1m` and
// `[1m]` spellings equal, "Model"). ok is false when the extension is off
// or nothing matches; the `default` row then stays.
func (s *Session) recommendedModel() (Model, bool) {
	if !s.opts.Recommended {
		return Model{}, false
	}
	i := slices.IndexFunc(s.models, func(m Model) bool { return m.Value == "default" })
	if i < 0 || s.models[i].ResolvedModel == "" {
		return Model{}, false
	}
	want := canonicalModelID(s.models[i].ResolvedModel)
	for _, m := range s.models {
		id := m.ResolvedModel
		if id == "" {
			id = m.Value
		}
		if m.Value != "default" && canonicalModelID(id) == want {
			return m, true
		}
	}
	return Model{}, false
}

// recommendModel rewrites the model selector: no `default` row, the
// recommendation as currentValue while the session runs the SDK default,
// and the recommendation in `_meta`.
func (s *Session) recommendModel(o *configOption) {
	rec, ok := s.recommendedModel()
	if !ok {
		return
	}
	o.Options = slices.DeleteFunc(o.Options, func(c choice) bool { return c.Value == "default" })
	if s.model == "default" {
		o.CurrentValue = rec.Value
	}
	o.Meta = airRecommendation(rec.Value)
}

// recommendedEffort is medium, or the first level a model without medium
// offers ("Effort").
func recommendedEffort(levels []string) string {
	if slices.Contains(levels, recommendedEffortLevel) || len(levels) == 0 {
		return recommendedEffortLevel
	}
	return levels[0]
}

// recommendEffort rewrites the effort selector of a model with levels: no
// `default` row, an absent or `default` effort shown as the
// recommendation, and the recommendation in `_meta`.
func (s *Session) recommendEffort(o *configOption, levels []string) {
	if !s.opts.Recommended {
		return
	}
	o.Options = slices.DeleteFunc(o.Options, func(c choice) bool { return c.Value == "default" })
	if !slices.Contains(levels, s.effort) {
		o.CurrentValue = recommendedEffort(levels)
	}
	o.Meta = airRecommendation(recommendedEffort(levels))
}

// shownEffort is the effort selector's current value ("" when the model
// has no effort selector).
func (s *Session) shownEffort() string {
	if e := s.effortOption(); e != nil {
		v, _ := e.CurrentValue.(string)
		return v
	}
	return ""
}

// InitialEffortRequest is the apply_flag_settings the caller sends right
// after get_settings when the extension is on: the SDK then runs the effort
// the selector shows ("The adapter applies the shown effort to the SDK at
// session creation"). nil when the extension is off or the model has no
// effort levels.
func (s *Session) InitialEffortRequest() json.RawMessage {
	if !s.opts.Recommended {
		return nil
	}
	shown := s.shownEffort()
	if shown == "" {
		return nil
	}
	s.applied = shown
	return s.effortSettings(shown)
}

// syncEffort is the best-effort request of a model switch for a client
// with the extension: the effort the new model's selector will show (a
// pin the new model offers, else settings, else the recommendation)
// applied to the SDK. It returns nil without the extension or when the new
// model has no effort levels (the override is then cleared).
func (s *Session) syncEffort(m Model, value string, settings claudesettings.Effort) json.RawMessage {
	if !s.opts.Recommended {
		return nil
	}
	if !m.SupportsEffort || len(m.SupportedEffortLevels) == 0 {
		return s.effortSettings("")
	}
	effort := settings.For(m.ResolvedModel, m.Value, value)
	if s.pinned != "" && slices.Contains(m.SupportedEffortLevels, s.pinned) {
		effort = s.pinned
	}
	if !slices.Contains(m.SupportedEffortLevels, effort) {
		effort = recommendedEffort(m.SupportedEffortLevels)
	}
	return s.effortSettings(effort)
}

// unsynced is the state after a model switch whose effort sync failed:
// the new model stays, the last applied effort stays current when the new
// model offers it, and otherwise the effort selector is hidden until a
// later switch succeeds ("If the effort sync fails after the model
// switched, the adapter reports the new model. It never shows the
// unapplied effort as current.").
func (s *Session) unsynced(m Model) {
	if slices.Contains(m.SupportedEffortLevels, s.applied) {
		s.effort = s.applied
		return
	}
	s.hideEffort = true
}
