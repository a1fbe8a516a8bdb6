package sessionconfig

import (
	"encoding/json"

	"github.com/airwire/airwire/adapter/notices"
	"github.com/airwire/airwire/internal/lookup"
)

// Fast mode as the CLI reports it: its fast_mode_state ("on", "off" or
// "cooldown") and fast_mode_disabled_reason, at the session's start
// (initialize) and on each system/init and user-turn result line after.

// fastExplanations say why Fast mode is off, for the reasons a user can
// act on; other reasons are not shown.
var fastExplanations = lookup.Map{
	{"free", "not available on the free plan"},
	{"extra_usage_disabled", "requires extra usage to be enabled for this account"},
	{"model_not_allowed", "not available for the selected model"},
	{"not_first_party", "not available on this API provider"},
	{"disabled_by_env", "disabled by environment configuration"},
	{"network_error", "eligibility could not be verified (network error)"},
}

// fastReason is the reason the session keeps of a reported one: one it can
// explain, else none, so that a routine report (sdk_opt_in_required) never
// changes the option.
func fastReason(reason string) string {
	if _, ok := fastExplanations.Get(reason); ok {
		return reason
	}
	return ""
}

// fastDescription is the Fast mode option's description: why it is off,
// when the reason is one to show.
func fastDescription(on bool, reason string) string {
	desc := "Faster responses on supported models"
	if why := fastExplanations.Value(reason); !on && why != "" {
		desc += " — " + why
	}
	return desc
}

// SyncFast reconciles Fast mode with a state the CLI reported on a
// system/init or user-turn result line, as the reference's
// syncFastModeState: nothing for no state, on a model without Fast mode
// (the state tells its capability, not the user's choice), or in a
// cooldown (a pause of Fast mode that is on); else, when the state or the
// explained reason changed, a config_option_update, after a "Fast mode
// turned off" warning when Fast mode was on and the CLI turned it off
// for a reason it explains (once, at the flip).
func (s *Session) SyncFast(state, reason string) []json.RawMessage {
	if state == "" || !s.CurrentModel().SupportsFastMode || state == "cooldown" {
		return nil
	}
	on := state == "on"
	next := ""
	if !on {
		next = fastReason(reason)
	}
	if on == s.fast && next == s.fastReason {
		return nil
	}
	var out []json.RawMessage
	if why := fastExplanations.Value(next); s.fast && !on && why != "" {
		out = append(out, marshal(notices.ReasonUpdate("warning", "Fast mode turned off", why+".", s.opts.Notices)))
	}
	s.fast, s.fastReason = on, next
	return append(out, s.ConfigOptionUpdate())
}
