package sessionconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// ParamsError is a -32602 error; Error() is the wire message and Data,
// when set, the error's `data`.
type ParamsError struct {
	Detail string
	Data   json.RawMessage
}

// Code is the JSON-RPC error code.
func (e *ParamsError) Code() int { return -32602 }

func (e *ParamsError) Error() string { return "Invalid params: " + e.Detail }

func invalid(format string, args ...any) error {
	return &ParamsError{Detail: fmt.Sprintf(format, args...)}
}

// Plan is a planned change: send Requests (control request bodies, the
// `request` objects) to the CLI in order, awaiting each, then Sync when
// set, then Commit.
type Plan struct {
	Requests []json.RawMessage
	// Sync is a best-effort request sent after Requests succeeded (the
	// effort sync of a model switch, contract "Recommended config
	// values"): when it fails, the change still stands and the caller
	// calls CommitUnsynced instead of Commit.
	Sync json.RawMessage
	// ModelChange says the change switches the session to another model.
	ModelChange bool
	commit      func() Outcome
	unsynced    func() Outcome
}

// Commit applies the change to the session once the CLI accepted every
// request (and Sync, when set).
func (p Plan) Commit() Outcome { return p.commit() }

// CommitUnsynced applies the change after Requests succeeded and Sync
// failed.
func (p Plan) CommitUnsynced() Outcome {
	if p.unsynced == nil {
		return p.commit()
	}
	return p.unsynced()
}

// Outcome is what a committed change publishes.
type Outcome struct {
	// Updates are session/update objects to send before the response.
	Updates []json.RawMessage
	// Result is the response's result.
	Result json.RawMessage
	// After are control requests to send once the response is out,
	// without waiting (a model switch's get_context_usage).
	After []json.RawMessage
}

// SetMode plans `session/set_mode`: set_permission_mode with the effective
// mode (Accept edits for Auto on a model without it), a
// current_mode_update when that differs from the request, then a
// config_option_update; the result is {}.
func (s *Session) SetMode(modeID string) (Plan, error) {
	effective, err := s.effectiveMode(modeID)
	if err != nil {
		return Plan{}, err
	}
	return Plan{Requests: []json.RawMessage{request("set_permission_mode", "mode", effective)}, commit: func() Outcome {
		s.mode = effective
		var out Outcome
		if effective != modeID {
			out.Updates = append(s.fallback.Notice(), s.CurrentModeUpdate())
		}
		out.Updates = append(out.Updates, s.ConfigOptionUpdate())
		out.Result = json.RawMessage(`{}`)
		return out
	}}, nil
}

func (s *Session) effectiveMode(modeID string) (string, error) {
	if !slices.Contains(knownModes, modeID) {
		return "", invalid("Invalid Mode: %s", modeID)
	}
	if !s.offers(modeID) {
		return "", invalid("Mode %s is not available in this session", modeID)
	}
	if modeID == modeAuto.ID && s.CurrentModel().AutoUnavailable() {
		return modeAccept.ID, nil
	}
	return modeID, nil
}

// SetConfigOption plans `session/set_config_option`; the result is
// {configOptions}. value is the request's raw value.
func (s *Session) SetConfigOption(configID string, value json.RawMessage) (Plan, error) {
	var opt *configOption
	for _, o := range s.options() {
		if o.ID == configID {
			opt = &o
			break
		}
	}
	if opt == nil {
		return Plan{}, invalid("Unknown config option: %s", configID)
	}
	if err := checkValueType(*opt, value); err != nil {
		return Plan{}, err
	}
	switch configID {
	case "fast", "ultracode":
		on, err := onOff(configID, value)
		if err != nil {
			return Plan{}, err
		}
		return s.setToggle(configID, on), nil
	}
	var v string
	_ = json.Unmarshal(value, &v) // checkValueType: a string
	if !slices.ContainsFunc(opt.Options, func(c choice) bool { return c.Value == v }) {
		if m, ok := findModel(s.models, v); configID == "model" && ok {
			v = m.Value
		} else {
			return Plan{}, invalid("Invalid value for config option %s: %s", configID, v)
		}
	}
	switch configID {
	case "mode":
		return s.setModeOption(v)
	case "model":
		return s.setModel(v), nil
	case "effort":
		return s.setEffort(v), nil
	case "agent":
		return s.picker.set(v, s.result), nil
	}
	return Plan{}, invalid("Unknown config option: %s", configID)
}

func (s *Session) result() json.RawMessage {
	return marshal(map[string]any{"configOptions": s.options()})
}

// checkValueType refuses a value of the wrong JSON type for opt: a
// boolean option takes true or false, a select option a string (the
// reference's message, with the config id and the value as `data`).
func checkValueType(opt configOption, value json.RawMessage) error {
	want := "string"
	if opt.Type == "boolean" {
		want = "boolean"
	}
	if jsonType(value) == want {
		return nil
	}
	shown := compactJSON(value)
	data := map[string]any{"configId": opt.ID}
	if len(value) > 0 {
		data["value"] = shown
	}
	return &ParamsError{Detail: fmt.Sprintf("Config option %s takes a %s value, but received: %s", opt.ID, want, shown),
		Data: marshal(data)}
}

// jsonType is the JavaScript typeof of a JSON value, for the types a
// config value can take ("" for the others and for none).
func jsonType(value json.RawMessage) string {
	switch v := bytes.TrimSpace(value); {
	case len(v) == 0:
		return ""
	case v[0] == '"':
		return "string"
	case string(v) == "true" || string(v) == "false":
		return "boolean"
	}
	return ""
}

// compactJSON is value as JSON.stringify writes it; an absent value reads
// as `undefined`.
func compactJSON(value json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if len(value) == 0 || json.Compact(&b, value) != nil {
		return json.RawMessage("undefined")
	}
	return b.Bytes()
}

// onOff reads a toggle's value, already of the option's type: a boolean,
// or the select's "on" or "off".
func onOff(id string, value json.RawMessage) (bool, error) {
	var b bool
	if json.Unmarshal(value, &b) == nil {
		return b, nil
	}
	var str string
	_ = json.Unmarshal(value, &str)
	if str == "on" || str == "off" {
		return str == "on", nil
	}
	return false, invalid("Invalid value for config option %s: %s", id, str)
}

// setToggle applies fast mode or ultracode with apply_flag_settings.
func (s *Session) setToggle(id string, on bool) Plan {
	key := map[string]string{"fast": "fastMode", "ultracode": "ultracode"}[id]
	settings := marshal(map[string]any{key: on})
	return Plan{Requests: []json.RawMessage{request("apply_flag_settings", "settings", settings)}, commit: func() Outcome {
		if id == "fast" {
			s.fast = on
		} else {
			s.ultracode = on
		}
		return Outcome{Result: s.result()}
	}}
}

// setModeOption: set_permission_mode, then a current_mode_update always.
func (s *Session) setModeOption(v string) (Plan, error) {
	effective, err := s.effectiveMode(v)
	if err != nil {
		return Plan{}, err
	}
	return Plan{Requests: []json.RawMessage{request("set_permission_mode", "mode", effective)}, commit: func() Outcome {
		s.mode = effective
		var said []json.RawMessage
		if effective != v {
			said = s.fallback.Notice()
		}
		return Outcome{Updates: append(said, s.CurrentModeUpdate()), Result: s.result()}
	}}, nil
}

// effortSettings is apply_flag_settings' body for an effort level:
// "default" clears it (null), and ultracode rides along while on.
func (s *Session) effortSettings(level string) json.RawMessage {
	var effort any = level
	if level == "" || level == "default" {
		effort = nil
	}
	settings := map[string]any{"effortLevel": effort}
	if s.ultracode {
		settings["ultracode"] = true
	}
	return request("apply_flag_settings", "settings", marshal(settings))
}

func (s *Session) setEffort(v string) Plan {
	return Plan{Requests: []json.RawMessage{s.effortSettings(v)}, commit: func() Outcome {
		s.effort, s.applied = v, v
		s.pinned = ""
		if v != "default" {
			s.pinned = v
		}
		return Outcome{Result: s.result()}
	}}
}

// FollowModel plans the switch that Claude Code made by itself (a /model
// command, a refusal fallback) to model: a picker row when one resolves
// it, else the id as it is, listed as a row of its own while current (the
// reference's syncModelAfterExternalSwitch). ok is false when the session
// already runs it.
func (s *Session) FollowModel(model string) (plan Plan, ok bool) {
	value := model
	if m, found := ResolveModel(s.models, model); found {
		value = m.Value
	}
	if value == s.model {
		return Plan{}, false
	}
	if _, listed := findModel(s.models, value); !listed {
		// The reference knows no abilities of such a model (no effort
		// levels, no Auto fallback), even one the CLI's own list names.
		s.unlisted.Model, s.unlisted.known = Model{}, false
	}
	return s.setModel(value), true
}

// setModel: set_model, then the options follow the new model (effort
// levels, Fast mode, ultracode); a pinned effort the model lacks is
// cleared with apply_flag_settings; Auto on a model without it becomes
// Accept edits (current_mode_update); get_context_usage follows. With
// recommended values the shown effort is applied (Plan.Sync) instead.
func (s *Session) setModel(v string) Plan {
	next, _ := findModel(s.models, v)
	settings := s.opts.settingsEffort() // read once, as the switch happens
	sync := s.syncEffort(next, v, settings)
	commit := func(synced bool) Outcome {
		changed, pinned := s.model != v, s.pinned
		s.model, s.reportedUltracode = v, nil
		if s.fastReason == "model_not_allowed" {
			s.fastReason = ""
		}
		m := s.CurrentModel()
		var out Outcome
		s.effort = settings.For(m.ResolvedModel, m.Value, v) // the settings' level for the new model
		if s.pinned != "" && m.SupportsEffort && slices.Contains(m.SupportedEffortLevels, s.pinned) {
			s.effort = s.pinned
		} else if s.pinned != "" {
			s.pinned = ""
			if sync == nil {
				out.After = append(out.After, s.effortSettings(""))
			}
		}
		s.afterSync(m, synced, pinned)
		if s.mode == modeAuto.ID && m.Value != "" && !m.SupportsAutoMode { // an unknown model keeps Auto
			s.mode = modeAccept.ID
			out.After = append(out.After, request("set_permission_mode", "mode", s.mode))
			out.Updates = append(out.Updates, s.CurrentModeUpdate())
			out.Updates = append(out.Updates, s.fallback.Notice()...)
		}
		if changed {
			out.After = append(out.After, request("get_context_usage", "detail", "summary"))
		}
		out.Result = s.result()
		return out
	}
	return Plan{Requests: []json.RawMessage{request("set_model", "model", v)}, Sync: sync, ModelChange: s.model != v,
		commit: func() Outcome { return commit(true) }, unsynced: func() Outcome { return commit(false) }}
}

// afterSync records the effort sync of a model switch to m (recommended
// values only): the applied effort when it succeeded, else the pin as it
// was and the last applied effort, or no effort selector.
func (s *Session) afterSync(m Model, synced bool, pinned string) {
	if !s.opts.Recommended {
		return
	}
	s.hideEffort = false
	if synced {
		s.applied = s.shownEffort()
		return
	}
	s.pinned = pinned
	s.unsynced(m)
}
