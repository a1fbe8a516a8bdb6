package compaction

import (
	"strings"

	"github.com/airwire/airwire/internal/lazyre"
)

// compactionSummaryText reduces Claude's compaction output to the summary a
// user reads: the PostCompact hook reports the model's raw output (a
// `<summary>` span, often after an `<analysis>` block); the persisted
// transcript frames the same summary with continuation instructions for
// the model. Neither framing is kept, and a continuation message whose
// framing is not recognized gives no summary (ok false) rather than
// model-facing text.
func compactionSummaryText(raw string) (string, bool) {
	text := analysisLines.ReplaceAllString(raw, "")
	if loc := leadingAnalysis.FindStringIndex(text); loc != nil {
		text = text[:loc[0]] + text[loc[1]:]
	}
	if tagged, ok := taggedSummary(text); ok {
		text = tagged
	} else if continuationPreamble.MatchString(text) {
		body := persistedPreamble.ReplaceAllString(text, "")
		if body == text {
			return "", false
		}
		text = body
		for _, trailer := range persistedTrailers {
			if loc := trailer.FindStringIndex(text); loc != nil {
				text = text[:loc[0]] + text[loc[1]:]
			}
		}
	}
	text = strings.TrimSpace(text)
	return text, text != ""
}

var (
	// Tags on their own line, as the model writes them: a summary that
	// quotes `<summary>` mid-sentence is not cut at the mention.
	summaryOpenLine  = lazyre.New(`(?im)^[ \t]*<summary>[ \t]*\r?\n`)
	summaryCloseLine = lazyre.New(`(?im)^[ \t]*</summary>[ \t]*$`)
	// The model's reasoning before the summary: own-line blocks anywhere,
	// an inline one only at the start.
	analysisLines   = lazyre.New(`(?im)^[ \t]*<analysis>[ \t]*\r?\n[\s\S]*?\n[ \t]*</analysis>[ \t]*$`)
	leadingAnalysis = lazyre.New(`(?i)^\s*<analysis>[\s\S]*?</analysis>`)

	continuationPreamble = lazyre.New(`(?i)^\s*This session is being continued from a previous conversation`)
	persistedPreamble    = lazyre.New(`^\s*This session is being continued from a previous conversation[^\n]*\n+Summary:[ \t]*\r?\n`)
	persistedTrailers    = [...]*lazyre.Regexp{
		lazyre.New(`\n+If you need specific details from before compaction[\s\S]*$`),
		lazyre.New(`\n+(?:Please )?[Cc]ontinue the conversation from where it left (?:it )?off[\s\S]*$`),
	}
	inlineSummaryOpen = lazyre.New(`(?i)<summary>`)
)

// taggedSummary is the text inside the last own-line `<summary>` pair, else
// the widest inline `<summary>…</summary>` span.
func taggedSummary(raw string) (string, bool) {
	if closes := summaryCloseLine.FindAllStringIndex(raw, -1); closes != nil {
		end := closes[len(closes)-1][0]
		if opens := summaryOpenLine.FindAllStringIndex(raw[:end], -1); opens != nil {
			return raw[opens[len(opens)-1][1]:end], true
		}
	}
	open := inlineSummaryOpen.FindStringIndex(raw)
	closeAt := strings.LastIndex(strings.ToLower(raw), "</summary>")
	if open != nil && closeAt > open[0] {
		return raw[open[1]:closeAt], true
	}
	return "", false
}
