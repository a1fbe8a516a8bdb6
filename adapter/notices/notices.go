// Package notices is ACP session notices (the Session Notices RFD): an
// editor that declares clientCapabilities.session.notices gets the
// session's advisories (a CLI warning, a model fallback, a stopped task) as
// `notice` updates, plain text with a severity, a title and an optional
// description; every other editor gets a bold-label transcript line, the
// only form it can show.
package notices

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// TitleLimit is the longest notice title, in UTF-16 code units (TextLen).
const TitleLimit = 256

// Notice is one advisory.
type Notice struct {
	Severity    string // info or warning
	Title       string
	Description string // optional
}

// Update is the `notice` session update.
func (n Notice) Update() map[string]any {
	u := map[string]any{"sessionUpdate": "notice", "severity": n.Severity, "title": n.Title}
	if n.Description != "" {
		u["description"] = n.Description
	}
	return u
}

// Line is the notice as a transcript line, for an editor without session
// notices: the bold title, then the description, as an agent message
// chunk with meta as its _meta (none when nil).
func (n Notice) Line(meta map[string]any) map[string]any {
	text := "**" + n.Title + "**"
	if n.Description != "" {
		text = "**" + n.Title + ":** " + n.Description
	}
	u := map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": text}}
	if meta != nil {
		u["_meta"] = meta
	}
	return u
}

// ReasonUpdate is the update of a notice whose description is a reason
// that reads on after the bold label: for an editor with session notices
// (notices) the notice, its description the reason sentence-cased; else
// the transcript line "**title:** reason".
func ReasonUpdate(severity, title, reason string, notices bool) map[string]any {
	n := Notice{Severity: severity, Title: title, Description: reason}
	if !notices {
		return n.Line(nil)
	}
	n.Description = SentenceCase(reason)
	return n.Update()
}

// SentenceCase is text with its first letter upper case: a fragment that
// reads on after a bold label, standing alone.
func SentenceCase(text string) string {
	r, n := utf8.DecodeRuneInString(text)
	if n == 0 {
		return text
	}
	return string(unicode.ToUpper(r)) + text[n:]
}

// Split shapes free text into a notice: its first line is the title when
// that line is at most TitleLimit long, the rest the description; a longer
// first line puts the whole text in the description under fallbackTitle.
// Light markdown is dropped first (PlainText).
func Split(severity, text, fallbackTitle string) Notice {
	trimmed := strings.TrimSpace(PlainText(text))
	if trimmed == "" {
		return Notice{Severity: severity, Title: fallbackTitle}
	}
	first, rest, _ := strings.Cut(trimmed, "\n")
	first = strings.TrimRightFunc(first, unicode.IsSpace)
	if TextLen(first) > TitleLimit {
		return Notice{Severity: severity, Title: fallbackTitle, Description: trimmed}
	}
	return Notice{Severity: severity, Title: first, Description: strings.TrimSpace(rest)}
}

// TextLen is the length of s in UTF-16 code units, the unit the limits of
// notice titles count in.
func TextLen(s string) int {
	n := 0
	for _, r := range s {
		n += max(utf16.RuneLen(r), 1)
	}
	return n
}

// Normalize collapses whitespace, so that a notice's text is
// recognized when the CLI repeats it elsewhere (a hook-blocked turn's
// result).
func Normalize(text string) string { return strings.Join(strings.Fields(text), " ") }

// PlainText drops the inline markdown a transcript would render and
// a notice shows literally: heading marks at line starts, **bold** and
// __bold__ markers, and `code` quotes.
func PlainText(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		rest := strings.TrimLeft(l, " \t")
		hashes := len(rest) - len(strings.TrimLeft(rest, "#"))
		if hashes >= 1 && hashes <= 6 && len(rest) > hashes && (rest[hashes] == ' ' || rest[hashes] == '\t') {
			lines[i] = strings.TrimLeft(rest[hashes:], " \t")
		}
	}
	text = strings.Join(lines, "\n")
	text = unwrapMarker(text, "**")
	text = unwrapMarker(text, "__")
	return unquoteCode(text)
}

// unwrapMarker replaces each marker-wrapped span whose first and last
// characters are not spaces with its inside (the shortest such span).
func unwrapMarker(text, marker string) string {
	var b strings.Builder
	for {
		open := strings.Index(text, marker)
		if open < 0 {
			break
		}
		inner := text[open+len(marker):]
		r, _ := utf8.DecodeRuneInString(inner)
		end := closingMarker(inner, marker)
		if inner == "" || unicode.IsSpace(r) || end < 0 {
			b.WriteString(text[:open+1])
			text = text[open+1:]
			continue
		}
		b.WriteString(text[:open])
		b.WriteString(inner[:end])
		text = inner[end+len(marker):]
	}
	b.WriteString(text)
	return b.String()
}

// closingMarker is the index in inner of the first marker that follows a
// character other than a space (at least one character in), or -1.
func closingMarker(inner, marker string) int {
	for from := 1; from < len(inner); {
		i := strings.Index(inner[from:], marker)
		if i < 0 {
			return -1
		}
		at := from + i
		r, _ := utf8.DecodeLastRuneInString(inner[:at])
		if !unicode.IsSpace(r) {
			return at
		}
		from = at + 1
	}
	return -1
}

// unquoteCode replaces `code` with code where the backticks stand free: no
// word character or backtick right outside them, no newline or backtick
// inside.
func unquoteCode(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); {
		inner := ""
		if text[i] == '`' {
			if j := strings.IndexByte(text[i+1:], '`'); j > 0 {
				inner = text[i+1 : i+1+j]
			}
		}
		after := i + 2 + len(inner)
		if inner != "" && !strings.Contains(inner, "\n") && freeBefore(text, i) && freeAfter(text, after) {
			b.WriteString(inner)
			i = after
			continue
		}
		b.WriteByte(text[i])
		i++
	}
	return b.String()
}

func freeBefore(text string, i int) bool {
	r, n := utf8.DecodeLastRuneInString(text[:i])
	return n == 0 || !(wordRune(r) || r == '`')
}

func freeAfter(text string, i int) bool {
	r, n := utf8.DecodeRuneInString(text[i:])
	return n == 0 || !(wordRune(r) || r == '`')
}

// wordRune is JavaScript's \w: an ASCII letter, digit or underscore.
func wordRune(r rune) bool {
	return r == '_' || r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))
}
