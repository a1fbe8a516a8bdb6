package sessionconfig

import (
	"regexp"
	"slices"
	"strings"

	"github.com/airwire/airwire/internal/lazyre"
)

var (
	versionableRE   = lazyre.New(`(?i)^(?:Claude\s+)?([a-z][a-z0-9-]*)(?:\s+\d+(?:\.\d+)?)?(?:\s+\(\d+[mk]\s+context\))?$`)
	contextSuffixRE = lazyre.New(`(?i)\s+\((\d+[mk])\s+context\)$`)
	hasVersionRE    = lazyre.New(`\b\d+(?:\.\d+)?\b`)
)

// familyVersion finds "<family> 5.5" or "<family>-5-5" in the model's
// resolved id, description or value, never in the name being rewritten.
func familyVersion(m Model, family string) string {
	re := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(family) + `[-\s]+(\d+)(?:[-.](\d+))?`)
	for _, src := range []string{m.ResolvedModel, m.Description, m.Value} {
		if g := re.FindStringSubmatch(src); g != nil {
			if g[2] != "" {
				return g[1] + "." + g[2]
			}
			return g[1]
		}
	}
	return ""
}

// versionedName adds the version to a terse label naming a family ("Opus"
// becomes "Opus 5.5"); other labels stay as they are.
func versionedName(m Model) string {
	v := versionableRE.FindStringSubmatch(m.DisplayName)
	if v == nil {
		return m.DisplayName
	}
	version := familyVersion(m, v[1])
	if version == "" {
		return m.DisplayName
	}
	suffix := contextSuffixRE.FindStringSubmatch(m.DisplayName)
	keeps := suffix != nil && regexp.MustCompile(`(?i)\b`+regexp.QuoteMeta(suffix[1])+`\s+context\b`).MatchString(m.Description)
	bare := contextSuffixRE.ReplaceAllString(m.DisplayName, "")
	switch {
	case hasVersionRE.MatchString(bare) && keeps:
		return bare
	case hasVersionRE.MatchString(bare):
		return m.DisplayName
	case keeps || suffix == nil:
		return bare + " " + version
	}
	return bare + " " + version + strings.TrimPrefix(m.DisplayName, bare)
}

// pickerNames names each model for the picker: versioned when that keeps
// names unique, else the CLI's label, and "(value)" appended to names that
// still repeat.
func pickerNames(models []Model) []string {
	versioned := make([]string, len(models))
	counts := map[string]int{}
	for i, m := range models {
		versioned[i] = versionedName(m)
		counts[versioned[i]]++
	}
	names := make([]string, len(models))
	again := map[string]int{}
	for i, m := range models {
		names[i] = versioned[i]
		if counts[versioned[i]] != 1 {
			names[i] = m.DisplayName
		}
		again[names[i]]++
	}
	for i, m := range models {
		if again[names[i]] != 1 {
			names[i] += " (" + m.Value + ")"
		}
	}
	return names
}

// canonicalModelID lowercases an id and writes a "-1m" hint as "[1m]".
func canonicalModelID(s string) string {
	return contextHintRE.ReplaceAllString(strings.ToLower(strings.TrimSpace(s)), "[$1]")
}

var contextHintRE = lazyre.New(`(?i)-(\d+m)$`)

// findModel is the model the picker value names: the exact value, its
// canonical spelling or the display name (the reference's direct match).
func findModel(models []Model, pref string) (Model, bool) {
	pref = strings.TrimSpace(pref)
	for _, m := range models {
		if m.Value == pref || canonicalModelID(m.Value) == canonicalModelID(pref) || strings.EqualFold(m.DisplayName, pref) {
			return m, pref != ""
		}
	}
	return Model{}, false
}

func (s *Session) modelOption() configOption {
	names := pickerNames(s.models)
	var def *Model
	for i := range s.models {
		if s.models[i].Value == "default" {
			def = &s.models[i]
		}
	}
	var opts []choice
	for i, m := range s.models {
		desc := m.Description
		if m.Value == "default" && def.ResolvedModel != "" {
			desc = def.ResolvedModel
			for _, o := range s.models {
				if o.Value != "default" && o.ResolvedModel == def.ResolvedModel {
					desc = o.DisplayName
					break
				}
			}
		}
		opts = append(opts, choice{Value: m.Value, Name: names[i], Description: desc, described: true})
	}
	o := configOption{ID: "model", Name: "Model", Description: "AI model to use", Category: "model",
		Type: "select", CurrentValue: s.model, Options: opts}
	s.recommendModel(&o)
	// The current value must be an option: a model the rows lack is
	// listed as itself while current.
	if !slices.ContainsFunc(o.Options, func(c choice) bool { return c.Value == o.CurrentValue }) {
		o.Options = append(o.Options, choice{Value: s.model, Name: s.model})
	}
	return o
}
