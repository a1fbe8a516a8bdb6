package mcpservers

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/airwire/airwire/adapter/mdtext"
	"github.com/airwire/airwire/internal/lazyre"
)

// groupOrder is the order of the status groups and of the summary counts;
// a disabled server is not a group but one line at the end.
var groupOrder = []string{"failed", "needs-auth", "pending", "connected"}

func groupTitle(state string) string {
	switch state {
	case "failed":
		return "Failed"
	case "needs-auth":
		return "Needs authentication"
	case "pending":
		return "Connecting"
	case "connected":
		return "Connected"
	}
	return mdtext.Escape(strings.ToUpper(state[:1]) + state[1:])
}

func summaryLabel(state string) string {
	switch state {
	case "needs-auth":
		return "need authentication"
	case "pending":
		return "connecting"
	case "connected", "failed", "disabled":
		return state
	}
	return mdtext.Escape(state)
}

const (
	maxErrorLength   = 160 // code points of one server's error
	maxWrapperLength = 60  // a longer segment is content, not a wrapper
)

var (
	errorCode     = lazyre.New(`^-?\d+$`)
	wrapperSuffix = lazyre.New(`(?i)(failed|error|exception)(\s+-?\d+)?$`)
	spaceRuns     = lazyre.New(`\s+`)
	backtickRuns  = lazyre.New("`+")
)

// Format is the Markdown of the `/mcp` list: a summary line, one group
// of servers per status, the disabled servers on one line, and how to
// reconnect when a server needs it. A list reads better than a table in a
// narrow chat.
func Format(statuses []Status) string {
	if len(statuses) == 0 {
		return "No MCP servers are configured."
	}
	dups := duplicates(statuses)
	blocks := []string{summaryLine(statuses)}
	for _, state := range append(slices.Clone(groupOrder), unknownStatuses(statuses)...) {
		lines := []string{"**" + groupTitle(state) + "**"}
		for _, s := range statuses {
			if s.Status == state {
				lines = append(lines, serverItem(s, dups))
			}
		}
		if len(lines) > 1 {
			blocks = append(blocks, strings.Join(lines, "\n"))
		}
	}
	var disabled []string
	for _, s := range statuses {
		if s.Status == "disabled" {
			disabled = append(disabled, serverName(s, dups))
		}
	}
	if len(disabled) > 0 {
		blocks = append(blocks, "**Disabled:** "+strings.Join(disabled, ", "))
	}
	if slices.ContainsFunc(statuses, needsReconnect) {
		blocks = append(blocks, "Run `/mcp reconnect <server>` to reconnect one server, or `/mcp reconnect` to reconnect every server that is not connected and not disabled.")
	}
	return strings.Join(blocks, "\n\n")
}

// summaryLine counts the servers per status in the group order; an
// unknown status counts too, so the counts add up to the total.
func summaryLine(statuses []Status) string {
	var parts []string
	for _, state := range append(append(slices.Clone(groupOrder), unknownStatuses(statuses)...), "disabled") {
		n := 0
		for _, s := range statuses {
			if s.Status == state {
				n++
			}
		}
		switch {
		case n == 0:
		case n == 1 && state == "needs-auth":
			parts = append(parts, "1 needs authentication")
		default:
			parts = append(parts, itoa(n)+" "+summaryLabel(state))
		}
	}
	return "**MCP servers:** " + itoa(len(statuses)) + " (" + strings.Join(parts, ", ") + ")"
}

// unknownStatuses are the statuses this agent does not know, in the order
// Claude Code gave them: it can report a new one first.
func unknownStatuses(statuses []Status) []string {
	var out []string
	for _, s := range statuses {
		if !slices.Contains(groupOrder, s.Status) && s.Status != "disabled" && !slices.Contains(out, s.Status) {
			out = append(out, s.Status)
		}
	}
	return out
}

// needsReconnect: a `/mcp reconnect` without a name retries the server.
func needsReconnect(s Status) bool {
	return s.Status == "failed" || s.Status == "pending" || s.Status == "needs-auth"
}

// duplicates are the names that more than one server has (servers of
// different scopes).
func duplicates(statuses []Status) map[string]bool {
	seen, dups := map[string]bool{}, map[string]bool{}
	for _, s := range statuses {
		if seen[s.Name] {
			dups[s.Name] = true
		}
		seen[s.Name] = true
	}
	return dups
}

func serverItem(s Status, dups map[string]bool) string {
	var details []string
	if s.Error != "" {
		if e := CleanError(s.Error); e != "" {
			details = append(details, mdtext.Escape(e))
		}
	}
	if s.Tools != nil {
		n := len(*s.Tools)
		details = append(details, map[bool]string{true: "1 tool", false: itoa(n) + " tools"}[n == 1])
	}
	name := serverName(s, dups)
	if len(details) == 0 {
		return "- " + name
	}
	return "- " + name + ": " + strings.Join(details, "; ")
}

// serverName is the name as inline code; a name that two servers share
// gets the scope (else the source) that tells them apart.
func serverName(s Status, dups map[string]bool) string {
	origin := s.Scope
	if origin == nil {
		origin = s.Source
	}
	if dups[s.Name] && origin != nil && *origin != "" {
		return codeSpan(s.Name) + " (" + mdtext.Escape(*origin) + ")"
	}
	return codeSpan(s.Name)
}

// codeSpan is text as a Markdown code span whose fence is longer than the
// longest backtick run in it, padded where CommonMark would strip or join.
func codeSpan(text string) string {
	longest := 0
	for _, run := range backtickRuns.FindAllString(text, -1) {
		longest = max(longest, len(run))
	}
	fence := strings.Repeat("`", longest+1)
	stripped := strings.HasPrefix(text, " ") && strings.HasSuffix(text, " ") && strings.Trim(text, " \r\n") != ""
	pad := ""
	if strings.HasPrefix(text, "`") || strings.HasSuffix(text, "`") || stripped {
		pad = " "
	}
	return fence + pad + text + pad + fence
}

// CleanError makes an MCP error short for one list item: no leading
// wrapper segments ("MCP startup failed", "McpError", an error code, a type
// path), at most two sentences and maxErrorLength code points. A wrapper
// before an error code stays, so a code is never alone.
func CleanError(err string) string {
	segments := strings.Split(strings.TrimSpace(spaceRuns.ReplaceAllString(err, " ")), ": ")
	start := 0
	for start < len(segments)-1 && isWrapper(segments[start]) && !allErrorCodes(segments[start+1:]) {
		start++
	}
	content := strings.Join(segments[start:], ": ")
	sentences := splitAfterPunct(content, false)
	if len(sentences) > 2 {
		sentences = sentences[:2]
	}
	return truncate(strings.Join(sentences, " "))
}

func isWrapper(seg string) bool {
	return errorCode.MatchString(seg) || strings.Contains(seg, "::") ||
		(utf16Len(seg) <= maxWrapperLength && !strings.ContainsAny(seg, ".!?") && wrapperSuffix.MatchString(seg))
}

func allErrorCodes(segs []string) bool {
	for _, s := range segs {
		if !errorCode.MatchString(s) {
			return false
		}
	}
	return true
}

// splitAfterPunct splits text at the spaces that follow '.', '!' or '?':
// at one space (as `/(?<=[.!?]) /`), or with anyWhite at a run of
// whitespace (as `/(?<=[.!?])\s+/`).
func splitAfterPunct(text string, anyWhite bool) []string {
	var out []string
	start := 0
	for i := 1; i < len(text); i++ {
		if !strings.ContainsRune(".!?", rune(text[i-1])) || !isSplitSpace(text[i], anyWhite) {
			continue
		}
		out = append(out, text[start:i])
		j := i + 1
		for anyWhite && j < len(text) && isSplitSpace(text[j], true) {
			j++
		}
		start, i = j, j
	}
	return append(out, text[start:])
}

func isSplitSpace(b byte, anyWhite bool) bool {
	if !anyWhite {
		return b == ' '
	}
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v'
}

// truncate cuts text to maxErrorLength code points, with an ellipsis.
func truncate(text string) string {
	if utf8.RuneCountInString(text) <= maxErrorLength {
		return text
	}
	r := []rune(text)[:maxErrorLength-1]
	return strings.TrimRight(string(r), " \t\r\n") + "…"
}

// utf16Len is the length JavaScript gives a string.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

func itoa(n int) string {
	return strconv.Itoa(n)
}
