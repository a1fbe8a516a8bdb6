package sessionconfig

import (
	"encoding/json"
	"slices"
	"strings"
)

// configOption is one entry of `configOptions`.
type configOption struct {
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	Description  string   `json:"description"`
	Category     string   `json:"category,omitempty"`
	Type         string   `json:"type"`
	CurrentValue any      `json:"currentValue"`
	Options      []choice `json:"options,omitempty"`
	// Meta is the selector's `_meta` (the AIR recommendation).
	Meta map[string]any `json:"_meta,omitempty"`
}

// choice is one value of a select option.
type choice struct {
	Value       string `json:"value"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Meta is the value's `_meta` (the AIR presentation hint of a mode).
	Meta map[string]any `json:"_meta,omitempty"`
	// described keeps an empty description: a model row carries the
	// CLI's description, even an empty one.
	described bool
}

func (c choice) MarshalJSON() ([]byte, error) {
	type plain choice
	if c.Description != "" || !c.described {
		return json.Marshal(plain(c))
	}
	return json.Marshal(struct {
		plain
		Description string `json:"description"`
	}{plain(c), ""})
}

// Mode is one permission mode of `modes.availableModes`.
type Mode struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	// Meta is the mode's `_meta` (the AIR presentation hint).
	Meta map[string]any `json:"_meta,omitempty"`
}

var (
	modeDefault = Mode{ID: "default", Name: "Manual", Description: "Always ask before making changes"}
	modeAccept  = Mode{ID: "acceptEdits", Name: "Accept edits", Description: "Automatically accept all file edits"}
	modePlan    = Mode{ID: "plan", Name: "Plan", Description: "Create a plan before making changes"}
	modeAuto    = Mode{ID: "auto", Name: "Auto", Description: "Claude handles permission decisions"}
	modeBypass  = Mode{ID: "bypassPermissions", Name: "Bypass permissions", Description: "Accepts all permissions"}
)

// knownModes are the mode ids a client may ask for (set_mode validates
// against them before availability).
var knownModes = []string{"auto", "default", "acceptEdits", "bypassPermissions", "dontAsk", "plan"}

// AvailableModes lists the modes of a session: Manual, Accept edits and
// Plan always, Auto and Bypass permissions when allowed.
func AvailableModes(allowAuto, allowBypass bool) []Mode {
	modes := []Mode{modeDefault, modeAccept, modePlan}
	if allowAuto {
		modes = append(modes, modeAuto)
	}
	if allowBypass {
		modes = append(modes, modeBypass)
	}
	return modes
}

func (s *Session) modeOption() configOption {
	var opts []choice
	for _, m := range s.modes {
		opts = append(opts, choice{Value: m.ID, Name: m.Name, Description: m.Description, Meta: m.Meta})
	}
	return configOption{ID: "mode", Name: "Mode", Description: "Session permission mode", Category: "mode",
		Type: "select", CurrentValue: s.mode, Options: opts}
}

// effortName titles each part of a level: "xhigh" → "Xhigh".
func effortName(level string) string {
	parts := strings.FieldsFunc(level, func(r rune) bool { return r == '_' || r == '-' })
	for i, p := range parts {
		parts[i] = strings.ToUpper(p[:1]) + p[1:]
	}
	return strings.Join(parts, " ")
}

// effortOption offers "default" and the current model's levels; nil when
// the model has no effort levels.
func (s *Session) effortOption() *configOption {
	m := s.CurrentModel()
	if !m.SupportsEffort || len(m.SupportedEffortLevels) == 0 || s.hideEffort {
		return nil
	}
	opts := []choice{{Value: "default", Name: "Default"}}
	for _, l := range m.SupportedEffortLevels {
		opts = append(opts, choice{Value: l, Name: effortName(l)})
	}
	current := "default"
	if slices.Contains(m.SupportedEffortLevels, s.effort) {
		current = s.effort
	}
	o := &configOption{ID: "effort", Name: "Effort", Description: "Available effort levels for this model",
		Category: "thought_level", Type: "select", CurrentValue: current, Options: opts}
	s.recommendEffort(o, m.SupportedEffortLevels)
	return o
}

// toggle builds an on/off option: a boolean for clients that declared
// boolean config options, else a select of "on" and "off".
func (s *Session) toggle(id, name, description string, on bool) configOption {
	o := configOption{ID: id, Name: name, Description: description, Category: "model_config"}
	if s.opts.BooleanOptions {
		o.Type, o.CurrentValue = "boolean", on
		return o
	}
	o.Type, o.CurrentValue = "select", map[bool]string{true: "on", false: "off"}[on]
	o.Options = []choice{{Value: "on", Name: "On"}, {Value: "off", Name: "Off"}}
	return o
}

func (s *Session) ultracodeOption() configOption {
	return s.toggle("ultracode", "Ultracode", "Dynamic workflows on every task, at any effort level", s.ultracode)
}

// supportsUltracode: the CLI runs ultracode on the models with `xhigh`.
func supportsUltracode(m Model) bool {
	return m.SupportsEffort && slices.Contains(m.SupportedEffortLevels, "xhigh")
}

// options builds `configOptions` in the reference's order.
func (s *Session) options() []configOption {
	opts := []configOption{s.modeOption()}
	if len(s.models) > 0 {
		opts = append(opts, s.modelOption())
	}
	if e := s.effortOption(); e != nil {
		opts = append(opts, *e)
	}
	m := s.CurrentModel()
	if m.SupportsFastMode {
		opts = append(opts, s.toggle("fast", "Fast mode", fastDescription(s.fast, s.fastReason), s.fast))
	}
	if ultracodeShown(s, m) {
		opts = append(opts, s.ultracodeOption())
	}
	if a := s.picker.option(); a != nil {
		opts = append(opts, *a)
	}
	return opts
}

// ultracodeShown: the CLI's report decides at session start; after a
// model switch, the workflows state it implied and the new model do.
func ultracodeShown(s *Session, m Model) bool {
	if s.reportedUltracode != nil {
		return *s.reportedUltracode
	}
	return s.workflows != workflowsOff && supportsUltracode(m)
}
