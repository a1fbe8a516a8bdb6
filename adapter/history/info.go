package history

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/airwire/airwire/internal/lazyre"
)

// headTailBytes is how much of each end of a transcript a listing reads.
const headTailBytes = 64 << 10

// Info is what a listing knows of a stored session, read from the first
// and the last 64 KiB of its transcript only (the SDK's SDKSessionInfo).
type Info struct {
	SessionID string
	// Summary is the session's title: its custom title, AI title, last
	// prompt, stored summary or first prompt, the first found.
	Summary string
	// CustomTitle is the stored title: a custom one (a rename, a fork),
	// else the CLI's AI title ("" for none).
	CustomTitle string
	// Cwd is the directory the session ran in ("" when the transcript
	// does not say and the caller gave no project path).
	Cwd string
	// Modified is the transcript's modification time.
	Modified time.Time
}

// Stat reads the Info of session id, found in any project directory;
// false when it is not stored or has nothing to show.
func Stat(configDir, id string) (Info, bool) {
	p, ok := Find(configDir, id)
	if !ok {
		return Info{}, false
	}
	return readInfo(p, id, "")
}

// readInfo reads the Info of the transcript at path; projectPath is the
// cwd the listing asked for ("" for none), used when the rows name none.
func readInfo(path, id, projectPath string) (Info, bool) {
	w := windowPool.Get().(*windows)
	defer windowPool.Put(w)
	head, tail, st, ok := w.headTail(path)
	if !ok {
		return Info{}, false
	}
	first, _, _ := strings.Cut(head, "\n")
	if strings.Contains(first, `"isSidechain":true`) || strings.Contains(first, `"isSidechain": true`) {
		return Info{}, false
	}
	titled := storedTitle(head, tail, path, id)
	summary := titled
	// Each source only when the ones before gave nothing: a thousand
	// transcripts a page, each searched in windows of 64 KiB.
	for _, next := range []func() string{
		func() string { return lastString(tail, "lastPrompt") },
		func() string { return lastString(tail, "summary") },
		func() string { return firstPromptOf(head) },
		func() string { return mediaPrompt(head) },
	} {
		if summary != "" {
			break
		}
		summary = next()
	}
	if summary == "" {
		return Info{}, false
	}
	// Copies: a value may still be a part of the windows (headTail).
	return Info{
		SessionID: id, Summary: strings.Clone(summary), CustomTitle: strings.Clone(titled),
		Cwd:      strings.Clone(firstOf(lastRowString(tail, "relocated", "relocatedCwd"), firstString(head, "cwd"), projectPath)),
		Modified: st.ModTime(),
	}, true
}

// windows are the two buffers headTail reads into, reused from one
// transcript to the next (windowPool).
type windows struct{ head, tail [headTailBytes]byte }

var windowPool = sync.Pool{New: func() any { return new(windows) }}

// storedTitle is a transcript's custom title (from the tail, the sidecar
// file, the head), else its AI title (tail, head): "" for none. When the
// file fits one window, head and tail are the same text, searched once.
func storedTitle(head, tail, path, id string) string {
	whole := len(head) == len(tail) && unsafe.StringData(head) == unsafe.StringData(tail)
	title, present := lastStringOf(tail, "customTitle")
	if title == "" && !present {
		title = sidecarTitle(path, id)
	}
	if title == "" && !whole {
		title = lastString(head, "customTitle")
	}
	if title == "" {
		title = lastString(tail, "aiTitle")
	}
	if title == "" && !whole {
		title = lastString(head, "aiTitle")
	}
	return title
}

// headTail reads the first and the last 64 KiB of a non-empty regular file
// into w. The texts are the read bytes themselves, not copied and not
// checked for UTF-8 (a listing reads a thousand transcripts): whoever
// takes a value out of them makes it valid (stringAt) and copies it
// before w is read into again (readInfo).
func (w *windows) headTail(path string) (head, tail string, st os.FileInfo, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", "", nil, false
	}
	defer f.Close()
	st, err = f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() == 0 {
		return "", "", nil, false
	}
	head = readText(f, 0, w.head[:min(st.Size(), headTailBytes)])
	if head == "" {
		return "", "", nil, false
	}
	tail = head
	if off := st.Size() - headTailBytes; off > 0 {
		tail = readText(f, off, w.tail[:])
	}
	return head, tail, st, true
}

// readText reads f at off into buf, and is what it read as a string over
// buf (no copy).
func readText(f *os.File, off int64, buf []byte) string {
	got, _ := f.ReadAt(buf, off)
	if got == 0 {
		return ""
	}
	return unsafe.String(&buf[0], got)
}

// letterRarity ranks lower-case letters from the rarest in English text.
const letterRarity = "zqxjkvbpygfwmucldrhsnioate"

// anchorOf is the position of pat's rarest letter (a capital first), 1
// (after the quote) when it has none.
func anchorOf(pat string) int {
	best, rank := 1, len(letterRarity)
	for i := 1; i < len(pat); i++ {
		c := pat[i]
		r := strings.IndexByte(letterRarity, c)
		if c >= 'A' && c <= 'Z' {
			r = -1
		}
		if (r >= 0 || c >= 'A' && c <= 'Z') && r < rank {
			best, rank = i, r
		}
	}
	return best
}

// validUTF8 is s with each invalid sequence replaced (a window can cut a
// character in two). Only a value taken out of a window needs it: UTF-8
// never hides an ASCII byte, so keys and delimiters are found alike.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

func keyPatterns(key string) [2]string {
	return [2]string{`"` + key + `":"`, `"` + key + `": "`}
}

// indexKey is strings.Index(text, pat) for a key pattern (`"key":"`),
// searched by the pattern's tail from its rarest letter: strings.Index
// scans for the first byte of what it looks for, and `"` starts every
// JSON string, so a search anchored on it stops every few bytes of a
// transcript.
func indexKey(text, pat string) int {
	k := anchorOf(pat)
	anchor, prefix := pat[k:], pat[:k]
	for from := 0; ; {
		i := strings.Index(text[from:], anchor)
		if i < 0 {
			return -1
		}
		i += from
		if i >= k && text[i-k:i] == prefix {
			return i - k
		}
		from = i + 1
	}
}

// stringAt is the JSON string value that starts at text[start:], unescaped;
// false when it does not end in text.
func stringAt(text string, start int) (string, bool) {
	for i := start; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case '"':
			raw := text[start:i]
			if !strings.Contains(raw, `\`) {
				return validUTF8(raw), true
			}
			var s string
			if json.Unmarshal([]byte(`"`+raw+`"`), &s) != nil {
				return raw, true
			}
			return s, true
		}
	}
	return "", false
}

// lastString is the value of the last complete `"key":"…"` in text.
func lastString(text, key string) string {
	v, _ := lastStringOf(text, key)
	return v
}

// lastStringOf is the value of the last complete `"key":"…"` (or
// `"key": "…"`) in text, and whether such a key starts in text at all:
// one scan for both forms.
func lastStringOf(text, key string) (string, bool) {
	pat := `"` + key + `":`
	best, seen := "", false
	for from := 0; ; {
		i := indexKey(text[from:], pat)
		if i < 0 {
			return best, seen
		}
		v := from + i + len(pat)
		from = v
		if strings.HasPrefix(text[v:], " ") {
			v++
		}
		if !strings.HasPrefix(text[v:], `"`) {
			continue
		}
		seen = true
		if s, ok := stringAt(text, v+1); ok {
			best = s
		}
	}
}

// firstString is the value of the first `"key":"…"` in text (the compact
// form first, as the SDK looks).
func firstString(text, key string) string {
	for _, p := range keyPatterns(key) {
		if i := indexKey(text, p); i >= 0 {
			v, _ := stringAt(text, i+len(p))
			return v
		}
	}
	return ""
}

// lastRowString is field of the last complete row of type typ in text.
func lastRowString(text, typ, field string) string {
	if indexKey(text, `"`+field+`":`) < 0 {
		return ""
	}
	for rest := text; rest != ""; {
		l := rest
		if j := strings.LastIndexByte(rest, '\n'); j >= 0 {
			l, rest = rest[j+1:], rest[:j]
		} else {
			rest = ""
		}
		if indexKey(l, `"`+field+`":`) < 0 || !strings.Contains(l, `"type":"`+typ+`"`) {
			continue
		}
		var row map[string]any
		if json.Unmarshal([]byte(l), &row) != nil || row["type"] != typ {
			continue
		}
		if s, ok := row[field].(string); ok {
			return s
		}
	}
	return ""
}

// sidecarTitle is the custom title kept beside the transcript, in
// <session id>/custom-title.json.
func sidecarTitle(path, id string) string {
	data, err := os.ReadFile(filepath.Join(filepath.Dir(path), id, "custom-title.json"))
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

var (
	commandNameRE = lazyre.New(`<command-name>(.*?)</command-name>`)
	bashInputRE   = lazyre.New(`<bash-input>([\s\S]*?)</bash-input>`)
	// notPromptRE is a text that opens with a tag or is an interruption note.
	notPromptRE = lazyre.New(`^(?:\s*<[a-z][\w-]*[\s>]|\[Request interrupted by user[^\]]*\])`)
)

// promptRow reports a user row that may hold a typed prompt.
func promptRow(line string) bool {
	if indexKey(line, `"type":"user"`) < 0 && indexKey(line, `"type": "user"`) < 0 {
		return false
	}
	for _, skip := range []string{`"tool_result"`, `"isMeta":true`, `"isMeta": true`, `"isCompactSummary":true`, `"isCompactSummary": true`} {
		if strings.Contains(line, skip) {
			return false
		}
	}
	return true
}

// firstPromptOf is the first prompt the user typed in head, on one line
// and cut to 200 characters; a slash command's name when there is none.
func firstPromptOf(head string) string {
	fallback := ""
	for _, line := range strings.Split(head, "\n") {
		if !promptRow(line) {
			continue
		}
		var row struct {
			Type    string `json:"type"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal([]byte(line), &row) != nil || row.Type != "user" {
			continue
		}
		texts, ok := promptTexts(row.Message.Content)
		if !ok {
			continue
		}
		for _, t := range texts {
			t = strings.TrimSpace(strings.ReplaceAll(ExpandPastedContent(t), "\n", " "))
			if t == "" {
				continue
			}
			if m := commandNameRE.FindStringSubmatch(t); m != nil {
				fallback = firstOf(fallback, m[1])
				continue
			}
			if m := bashInputRE.FindStringSubmatch(t); m != nil {
				return "! " + strings.TrimSpace(m[1])
			}
			if notPromptRE.MatchString(t) {
				continue
			}
			return cutUTF16(t, 200)
		}
	}
	return fallback
}

// promptTexts are the texts of a user message's content; false for a
// tool result.
func promptTexts(content json.RawMessage) ([]string, bool) {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return []string{s}, true
	}
	var blocks []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	}
	if json.Unmarshal(content, &blocks) != nil {
		return nil, true
	}
	var out []string
	for _, b := range blocks {
		if b.Type == "tool_result" {
			return nil, false
		}
		if b.Type == "text" && b.Text != nil {
			out = append(out, *b.Text)
		}
	}
	return out, true
}

// cutUTF16 cuts s to n UTF-16 units (not splitting a pair) with an ellipsis.
func cutUTF16(s string, n int) string {
	u := utf16.Encode([]rune(s))
	if len(u) <= n {
		return s
	}
	u = u[:n]
	if last := u[n-1]; last >= 0xd800 && last <= 0xdbff {
		u = u[:n-1]
	}
	return strings.TrimSpace(string(utf16.Decode(u))) + "…"
}

// mediaPrompt names a first prompt that was an image or a document.
func mediaPrompt(head string) string {
	for _, line := range strings.Split(head, "\n") {
		if !promptRow(line) {
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
