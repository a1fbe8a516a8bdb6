package sessionconfig

import (
	"encoding/json"
	"slices"

	"github.com/airwire/airwire/adapter/claudesettings"
)

// Options are the session's inputs that do not come from the CLI.
type Options struct {
	// Mode is the permission mode the session starts in (the reference's
	// resolveInitialPermissionMode: an explicit mode, the transcript's,
	// settings' defaultMode, else "auto" when offered).
	Mode string
	// BuiltInDefault is true when Mode is the built-in default (nobody
	// chose it): a model without Auto support then starts in Manual
	// instead of Accept edits.
	BuiltInDefault bool
	// AllowAuto and AllowBypass offer the Auto and Bypass permissions modes.
	AllowAuto, AllowBypass bool
	// Model is the preferred model (ANTHROPIC_MODEL or settings' model);
	// empty or unmatched keeps the CLI's first model.
	Model string
	// Resumed is a stored session whose CLI resumed its transcript;
	// ResumedModel is the model the transcript's last answer ran on, the
	// session's model when no preferred model matches.
	Resumed      bool
	ResumedModel string
	// CLIModels is the CLI's own model list, before an allowlist or a
	// gateway narrowed it to the picker's rows: it knows the abilities of
	// a model the session runs that the picker does not list.
	CLIModels []Model
	// Effort is the session's own effort level (the request's
	// `_meta.claudeCode.options.effort`, "" for none); it wins over
	// SettingsEffort when the session opens.
	Effort string
	// SettingsEffort reads the settings' effort levels, the session's
	// programmatic settings over the files', as they are when it is
	// called: the level a model opens at, and the level a model switch
	// moves to unless the client picked one the new model offers. Nil
	// reads none.
	SettingsEffort func() claudesettings.Effort
	// Ultracode is settings' ultracode, used when get_settings is silent.
	Ultracode bool
	// BooleanOptions is the client's session.configOptions.boolean: Fast
	// mode and ultracode are then booleans instead of on/off selects.
	BooleanOptions bool
	// Recommended is the client's AIR `recommendedValue` capability:
	// concrete model and effort rows with a recommendation (contract
	// "Recommended config values").
	Recommended bool
	// PresentationHints is true for an AIR client: each mode and each
	// value of the mode option carries `_meta.jetbrains.air.kind`
	// (contract: "Presentation hints").
	PresentationHints bool
	// Agent is the agent the CLI started as (--agent), "" for none.
	Agent string
	// Notices is the client's session.notices: the session's advisories
	// (Fast mode turned off, Auto mode unavailable) go as `notice` updates,
	// else as transcript lines.
	Notices bool
}

// settingsEffort is o.SettingsEffort's levels as they are now; none
// without it.
func (o Options) settingsEffort() claudesettings.Effort {
	if o.SettingsEffort == nil {
		return claudesettings.Effort{}
	}
	return o.SettingsEffort()
}

type workflowsState int

const (
	workflowsUnknown workflowsState = iota // the CLI's report cannot tell
	workflowsOn                            // dynamic workflows enabled
	workflowsOff                           // disabled by plan, setting or policy
)

// Session holds one session's modes and config options.
type Session struct {
	opts   Options
	models []Model
	modes  []Mode
	mode   string
	model  string
	// unlisted is the current model when the picker's rows lack it (a
	// resume onto a model the allowlist leaves out): listed as a row of
	// its own while current; known says the CLI's list knows its abilities.
	unlisted struct {
		Model
		known bool
	}
	effort     string
	pinned     string // effort the client picked this session ("" none)
	applied    string // effort last applied to the SDK for recommendedValue
	hideEffort bool   // a failed effort sync hides the selector until a switch succeeds
	fast       bool
	fastReason string
	fallback   AutoFallback
	ultracode  bool
	workflows  workflowsState
	// reportedUltracode is get_settings' ultracodeAvailable, which
	// decides until the first model switch.
	reportedUltracode *bool
	picker            agentPicker // the agent picker (agents.go)
}

// New builds a session's state from the CLI's initialize and get_settings
// answers.
func New(in Init, st Settings, o Options) *Session {
	s := opening(in, o)
	current := s.CurrentModel()
	s.effort, s.reportedUltracode = o.Effort, st.UltracodeAvailable
	if s.effort == "" {
		s.effort = o.settingsEffort().For(current.ResolvedModel, current.Value)
	}
	s.fallback = AutoFallback{pending: o.Mode == modeAuto.ID && s.mode == modeAccept.ID, notices: o.Notices}
	s.fast = in.FastModeState != "" && in.FastModeState != "off"
	if !s.fast {
		s.fastReason = fastReason(in.FastModeDisabledReason)
	}
	agents := customAgents(in.Agents)
	s.picker = agentPicker{agents: agents, value: initialAgent(agents, o.Agent)}
	s.ultracode = o.Ultracode
	if st.UltracodeRequested != nil {
		s.ultracode = *st.UltracodeRequested
	}
	switch {
	case st.UltracodeAvailable != nil && *st.UltracodeAvailable:
		s.workflows = workflowsOn
	case st.UltracodeAvailable != nil && supportsUltracode(current):
		s.workflows = workflowsOff
	}
	return s
}

// opening is the session's model (the preferred one, else a resumed
// session's, else the CLI's first) and starting mode, which New and
// Opening share.
func opening(in Init, o Options) *Session {
	s := &Session{opts: o, models: in.Models, modes: withModeKinds(AvailableModes(o.AllowAuto, o.AllowBypass), o.PresentationHints)}
	if len(in.Models) > 0 {
		s.model = in.Models[0].Value
	}
	if m, ok := ResolveModel(in.Models, o.Model); ok {
		s.model = m.Value
	} else if o.Resumed && o.ResumedModel != "" {
		s.model = o.ResumedModel
		if m, ok := matchResumed(in.Models, o.ResumedModel); ok {
			s.model = m.Value
		}
	}
	s.unlisted.Model, s.unlisted.known = unlisted(s.models, o.CLIModels, s.model)
	s.mode = s.initialMode(s.CurrentModel())
	return s
}

// unlisted is the current model, value, when the rows lack it, with the
// abilities of the CLI's model that its id names (known: the CLI's list
// names one).
func unlisted(rows, cli []Model, value string) (m Model, known bool) {
	if len(rows) == 0 || slices.ContainsFunc(rows, func(m Model) bool { return m.Value == value }) {
		return Model{}, false
	}
	m, known = ResolveModel(cli, value)
	m.Value, m.DisplayName, m.Description, m.ResolvedModel = value, value, "", ""
	return m, known
}

// Opening is what a session settles with its CLI between the initialize
// and the get_settings answers, as the SDK does: the set_model to the
// preferred model when the CLI would not land on it by itself, then the
// set_permission_mode when the starting mode differs from the requested
// one. A resumed session runs its transcript's model until told
// otherwise. When the set_model fails, the caller asks again with no
// preferred model.
func Opening(in Init, o Options) (setModel, setMode json.RawMessage) {
	s := opening(in, o)
	pref := o.Model
	if m, ok := ResolveModel(in.Models, pref); ok {
		verbatim := m.Value == pref && slices.ContainsFunc(o.CLIModels, func(x Model) bool { return x.Value == m.Value })
		if o.Resumed || !verbatim {
			setModel = request("set_model", "model", m.Value)
		}
	}
	if s.mode != o.Mode {
		setMode = request("set_permission_mode", "mode", s.mode)
	}
	return setModel, setMode
}

// initialMode clamps the requested mode: one not offered falls back to
// Manual; Auto on a model without it to Manual (built-in default) or
// Accept edits.
func (s *Session) initialMode(current Model) string {
	switch {
	case !s.offers(s.opts.Mode):
		return modeDefault.ID
	case s.opts.Mode == modeAuto.ID && current.Value != "" && !current.SupportsAutoMode && s.opts.BuiltInDefault:
		return modeDefault.ID
	case s.opts.Mode == modeAuto.ID && current.Value != "" && !current.SupportsAutoMode:
		return modeAccept.ID
	}
	return s.opts.Mode
}

func (s *Session) offers(mode string) bool {
	return slices.ContainsFunc(s.modes, func(m Mode) bool { return m.ID == mode })
}

// Mode returns the current permission mode.
func (s *Session) Mode() string { return s.mode }

// Model returns the current model's picker value.
func (s *Session) Model() string { return s.model }

// CurrentModel returns the current model's CLI entry (for its window and
// abilities); none for an unlisted model the CLI's list does not know.
func (s *Session) CurrentModel() Model {
	if m, ok := findModel(s.models, s.model); ok {
		return m
	}
	if s.unlisted.known && s.unlisted.Value == s.model {
		return s.unlisted.Model
	}
	return Model{}
}

// ConfigOptions returns `configOptions`.
func (s *Session) ConfigOptions() json.RawMessage { return marshal(s.options()) }

// Modes returns `modes` ({currentModeId, availableModes}).
func (s *Session) Modes() json.RawMessage {
	return marshal(map[string]any{"currentModeId": s.mode, "availableModes": s.modes})
}

// Result returns the session/new (load, resume, fork) result for sessionID.
func (s *Session) Result(sessionID string) json.RawMessage {
	return marshal(map[string]any{"sessionId": sessionID, "modes": json.RawMessage(s.Modes()),
		"configOptions": json.RawMessage(s.ConfigOptions())})
}

// CurrentModeUpdate is the `current_mode_update` update object.
func (s *Session) CurrentModeUpdate() json.RawMessage {
	return marshal(map[string]any{"sessionUpdate": "current_mode_update", "currentModeId": s.mode})
}

// ConfigOptionUpdate is the `config_option_update` update object.
func (s *Session) ConfigOptionUpdate() json.RawMessage {
	return marshal(map[string]any{"sessionUpdate": "config_option_update", "configOptions": s.options()})
}

func marshal(v any) json.RawMessage {
	out, _ := json.Marshal(v)
	return out
}

// request builds a control request body (the `request` object) of subtype
// with one field.
func request(subtype, key string, value any) json.RawMessage {
	return marshal(map[string]any{"subtype": subtype, key: value})
}
