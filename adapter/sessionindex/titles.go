package sessionindex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf16"

	"github.com/airwire/airwire/adapter/history"
	"github.com/airwire/airwire/internal/lazyre"
)

// Titles of a list row (contract: "List response"): the agent name, else
// the title the SDK reports (custom title from the tail, the sidecar, the
// head; AI title; last prompt; summary; first prompt).

const maxPromptLength = 200

var (
	commandNameRE = lazyre.New(`<command-name>(.*?)</command-name>`)
	bashInputRE   = lazyre.New(`<bash-input>([\s\S]*?)</bash-input>`)
	skippedTextRE = lazyre.New(`^(?:\s*<[a-z][\w-]*[\s>]|\[Request interrupted by user[^\]]*\])`)
)

type block struct {
	Type string  `json:"type"`
	Text *string `json:"text"`
}

// contentTexts are the texts of a message content and whether it holds a
// tool result, an image or a document.
func contentTexts(content json.RawMessage) (texts []string, toolResult, media bool) {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return []string{s}, false, false
	}
	var blocks []block
	_ = json.Unmarshal(content, &blocks)
	for _, b := range blocks {
		switch b.Type {
		case "tool_result":
			toolResult = true
		case "image", "document":
			media = true
		case "text":
			if b.Text != nil {
				texts = append(texts, *b.Text)
			}
		}
	}
	return texts, toolResult, media
}

func firstText(content json.RawMessage) string {
	texts, _, _ := contentTexts(content)
	if len(texts) == 0 {
		return ""
	}
	return texts[0]
}

// promptOf is the prompt text of a user record ("" for none); a slash
// command goes to *fallback instead.
func promptOf(e entry, m message, fallback *string) string {
	if e.Type != "user" || e.IsMeta || e.IsCompactSummary {
		return ""
	}
	texts, toolResult, _ := contentTexts(m.Content)
	if toolResult {
		return ""
	}
	for _, raw := range texts {
		text := strings.TrimSpace(strings.ReplaceAll(history.ExpandPastedContent(raw), "\n", " "))
		if text == "" {
			continue
		}
		if c := commandNameRE.FindStringSubmatch(text); c != nil {
			if *fallback == "" {
				*fallback = c[1]
			}
			continue
		}
		if b := bashInputRE.FindStringSubmatch(text); b != nil {
			return "! " + strings.TrimSpace(b[1])
		}
		if skippedTextRE.MatchString(text) {
			continue
		}
		return cutPrompt(text)
	}
	return ""
}

func cutPrompt(text string) string {
	u := utf16.Encode([]rune(text))
	if len(u) <= maxPromptLength {
		return text
	}
	u = u[:maxPromptLength]
	if last := u[len(u)-1]; last >= 0xd800 && last <= 0xdbff {
		u = u[:len(u)-1]
	}
	return strings.TrimSpace(string(utf16.Decode(u))) + "…"
}

// isUserPrompt: a prompt the user sent (prompt text, an image or a
// document), not a tool result, meta or compact record, interrupt or slash
// command.
func isUserPrompt(e entry, m message) bool {
	var fb string
	if promptOf(e, m, &fb) != "" {
		return true
	}
	if e.Type != "user" || e.IsMeta || e.IsCompactSummary {
		return false
	}
	_, toolResult, media := contentTexts(m.Content)
	return media && !toolResult
}

func isUserLine(line string) bool {
	return strings.Contains(line, `"type":"user"`) || strings.Contains(line, `"type": "user"`)
}

func skipPromptLine(line string) bool {
	for _, s := range []string{`"tool_result"`, `"isMeta":true`, `"isMeta": true`, `"isCompactSummary":true`, `"isCompactSummary": true`} {
		if strings.Contains(line, s) {
			return true
		}
	}
	return false
}

// firstPrompt is the first prompt of the head, else its first slash
// command, else "Image" or "Document" for a media prompt.
func firstPrompt(head string) string {
	var fallback string
	for _, line := range strings.Split(head, "\n") {
		if !isUserLine(line) || skipPromptLine(line) {
			continue
		}
		e, m, ok := parseEntry(line)
		if !ok {
			continue
		}
		if p := promptOf(e, m, &fallback); p != "" {
			return p
		}
	}
	if fallback != "" {
		return fallback
	}
	return mediaPrompt(head)
}

func mediaPrompt(head string) string {
	for _, line := range strings.Split(head, "\n") {
		if !isUserLine(line) || strings.Contains(line, `"tool_result"`) || strings.Contains(line, `"isMeta":true`) {
			continue
		}
		switch {
		case strings.Contains(line, `"type":"image"`) || strings.Contains(line, `"type": "image"`):
			return "Image"
		case strings.Contains(line, `"type":"document"`) || strings.Contains(line, `"type": "document"`):
			return "Document"
		}
	}
	return ""
}

// sdkTitlesWith is the custom title and the summary the SDK reports,
// given the tail's titles; the sidecar counts only when the tail has no
// custom title. A transcript within one window has its head as its tail:
// that is read once, and the head only when the tail lacks a title.
func sdkTitlesWith(ht headTail, tail windowTitles, sidecar string) (customTitle, summary string) {
	var head windowTitles
	if !ht.whole && tail.custom == "" && sidecar == "" {
		head = lastTitles(ht.head)
	}
	customTitle = firstNonEmpty(tail.custom, sidecar, head.custom)
	if customTitle == "" {
		customTitle = firstNonEmpty(tail.ai, head.ai)
	}
	if customTitle != "" {
		return customTitle, customTitle
	}
	// Each source is read only when the ones before it are empty.
	if p := lastField(ht.sdkTail, "lastPrompt"); p != "" {
		return "", p
	}
	if s := lastField(ht.sdkTail, "summary"); s != "" {
		return "", s
	}
	return "", firstPrompt(ht.head)
}

// windowTitles are the last custom and AI titles of a window.
type windowTitles struct{ custom, ai string }

// titleAnchor ends both title keys: a window is searched for it once.
const titleAnchor = `Title":`

// lastTitles is lastField(text, "customTitle") and lastField(text,
// "aiTitle"), from one pass over text.
func lastTitles(text string) windowTitles {
	var raw [2]string
	var found [2]bool
	for off := 0; ; {
		i := strings.Index(text[off:], titleAnchor)
		if i < 0 {
			break
		}
		at := off + i
		off = at + 1
		key := -1
		switch {
		case strings.HasSuffix(text[:at], `"custom`):
			key = 0
		case strings.HasSuffix(text[:at], `"ai`):
			key = 1
		}
		if key < 0 {
			continue
		}
		v := text[at+len(titleAnchor):]
		if v != "" && strings.IndexByte(" \t\n\f\r", v[0]) >= 0 {
			v = v[1:]
		}
		if body, ok := stringBody(v); ok {
			raw[key], found[key] = body, true
			off = len(text) - len(v) + len(body) + 2
		}
	}
	var out [2]string
	for k := range raw {
		if found[k] {
			out[k] = decodeJSONString(raw[k])
		}
	}
	return windowTitles{custom: out[0], ai: out[1]}
}

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}

// lastAgentName is the last non-blank top-level agentName of text's records.
func lastAgentName(text string) string {
	if !hasKey(text, "agentName") {
		return ""
	}
	lines := strings.Split(text, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if !strings.Contains(lines[i], `"agentName"`) {
			continue
		}
		var r struct {
			AgentName any `json:"agentName"`
		}
		if json.Unmarshal([]byte(lines[i]), &r) != nil {
			continue
		}
		if s, ok := r.AgentName.(string); ok && strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// transcriptAgentName is the last agent name of the tail, else the head.
func transcriptAgentName(ht headTail) string {
	if ht.whole {
		return lastAgentName(ht.tail)
	}
	if name := lastAgentName(ht.tail); name != "" {
		return name
	}
	return lastAgentName(ht.head)
}

// sidecarPath is <project dir>/<session id>/custom-title.json of a transcript.
func sidecarPath(transcript string) string {
	id := strings.TrimSuffix(filepath.Base(transcript), ".jsonl")
	return filepath.Join(filepath.Dir(transcript), id, "custom-title.json")
}

// readSidecar is the trimmed title of a transcript's sidecar ("" for none).
func readSidecar(transcript string) string {
	data, err := os.ReadFile(sidecarPath(transcript))
	if err != nil {
		return ""
	}
	var v struct {
		CustomTitle string `json:"customTitle"`
	}
	if json.Unmarshal(data, &v) != nil {
		return ""
	}
	return strings.TrimSpace(v.CustomTitle)
}

// copyTitle is the title of one transcript and its archive state: the
// agent name, else the SDK summary; archived by the agent name, else the
// custom title.
func copyTitle(ht headTail, transcript string) (title string, archived bool) {
	title, archived, _ = copyTitles(ht, transcript)
	return title, archived
}

// copyTitles is copyTitle and the custom title the SDK reports.
func copyTitles(ht headTail, transcript string) (title string, archived bool, custom string) {
	sidecar, tail := "", lastTitles(ht.sdkTail)
	if tail.custom == "" {
		sidecar = readSidecar(transcript)
	}
	custom, summary := sdkTitlesWith(ht, tail, sidecar)
	name := transcriptAgentName(ht)
	archived = IsArchivedTitle(firstNonEmpty(name, custom))
	return firstNonEmpty(name, summary), archived, custom
}

// displayTitle is the title the list shows: one line, at most 256 UTF-16
// units, without the archive prefix of an archived session.
func displayTitle(title string, archived bool) string {
	if archived {
		title = VisibleTitle(title)
	}
	s := strings.Join(strings.Fields(title), " ")
	u := utf16.Encode([]rune(s))
	if len(u) <= 256 {
		return s
	}
	return string(utf16.Decode(u[:255])) + "…"
}

// ValidID reports whether id can name a stored session (a UUID): anything
// else (a `/`, `..`, NUL or a drive prefix) never reaches the file system.
func ValidID(id string) bool { return history.ValidID(id) }

// continuedIn is the session this transcript was continued in, unless a
// completed turn or a prompt follows the continued-in record.
func continuedIn(tail string) string {
	if !hasKey(tail, "continuedInSessionId") || !strings.Contains(tail, `"type":"continued-in"`) {
		return ""
	}
	lines := strings.Split(tail, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		cont := strings.Contains(l, `"type":"continued-in"`)
		if !cont && !strings.Contains(l, `"type":"user"`) && !strings.Contains(l, `"type":"assistant"`) {
			continue
		}
		var r struct {
			Type string `json:"type"`
			ID   string `json:"continuedInSessionId"`
		}
		if json.Unmarshal([]byte(l), &r) != nil {
			continue
		}
		if r.Type == "continued-in" {
			if ValidID(r.ID) {
				return r.ID
			}
			return ""
		}
		e, m, _ := parseEntry(l)
		var fb string
		if (e.Type == "assistant" && !e.IsAPIErrorMessage && m.StopReason != nil) || promptOf(e, m, &fb) != "" {
			return ""
		}
	}
	return ""
}

// relocatedCwd is the cwd of the last relocated record of the tail.
func relocatedCwd(tail string) string {
	if !hasKey(tail, "relocatedCwd") || !strings.Contains(tail, `"relocated"`) {
		return ""
	}
	lines := strings.Split(tail, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if !strings.Contains(lines[i], `"relocated"`) {
			continue
		}
		var r struct {
			Type string `json:"type"`
			Cwd  string `json:"relocatedCwd"`
		}
		if json.Unmarshal([]byte(lines[i]), &r) == nil && r.Type == "relocated" && r.Cwd != "" {
			return r.Cwd
		}
	}
	return ""
}
