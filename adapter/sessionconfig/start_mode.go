package sessionconfig

import "strings"

// settingsModes are the spellings settings may give permissions.defaultMode,
// case aside: the SDK's ids, the legacy shorthands Claude Code accepts,
// and "manual", the name Claude Code gives the default mode.
var settingsModes = map[string]string{
	"auto": modeAuto.ID, "default": modeDefault.ID, "manual": modeDefault.ID,
	"acceptedits": modeAccept.ID, "dontask": "dontAsk", "plan": modePlan.ID,
	"bypasspermissions": modeBypass.ID, "bypass": modeBypass.ID,
}

// StartMode is the mode a new session asks its CLI to start in, as the
// reference resolves it for a session without a transcript: the settings'
// defaultMode in any of its spellings (an unknown one, or Bypass
// permissions where it is not allowed, is Manual), else Auto when the
// session offers it and Manual when not. builtIn says no setting chose it.
// A mode the session does not offer is clamped later (Opening).
func StartMode(defaultMode string, allowAuto, allowBypass bool) (mode string, builtIn bool) {
	if defaultMode == "" {
		if allowAuto {
			return modeAuto.ID, true
		}
		return modeDefault.ID, true
	}
	mode, ok := settingsModes[strings.ToLower(strings.TrimSpace(defaultMode))]
	if !ok || (mode == modeBypass.ID && !allowBypass) {
		return modeDefault.ID, false
	}
	return mode, false
}
