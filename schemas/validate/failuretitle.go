package validate

import (
	"strings"

	"github.com/airwire/airwire/internal/lazyre"
)

// RuleFailureTitleLeak is the rule of "Session failure > Title and
// details": "Raw exceptions, stack traces, transport URLs, tokens,
// headers, environment values, and private paths are never a title."
// What a journal shows mechanically: a URL, an IP address or a host with a
// port, a token-like secret, or a filesystem path of two or more segments
// in a sessionFailure title.
const RuleFailureTitleLeak = "session-failure-title-leak"

// titleLeak is one kind of text a failure title never carries.
type titleLeak struct {
	what string
	re   *lazyre.Regexp
	// mixed: the match counts only when it holds a letter and a digit.
	mixed bool
}

// titleLeaks are checked in order; the first that matches is reported. A
// one-segment slash command (/login, /usage-credits) is no path, a model
// id (claude-sonnet-4-5-20250929) no token.
var titleLeaks = [...]titleLeak{
	{"a URL", lazyre.New(`(?i)\b[a-z][a-z0-9+.-]*://[^\s()<>"']+`), false},
	{"an IP address", lazyre.New(`\b(?:\d{1,3}\.){3}\d{1,3}\b|\[[0-9a-fA-F]*:[0-9a-fA-F:]*\]`), false},
	{"a host and port", lazyre.New(`(?i)\b(?:localhost|[a-z0-9-]+(?:\.[a-z0-9-]+)+):\d{1,5}\b`), false},
	{"a token", lazyre.New(`(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{6,}|\b(?:sk|key|tok)-[A-Za-z0-9_-]{8,}`), false},
	{"a filesystem path", lazyre.New(`(?:^|[\s(\[:'"=])(?:~[/\\][^\s/\\()<>"',;]+|(?:~|[A-Za-z]:)?(?:[/\\][^\s/\\()<>"',;:]+){2,})`), false},
	{"a token", lazyre.New(`[A-Za-z0-9+/]{32,}={0,2}`), true},
}

// leakIn returns what title leaks and the matched text ("" when nothing).
func leakIn(title string) (what, text string) {
	for _, l := range titleLeaks {
		m := l.re.FindString(title)
		if m == "" {
			continue
		}
		m = strings.TrimLeft(m, " \t\r\n([:'\"=")
		if l.mixed && !mixedRun(m) {
			continue // a run of letters only, or digits only, is a word or a number
		}
		return l.what, m
	}
	return "", ""
}

// mixedRun reports whether s holds both a letter and a digit: a base64 or
// hex secret does, a long word does not.
func mixedRun(s string) bool {
	return strings.ContainsAny(s, "0123456789") && strings.IndexFunc(s, func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}) >= 0
}

// hookFailureTitle checks the title of one sessionFailure record.
func hookFailureTitle(c *checker, h hookCtx) {
	title, ok := field(h.val, "title").(string)
	if !ok || !c.fromAgent() {
		return
	}
	if what, text := leakIn(title); what != "" {
		c.add(h.ptr+"/title", RuleFailureTitleLeak, SectionFailure, SeverityError,
			"the title carries %s (%q); transport URLs, tokens and private paths are never a title (Title and details)", what, text)
	}
}
