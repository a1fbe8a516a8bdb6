package permission

import (
	"encoding/json"
	"fmt"

	"github.com/airwire/airwire/internal/lookup"
)

// exitPlanModes maps the keep-context ExitPlanMode options to their mode.
var exitPlanModes = lookup.Map{
	{OptionExitPlanBypass, "bypassPermissions"},
	{OptionExitPlanAuto, "auto"},
	{OptionExitPlanAcceptEdits, "acceptEdits"},
	{OptionExitPlanDefault, "default"},
}

// exitPlanClearModes maps the clear-context ExitPlanMode options to their
// mode.
var exitPlanClearModes = lookup.Map{
	{OptionExitPlanClearAuto, "auto"},
	{OptionExitPlanClearBypass, "bypassPermissions"},
	{OptionExitPlanClearAcceptEdits, "acceptEdits"},
}

// applyExitPlan applies an ExitPlanMode choice (Permission modes):
//   - a keep-context mode allows with a session setMode, and the caller
//     publishes the mode (Decision.Mode);
//   - a clear-context mode denies with interrupt, so the old context does not
//     run ExitPlanMode, and the caller continues the plan in a fresh query
//     (Decision.ClearContextMode);
//   - reject denies with interrupt: "keep planning" stops the turn.
func (p *Prompt) applyExitPlan(id string) (Decision, error) {
	if mode, ok := exitPlanClearModes.Get(id); ok {
		plan := p.req.inputString("plan")
		if plan == "" {
			return Decision{}, fmt.Errorf("ExitPlanMode clear-context selection requires a plan")
		}
		d := Decision{Response: marshal(p.denyResult(msgFreshContext, true)), Interrupt: true, Plan: plan}
		d.ClearContextMode = p.session.effectiveMode(mode)
		return d, nil
	}
	if mode, ok := exitPlanModes.Get(id); ok {
		d := p.allow([]json.RawMessage{setModeUpdate(mode)}, mode != "default")
		d.Mode = p.session.effectiveMode(mode)
		return d, nil
	}
	if id == OptionReject {
		return Decision{Response: marshal(p.denyResult(msgKeepPlanning, true)), Interrupt: true}, nil
	}
	return p.applyCommon(id)
}

// setModeUpdate is a session setMode PermissionUpdate.
func setModeUpdate(mode string) json.RawMessage {
	u := newObject()
	u.set("type", marshal("setMode"))
	u.set("mode", marshal(mode))
	u.set("destination", marshal("session"))
	return marshal(u)
}

// autoModeFallback is the mode that replaces auto for a model without it.
const autoModeFallback = "acceptEdits"

// effectiveMode is the mode the session really gets for mode.
func (s Session) effectiveMode(mode string) string {
	if mode == "auto" && s.AutoUnavailable {
		return autoModeFallback
	}
	return mode
}

// autoFallback replaces the mode of every setMode auto update with
// acceptEdits, and reports whether one was replaced.
func autoFallback(updates []json.RawMessage) ([]json.RawMessage, bool) {
	out := make([]json.RawMessage, len(updates))
	replaced := false
	for i, raw := range updates {
		out[i] = raw
		o, ok := parseObject(raw)
		if !ok {
			continue
		}
		typ, _ := stringOf(o.get("type"))
		mode, _ := stringOf(o.get("mode"))
		if typ == "setMode" && mode == "auto" {
			o.set("mode", marshal(autoModeFallback))
			out[i], replaced = marshal(o), true
		}
	}
	return out, replaced
}
