package sessionconfig

import (
	"strings"

	"github.com/airwire/airwire/internal/lazyre"
)

// A preferred model (ANTHROPIC_MODEL, or the settings' `model`) names a
// model of the CLI's list loosely, as people write model names. It is
// matched in four steps, the first that finds one winning:
//
//  1. the exact value, its canonical spelling, or the display name;
//  2. the resolved model id (a concrete row before `default`);
//  3. a row whose value or display name contains the preference, or that
//     the preference contains, of the same version and context hint;
//  4. the row of the same version that shares the most words with it, a
//     context hint ("[1m]") counting three.

var (
	familyVersionRE = lazyre.New(`\b(\d+)(?:[-.](\d+))?\b`)
	contextHintRE2  = lazyre.New(`(?i)\[(\d+m)\]$`)
	nonWordRE       = lazyre.New(`[^a-z0-9]+`)
	anyLetterRE     = lazyre.New(`[a-z]`)
	hintsRE         = lazyre.New(`(?i)\[\d+m\]`)
)

// ResolveModel is the model of models that pref names; false for none.
func ResolveModel(models []Model, pref string) (Model, bool) {
	pref = strings.TrimSpace(pref)
	if pref == "" {
		return Model{}, false
	}
	if m, ok := findModel(models, pref); ok {
		return m, true
	}
	canon := canonicalModelID(pref)
	resolves := func(m Model) bool { return m.ResolvedModel != "" && canonicalModelID(m.ResolvedModel) == canon }
	for _, concrete := range []bool{true, false} {
		for _, m := range models {
			if (!concrete || m.Value != "default") && resolves(m) {
				return m, true
			}
		}
	}
	if m, ok := containsMatch(models, pref); ok {
		return m, true
	}
	return bestWordMatch(models, pref)
}

// containsMatch is step 3.
func containsMatch(models []Model, pref string) (Model, bool) {
	lower, hint := strings.ToLower(pref), contextHint(pref)
	for _, m := range models {
		if !versionsCompatible(pref, m) || contextHint(m.Value) != hint {
			continue
		}
		value, display := strings.ToLower(m.Value), strings.ToLower(m.DisplayName)
		if strings.Contains(value, lower) || strings.Contains(display, lower) || strings.Contains(lower, value) {
			return m, true
		}
	}
	return Model{}, false
}

// bestWordMatch is step 4; the first of equal scores wins.
func bestWordMatch(models []Model, pref string) (Model, bool) {
	words, hint := preferenceWords(pref)
	if len(words) == 0 {
		return Model{}, false
	}
	var best Model
	bestScore := 0
	for _, m := range models {
		if !versionsCompatible(pref, m) {
			continue
		}
		if score := wordScore(m, words, hint); score > bestScore {
			best, bestScore = m, score
		}
	}
	return best, bestScore > 0
}

// preferenceWords splits a preference into the words that can tell models
// apart: "claude", "default" and "best" say nothing, "opusplan" is Opus,
// and a word of digits alone only counts as a context size ("1m").
func preferenceWords(pref string) (words []string, hint string) {
	lower := strings.ToLower(strings.TrimSpace(pref))
	if g := contextHintRE2.FindStringSubmatch(lower); g != nil {
		hint = g[1]
	}
	spaced := contextHintRE2.ReplaceAllString(lower, " $1 ")
	for _, w := range nonWordRE.Compiled().Split(spaced, -1) {
		switch w {
		case "opusplan":
			w = "opus"
		case "best", "default", "claude":
			w = ""
		}
		if w != "" && (anyLetterRE.MatchString(w) || strings.HasSuffix(w, "m")) {
			words = append(words, w)
		}
	}
	return words, hint
}

// wordScore counts the words found in the model's value and display name.
// Only the context hint matching scores nothing: it alone does not name
// a model.
func wordScore(m Model, words []string, hint string) int {
	hay := strings.ToLower(m.Value + " " + m.DisplayName)
	score, named := 0, false
	for _, w := range words {
		if !strings.Contains(hay, w) {
			continue
		}
		if w == hint {
			score += 3
		} else {
			score++
			named = true
		}
	}
	if hint != "" && !named {
		return 0
	}
	return score
}

// contextHint is the "1m" of "opus[1m]" or "opus-1m"; "" for none.
func contextHint(s string) string {
	if g := contextHintRE2.FindStringSubmatch(canonicalModelID(s)); g != nil {
		return g[1]
	}
	return ""
}

// familyVersionOf is the first version number in s ("5.5", "4"), context
// hints left out; "" for none.
func familyVersionOf(s string) string {
	s = contextHintRE.ReplaceAllString(hintsRE.ReplaceAllString(s, ""), "")
	g := familyVersionRE.FindStringSubmatch(s)
	switch {
	case g == nil:
		return ""
	case g[2] != "":
		return g[1] + "." + g[2]
	}
	return g[1]
}

// versionsCompatible: a preference with a version only names models of
// that version, or models whose value, display name and description show
// none.
func versionsCompatible(pref string, m Model) bool {
	want := familyVersionOf(pref)
	if want == "" {
		return true
	}
	for _, s := range []string{m.Value, m.DisplayName, m.Description} {
		if v := familyVersionOf(s); v != "" {
			return v == want
		}
	}
	return true
}
