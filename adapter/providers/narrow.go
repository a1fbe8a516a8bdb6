package providers

import (
	"strings"

	"github.com/airwire/airwire/internal/jsstr"
	"github.com/airwire/airwire/internal/lazyre"
	"github.com/airwire/airwire/internal/lookup"
)

// Model is a row of a session's model picker: Value is what the client
// picks, ResolvedModel the model the SDK resolves it to ("" when the SDK
// names none, as for an alias).
type Model struct{ Value, ResolvedModel string }

// familyAliases are the picker values that name a model family.
var familyAliases = lookup.Set{"opus", "sonnet", "haiku", "fable"}

// Narrow keeps the models a gateway listed and returns the indexes of
// those kept, so the caller filters its own rows. A row matches when its
// resolved model (its value when it has none) names a listed model in any
// spelling: `claude-sonnet-5[1m]` matches a listed
// `claude-sonnet-5-20260101`. Under a Bedrock regionPrefix a row resolved
// to another prefix is dropped even when its model is listed: the CLI
// would call it in the other region. A row named only by an alias is
// checked as far as the alias tells: `default` is kept, and a family
// alias when a model of that family is listed. When no kept row matches
// by its model, the gateway serves none of them and nothing is kept: the
// session offers no model.
func Narrow(models []Model, listed []string, regionPrefix string) []int {
	set := map[string]bool{}
	for _, id := range listed {
		if n := normalizeModelID(id); n != "" {
			set[n] = true
		}
	}
	var kept []int
	matched := false
	for i, m := range models {
		id := m.Value
		if m.ResolvedModel != "" {
			id = m.ResolvedModel
		}
		if p := RegionPrefix(id); regionPrefix != "" && p != "" && p != regionPrefix {
			continue
		}
		n := normalizeModelID(id)
		switch {
		case set[n]:
			matched = true
		case m.ResolvedModel != "":
			continue
		case m.Value != "default" && !(familyAliases.Has(n) && listsFamily(set, n)):
			continue
		}
		kept = append(kept, i)
	}
	if !matched {
		return nil
	}
	return kept
}

// listsFamily reports whether a listed model belongs to family.
func listsFamily(listed map[string]bool, family string) bool {
	for id := range listed {
		if strings.Contains(id, "-"+family) {
			return true
		}
	}
	return false
}

var (
	contextHint     = lazyre.New(`\[\d+m\]`)
	contextSuffix   = lazyre.New(`-\d+m$`)
	variantSuffix   = lazyre.New(`:[a-z][a-z0-9-]*$`)
	versionAt       = lazyre.New(`@[^\n\r\x{2028}\x{2029}]*$`)
	bedrockVersion  = lazyre.New(`-v\d+(?::\d+)?$`)
	dateSuffix      = lazyre.New(`-\d{8}$`)
	anthropicPrefix = "anthropic."
)

// normalizeModelID is a model id without the spellings that name the same
// model: provider prefixes, context hints, `:variant` suffixes, dotted
// versions, `@` and Bedrock version suffixes, `-fast` and dates. OpenRouter
// lists `anthropic/claude-opus-5.5:batch[1m]`, which is `claude-opus-5-5`;
// `anthropic/openai/gpt-5` keeps its `openai/` and matches no Claude id.
func normalizeModelID(value string) string {
	id := strings.ToLower(jsstr.Trim(value))
	id = contextSuffix.ReplaceAllString(contextHint.ReplaceAllString(id, ""), "")
	if i := strings.LastIndex(id, anthropicPrefix); i >= 0 {
		id = id[i+len(anthropicPrefix):]
	}
	id = strings.TrimPrefix(id, "anthropic/")
	id = variantSuffix.ReplaceAllString(id, "")
	id = dashDottedVersions(id)
	id = versionAt.ReplaceAllString(id, "")
	id = bedrockVersion.ReplaceAllString(id, "")
	id = strings.TrimSuffix(id, "-fast")
	return dateSuffix.ReplaceAllString(id, "")
}

// dashDottedVersions turns a dot between two digits into a dash:
// `claude-opus-5.5` is `claude-opus-5-5`.
func dashDottedVersions(id string) string {
	b := []byte(id)
	for i := 1; i+1 < len(b); i++ {
		if id[i] == '.' && isDigit(id[i-1]) && isDigit(id[i+1]) {
			b[i] = '-'
		}
	}
	return string(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
