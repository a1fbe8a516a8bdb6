package history

import (
	"strings"

	"github.com/airwire/airwire/internal/lookup"
)

// replayHiddenCommands are slash commands whose marker-only rows are the
// client's own UI noise: the replay drops them. Other marker-only command
// rows replay as the command line.
var replayHiddenCommands = lookup.Set{
	"/context", "/heapdump", "/extra-usage", "/compact",
	"/model", "/mcp", "/status", "/usage",
}

// transcriptMarkers are the tags the CLI wraps around what a user row holds
// that nobody typed: local command records and injected context.
var transcriptMarkers = []string{
	"command-name", "command-message", "command-args", "local-command-stdout", "local-command-stderr",
	"system-reminder", "task-notification",
}

// stripMarkers removes each <tag>…</tag> marker, up to the nearest closing
// tag of the same name; an opening tag without a closing one stays.
func stripMarkers(text string) string {
	dead := map[string]bool{}
	var b strings.Builder
	copied := 0
	for i := 0; i < len(text); {
		if text[i] != '<' {
			i++
			continue
		}
		tag := ""
		for _, m := range transcriptMarkers {
			if !dead[m] && strings.HasPrefix(text[i:], "<"+m+">") {
				tag = m
				break
			}
		}
		if tag == "" {
			i++
			continue
		}
		open, close := "<"+tag+">", "</"+tag+">"
		end := strings.Index(text[i+len(open):], close)
		if end < 0 {
			dead[tag] = true
			i++
			continue
		}
		b.WriteString(text[copied:i])
		i += len(open) + end + len(close)
		copied = i
	}
	b.WriteString(text[copied:])
	return b.String()
}

// MarkerText is the trimmed text of the first <tag>…</tag> in text ("" for
// none): a task notification's <task-id> or <status>, say.
func MarkerText(text, tag string) string {
	v, _ := markerText(text, tag)
	return strings.TrimSpace(v)
}

// markerText is the text of the first <tag>…</tag> in text.
func markerText(text, tag string) (string, bool) {
	open, close := "<"+tag+">", "</"+tag+">"
	start := strings.Index(text, open)
	if start < 0 {
		return "", false
	}
	rest := text[start+len(open):]
	end := strings.Index(rest, close)
	if end < 0 {
		return "", false
	}
	return rest[:end], true
}

// commandLine is what a marker-only row of a slash command shows: the
// command and its arguments; false for command output and hidden commands.
func commandLine(text string) (string, bool) {
	if _, ok := markerText(text, "local-command-stdout"); ok {
		return "", false
	}
	if _, ok := markerText(text, "local-command-stderr"); ok {
		return "", false
	}
	name, _ := markerText(text, "command-name")
	name = strings.TrimSpace(name)
	if !strings.HasPrefix(name, "/") {
		return "", false
	}
	if first, _, _ := strings.Cut(name, " "); replayHiddenCommands.Has(first) {
		return "", false
	}
	args, _ := markerText(text, "command-args")
	if args = strings.TrimSpace(args); args != "" {
		return name + " " + args, true
	}
	return name, true
}

// userText is the text of a user row as the replay shows it: without
// markers; false when nothing meaningful is left.
func userText(text string) (string, bool) {
	if s := stripMarkers(text); strings.TrimSpace(s) != "" {
		return s, true
	}
	return commandLine(text)
}
