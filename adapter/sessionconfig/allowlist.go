package sessionconfig

import (
	"github.com/airwire/airwire/adapter/jsstr"
	"github.com/airwire/airwire/adapter/modelid"
)

// Allowed are the settings that restrict the model picker (Claude Code's
// "Restrict model selection"), read by adapter/claudesettings.
type Allowed struct {
	// Models is `availableModels`: nil for no allowlist.
	Models []string
	// Overrides is `modelOverrides`: the model id an entry goes to the
	// CLI as.
	Overrides map[string]string
	// Denied is the managed settings' `deniedModels`.
	Denied []string
	// Custom is ANTHROPIC_CUSTOM_MODEL_OPTION, a row the allowlist leaves.
	Custom string
}

// Apply is the picker's rows of the CLI's models under the allowlist.
// Default always stays (a bare one when the CLI lists none). Each entry
// then becomes a row, once, by its spelling, or its override when it has
// one, so that the model the CLI is asked for is the one the user wrote;
// it takes its name and abilities from the CLI's row it names
// (ResolveModel), or shows the entry itself when none. An entry that
// deniedModels block is left out. The custom model option is appended
// last when the CLI lists it. Without an allowlist the rows are the CLI's.
func (a Allowed) Apply(cli []Model) []Model {
	if a.Models == nil {
		return cli
	}
	def := Model{Value: "default", DisplayName: "Default"}
	var concrete []Model
	for _, m := range cli {
		if m.Value == "default" {
			def = m
		} else {
			concrete = append(concrete, m)
		}
	}
	rows := []Model{def}
	seen := map[string]bool{def.Value: true}
	for _, entry := range a.Models {
		entry = jsstr.Trim(entry)
		if entry == "" || seen[entry] {
			continue
		}
		effective := entry
		if o, ok := a.Overrides[entry]; ok {
			effective = o
		}
		if seen[effective] {
			continue
		}
		match, matched := ResolveModel(concrete, entry)
		if a.denied(entry, effective, match.ResolvedModel) {
			continue
		}
		row := Model{Value: effective, DisplayName: entry}
		if matched {
			row = match
			row.Value = effective
		}
		rows, seen[effective] = append(rows, row), true
	}
	if custom := jsstr.Trim(a.Custom); custom != "" && !seen[custom] {
		for _, m := range cli {
			if m.Value == custom {
				rows = append(rows, m)
				break
			}
		}
	}
	return rows
}

// denied reports whether deniedModels block any of the ids.
func (a Allowed) denied(ids ...string) bool {
	for _, id := range ids {
		if id != "" && modelid.Denied(id, a.Denied) {
			return true
		}
	}
	return false
}

// matchResumed is the row of models a resumed session runs on, from the
// model its transcript's last answer ran on: Default when that is
// Default's model; a row resolved to it; Default again when only a
// context hint differs; a row the name matches loosely (ResolveModel);
// else none, and the caller lists the model as it is.
func matchResumed(models []Model, live string) (Model, bool) {
	canon := canonicalModelID(live)
	var def *Model
	for i := range models {
		if models[i].Value == "default" {
			def = &models[i]
		}
	}
	if def != nil && def.ResolvedModel != "" && canonicalModelID(def.ResolvedModel) == canon {
		return *def, true
	}
	for _, m := range models {
		if m.ResolvedModel != "" && canonicalModelID(m.ResolvedModel) == canon {
			return m, true
		}
	}
	if def != nil && def.ResolvedModel != "" && withoutHints(canonicalModelID(def.ResolvedModel)) == withoutHints(canon) {
		return *def, true
	}
	return ResolveModel(models, live)
}

// withoutHints is a model id without its context hints ("[1m]", "-1m").
func withoutHints(s string) string {
	return contextHintRE.ReplaceAllString(hintsRE.ReplaceAllString(s, ""), "")
}
