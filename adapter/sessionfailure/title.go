package sessionfailure

import (
	"fmt"
	"math"
	"strings"

	"github.com/airwire/airwire/adapter/claude"
	"github.com/airwire/airwire/internal/lazyre"
)

// Contract "Title and details": the title is the user-facing text Claude
// already sent, but "raw exceptions, stack traces, transport URLs, tokens,
// headers, environment values, and private paths are never a title".
// SafeTitle keeps Claude's sentence and cuts those parts out.

var (
	// urlRE: a URL of any scheme.
	urlRE = lazyre.New(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s()<>"']+`)
	// addressRE: an IP address, localhost or a host name with a port.
	addressRE = lazyre.New(`\b(?:\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?|localhost:\d+|[a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+)+:\d+)\b|\[[0-9a-fA-F:]+\](?::\d+)?`)
	// tokenRE: API keys and bearer credentials.
	tokenRE = lazyre.New(`(?i)\bbearer\s+\S+|\b(?:sk|key|tok)-[A-Za-z0-9_-]{8,}`)
	// pathRE: a path of two or more segments (absolute, home or
	// Windows); a one-segment slash command like /login stays.
	pathRE = lazyre.New(`(?:~|[A-Za-z]:)?(?:[/\\][^\s/\\()<>"',;]+){2,}[/\\]?`)
	// emptyParensRE: what is left of "(127.0.0.1:8080)".
	emptyParensRE = lazyre.New(`\s*\(\s*\)|\s*\[\s*\]`)
	spacesRE      = lazyre.New(`[ \t]{2,}`)
	spacePunctRE  = lazyre.New(`\s+([.,;:!?])`)
)

// SafeTitle returns text without URLs, network addresses, tokens and
// paths, trimmed ("" when nothing is left).
func SafeTitle(text string) string {
	for _, re := range []*lazyre.Regexp{urlRE, tokenRE, addressRE, pathRE} {
		text = re.ReplaceAllString(text, "")
	}
	text = emptyParensRE.ReplaceAllString(text, "")
	text = spacesRE.ReplaceAllString(text, " ")
	text = spacePunctRE.ReplaceAllString(text, "$1")
	return strings.TrimSpace(text)
}

// apiRetry is the SDK's `system/api_retry` frame.
// RetryTitle reads an api_retry frame: the kind of the failure being
// retried (TransportLost when no HTTP response came) and the warning's
// title, "Retrying Claude, attempt <n> of <max>." or "Reconnecting to
// Claude, attempt <n> of <max>." ("Categories and actions"), with the
// wait when the API sent no response headers. ok is false for a frame
// that is not one, and for a sign-in failure, whose error follows.
func RetryTitle(m *claude.Frame) (k Kind, title string, ok bool) {
	k, verb := ProviderKind(m.Error, false), "Retrying Claude"
	if m.ErrorStatus == nil {
		k, verb = TransportLost, "Reconnecting to Claude"
	}
	if k == AuthRequired {
		return "", "", false
	}
	title = fmt.Sprintf("%s, attempt %d of %d.", verb, m.Attempt, m.MaxRetries)
	if n := m.NoResponse; n != nil {
		title += fmt.Sprintf(" No response after %s; waiting up to %s.", seconds(n.WaitedMs), seconds(n.RetryWaitMs))
	}
	return k, title, true
}

// seconds shows a wait in whole seconds, at least 1.
func seconds(ms float64) string {
	return fmt.Sprintf("%ds", int(math.Max(1, math.Round(ms/1000))))
}
