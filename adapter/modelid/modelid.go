// Package modelid compares Claude model ids across the spellings that
// name one model: a gateway's listing, a provider's prefixed ids, and the
// `deniedModels` of managed settings all write them differently.
package modelid

import (
	"strings"

	"github.com/airwire/airwire/adapter/jsstr"
	"github.com/airwire/airwire/internal/lazyre"
	"github.com/airwire/airwire/internal/lookup"
)

// familyAliases are the picker values that name a model family.
var familyAliases = lookup.Set{"opus", "sonnet", "haiku", "fable"}

// IsFamily reports whether a normalized id is a family alias ("opus").
func IsFamily(id string) bool { return familyAliases.Has(id) }

var (
	contextHint     = lazyre.New(`\[\d+m\]`)
	contextSuffix   = lazyre.New(`-\d+m$`)
	variantSuffix   = lazyre.New(`:[a-z][a-z0-9-]*$`)
	versionAt       = lazyre.New(`@[^\n\r\x{2028}\x{2029}]*$`)
	bedrockVersion  = lazyre.New(`-v\d+(?::\d+)?$`)
	dateSuffix      = lazyre.New(`-\d{8}$`)
	anthropicPrefix = "anthropic."
)

// Normalize is a model id without the spellings that name the same
// model: provider prefixes, context hints, `:variant` suffixes, dotted
// versions, `@` and Bedrock version suffixes, `-fast` and dates. OpenRouter
// lists `anthropic/claude-opus-5.5:batch[1m]`, which is `claude-opus-5-5`;
// `anthropic/openai/gpt-5` keeps its `openai/` and matches no Claude id.
func Normalize(value string) string {
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

// Denied reports whether managed settings' deniedModels block id, as
// closely as a model picker needs Claude Code's rule: a family alias
// blocks the whole family, and a model id blocks that version in every
// spelling and the later minor versions it prefixes (`claude-opus-5` also
// blocks `claude-opus-5-5`). The CLI stays the enforcer; this only keeps
// the picker from offering a row the CLI would refuse.
func Denied(id string, denied []string) bool {
	n := Normalize(id)
	if n == "" {
		return false
	}
	for _, entry := range denied {
		d := Normalize(entry)
		switch {
		case d == "":
		case IsFamily(d):
			if n == d || strings.Contains(n, "-"+d) {
				return true
			}
		case n == d || strings.HasPrefix(n, d+"-"):
			return true
		}
	}
	return false
}
