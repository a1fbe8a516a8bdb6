package sessionindex

import (
	"encoding/binary"
	"encoding/json"
	"io"
	"math/bits"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/airwire/airwire/internal/lazyre"
)

// What a list row needs from a transcript (contract: "List response"),
// read from its first and last 64 KB; the tail window grows up to 4 MB
// when it lacks the last message or the last prompt.

const (
	chunkSize   = 64 << 10
	maxTailSize = 4 << 20
	tailGrowth  = 4
)

// headTail is the start and the end of a transcript. tail has whole lines
// only (the cut first line dropped); sdkTail is the raw window the SDK reads.
type headTail struct {
	head, tail, sdkTail string
	whole               bool // the file fits one window: all three are the same
}

// readHeadTail reads the first and the last chunkSize bytes of the first
// size bytes of f.
func readHeadTail(f io.ReaderAt, size int64) headTail {
	return readHeadTailInto(f, size, make([]byte, min(size, chunkSize)), make([]byte, chunkSize))
}

// readHeadTailInto is readHeadTail into headBuf and tailBuf (chunkSize
// bytes each, or headBuf at least min(size, chunkSize)): the texts share
// them.
func readHeadTailInto(f io.ReaderAt, size int64, headBuf, tailBuf []byte) headTail {
	head := readInto(f, 0, headBuf[:min(size, chunkSize)])
	if size <= chunkSize {
		return headTail{head: head, tail: head, sdkTail: head, whole: true}
	}
	raw := readInto(f, size-chunkSize, tailBuf[:chunkSize])
	return headTail{head: head, tail: dropCutLine(raw), sdkTail: raw}
}

// windows are the buffers a listing reads transcripts' heads and tails
// into, reused from one transcript to the next (windowPool); whoever
// reads into them copies what it keeps (rowMeta.own).
type windows struct{ head, tail [chunkSize]byte }

var windowPool = sync.Pool{New: func() any { return new(windows) }}

// readRange reads bytes from..to of f. The string shares the buffer it
// was read into, which nothing writes again: one copy of a window instead
// of two.
func readRange(f io.ReaderAt, from, to int64) string {
	return readInto(f, from, make([]byte, to-from))
}

// readInto reads f at off into buf, and is what it read as a string that
// shares buf.
func readInto(f io.ReaderAt, off int64, buf []byte) string {
	got, _ := f.ReadAt(buf, off)
	if got == 0 {
		return ""
	}
	return unsafe.String(&buf[0], got)
}

func dropCutLine(raw string) string {
	if i := strings.IndexByte(raw, '\n'); i >= 0 {
		return raw[i+1:]
	}
	return ""
}

// facts is what the list reads from a transcript beyond its titles; times
// are epoch milliseconds, 0 when unknown.
type facts struct {
	hasMessages     bool
	headCwd         string
	tailCwd         string
	forkedFrom      string
	model           string
	lastMessageAt   int64
	lastPromptAt    int64
	lastTurnEndedAt int64
	turnState       string // "finished", "unfinished" or ""
	lastTurnError   bool
	promptSearched  bool
}

var (
	forkedFromRE = lazyre.New(`"forkedFrom":\s?\{"sessionId":\s?"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"`)
)

// entry is the part of a transcript record the scan reads.
type entry struct {
	Type              string `json:"type"`
	Subtype           string `json:"subtype"`
	Timestamp         string `json:"timestamp"`
	Cwd               string `json:"cwd"`
	IsSidechain       bool   `json:"isSidechain"`
	IsMeta            bool   `json:"isMeta"`
	IsCompactSummary  bool   `json:"isCompactSummary"`
	IsAPIErrorMessage bool   `json:"isApiErrorMessage"`
}

type message struct {
	Model      string          `json:"model"`
	StopReason *string         `json:"stop_reason"`
	Content    json.RawMessage `json:"content"`
}

// parseEntry decodes a record line; false when it is not JSON.
func parseEntry(line string) (entry, message, bool) {
	if e, m, valid, handled := decodeRecord(line); handled {
		return e, m, valid
	}
	return parseEntryJSON(line)
}

// parseEntryJSON is parseEntry through encoding/json, for every form.
func parseEntryJSON(line string) (entry, message, bool) {
	var r struct {
		entry
		Message json.RawMessage `json:"message"`
	}
	if json.Unmarshal([]byte(line), &r) != nil {
		return r.entry, message{}, false
	}
	var m message
	_ = json.Unmarshal(r.Message, &m)
	return r.entry, m, true
}

func millis(ts string) int64 {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}

const interruptPrefix = "[Request interrupted by user"

// turnEffect tells how a main-chain record bears on the end of the turn.
func turnEffect(e entry, m message) string {
	switch e.Type {
	case "assistant":
		if e.IsAPIErrorMessage || (m.StopReason != nil && *m.StopReason == "end_turn") {
			return "finished"
		}
		return "unfinished"
	case "user":
		if e.IsMeta {
			return ""
		}
		if strings.HasPrefix(firstText(m.Content), interruptPrefix) {
			return "finished"
		}
		return "unfinished"
	case "system":
		if e.Subtype == "stop_hook_summary" || e.Subtype == "turn_duration" {
			return "finished"
		}
	}
	return ""
}

func hasMessageMarker(s string) bool {
	for _, m := range []string{`"type":"user"`, `"type":"assistant"`, `"type": "user"`, `"type": "assistant"`} {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

// scanTranscript reads the facts of a head and a tail, the tail from its
// last line backwards.
func scanTranscript(ht headTail) facts {
	f := facts{hasMessages: hasMessageMarker(ht.head) || (!ht.whole && hasMessageMarker(ht.tail))}
	f.headCwd = firstField(ht.head, "cwd")
	f.forkedFrom = forkParent(ht.head)
	var s tailScan
	for rest := ht.tail; !s.done(&f); {
		i := lastNewline(rest)
		s.line(&f, rest[i+1:])
		if i < 0 {
			break
		}
		rest = rest[:i]
	}
	return f
}

// lastNewline is strings.LastIndexByte(s, '\n') eight bytes at a time: a
// tail scan walks back over most of its window, and LastIndexByte's byte
// loop was a fifth of the scan.
func lastNewline(s string) int {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	const newlines = 0x0a0a0a0a0a0a0a0a
	i := len(s)
	for ; i >= 8; i -= 8 {
		x := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i-8:]), 8)) ^ newlines
		// The high bit of each byte of x that is zero (a newline of s),
		// and of no other: nothing carries from one byte to the next.
		if zero := ^(((x & low7) + low7) | x) & high; zero != 0 {
			return i - 8 + 7 - bits.LeadingZeros64(zero)/8
		}
	}
	return strings.LastIndexByte(s[:i], '\n')
}

// forkParent is the forkedFrom session id of a head ("" for none); the key
// is looked for first, so a head without it is not run through the
// pattern.
func forkParent(head string) string {
	if !hasKey(head, "forkedFrom") {
		return ""
	}
	if m := forkedFromRE.FindStringSubmatch(head); m != nil {
		return strings.Clone(m[1])
	}
	return ""
}

// tailScan is the state of one backwards pass over a tail.
type tailScan struct {
	messageFound, promptFound, modelFound, turnEndFound bool
	checkingTurnError                                   bool
}

func (s *tailScan) done(f *facts) bool {
	return s.messageFound && s.promptFound && s.modelFound && s.turnEndFound && !s.checkingTurnError && f.tailCwd != ""
}

// onlyPromptLeft: every fact but the last prompt is found, so only a
// line that may be a prompt still matters.
func (s *tailScan) onlyPromptLeft(f *facts) bool {
	return s.messageFound && s.modelFound && s.turnEndFound && !s.checkingTurnError && f.turnState != "" && f.tailCwd != ""
}

// mayBePrompt: a user record without a tool result (a record with one is
// never a prompt; the marker cannot occur unescaped inside a string).
func mayBePrompt(line string) bool {
	return strings.Contains(line, `"user"`) && !strings.Contains(line, `"type":"tool_result"`)
}

func (s *tailScan) line(f *facts, line string) {
	if s.onlyPromptLeft(f) && !mayBePrompt(line) {
		return
	}
	turnRecord := strings.Contains(line, `"user"`) || strings.Contains(line, `"assistant"`) || strings.Contains(line, `"system"`)
	wantCwd := f.tailCwd == "" && strings.Contains(line, `"cwd"`)
	if line == "" || (!turnRecord && !wantCwd) {
		return
	}
	e, m, ok := parseEntry(line)
	if !ok {
		return
	}
	if wantCwd && e.Cwd != "" {
		f.tailCwd = e.Cwd
	}
	if e.IsSidechain {
		return
	}
	if !s.messageFound && (e.Type == "user" || e.Type == "assistant") {
		s.messageFound, f.lastMessageAt = true, millis(e.Timestamp)
	}
	if !s.promptFound && e.Type == "user" && isUserPrompt(e, m) {
		s.promptFound, f.lastPromptAt = true, millis(e.Timestamp)
	}
	if !s.modelFound && e.Type == "assistant" && m.Model != "" && m.Model != "<synthetic>" {
		s.modelFound, f.model = true, m.Model
	}
	s.turn(f, e, m)
}

// turn follows the records that end or continue the last turn.
func (s *tailScan) turn(f *facts, e entry, m message) {
	effect := turnEffect(e, m)
	if effect == "" {
		return
	}
	if f.turnState == "" {
		f.turnState = effect
		s.checkingTurnError = effect == "finished"
	}
	if s.checkingTurnError {
		if e.Type == "assistant" && e.IsAPIErrorMessage {
			f.lastTurnError, s.checkingTurnError = true, false
		} else if e.Type != "system" {
			s.checkingTurnError = false
		}
	}
	if effect == "finished" && !s.turnEndFound {
		s.turnEndFound, f.lastTurnEndedAt = true, millis(e.Timestamp)
	}
}

// scanFile reads the facts of a transcript of size bytes; when the tail
// lacks the last message or the last prompt, the window grows (256 KB,
// 1 MB, 4 MB), reading only the new bytes each step.
func scanFile(f io.ReaderAt, size int64, ht headTail) facts {
	fa := scanTranscript(ht)
	fa.promptSearched = fa.lastPromptAt != 0 || size <= chunkSize
	if !fa.hasMessages || size <= chunkSize || (fa.lastMessageAt != 0 && fa.promptSearched) {
		return fa
	}
	start := size - chunkSize
	bytes := ht.sdkTail
	for window := int64(chunkSize * tailGrowth); start > 0; window *= tailGrowth {
		next := max(0, size-min(window, maxTailSize))
		if next >= start {
			break
		}
		bytes = readRange(f, next, start) + bytes
		start = next
		tail := bytes
		if start > 0 {
			tail = dropCutLine(tail)
		}
		wider := scanTranscript(headTail{head: ht.head, tail: tail})
		fa = widen(fa, wider)
		if fa.lastMessageAt != 0 && fa.lastPromptAt != 0 {
			return fa
		}
	}
	fa.promptSearched = true
	return fa
}

// widen takes what a wider tail found that the narrow one lacked.
func widen(narrow, wide facts) facts {
	out := wide
	out.hasMessages = narrow.hasMessages
	if narrow.model != "" {
		out.model = narrow.model
	}
	if narrow.tailCwd != "" {
		out.tailCwd = narrow.tailCwd
	}
	if out.lastPromptAt == 0 {
		out.lastPromptAt = narrow.lastPromptAt
	}
	if out.lastTurnEndedAt == 0 {
		out.lastTurnEndedAt = narrow.lastTurnEndedAt
	}
	return out
}

// lastTimestamp is the last "timestamp" of the file's last 64 KB, cut line
// included: a record longer than the tail search still ends with it.
func lastTimestamp(f io.ReaderAt, size int64) int64 {
	text := readRange(f, max(0, size-chunkSize), size)
	vals := stringFields(text, "timestamp")
	for i := len(vals) - 1; i >= 0; i-- {
		if ms := millis(vals[i]); ms != 0 {
			return ms
		}
	}
	return 0
}

func decodeJSONString(raw string) string {
	var s string
	if json.Unmarshal([]byte(`"`+raw+`"`), &s) != nil {
		return ""
	}
	return s
}

// timestampRE is fieldExpr("timestamp") written out (TestTimestampRE), so
// that it is static data compiled on first use, not init code.
var timestampRE = lazyre.New(`"timestamp":\s?"((?:[^"\\]|\\.)*)"`)

// fieldExpr matches `"key":"…"`, capturing the encoded string.
func fieldExpr(key string) string {
	return `"` + regexp.QuoteMeta(key) + `":\s?"((?:[^"\\]|\\.)*)"`
}

// submatcher is what stringFields needs of an expression.
type submatcher interface {
	FindAllStringSubmatch(s string, n int) [][]string
}

func fieldRE(key string) submatcher {
	if key == "timestamp" {
		return timestampRE
	}
	return regexp.MustCompile(fieldExpr(key))
}

// stringFields are the decoded values of every `"key":"…"` of text.
func stringFields(text, key string) []string {
	if !strings.Contains(text, `"`+key+`"`) {
		return nil
	}
	var out []string
	for _, m := range fieldRE(key).FindAllStringSubmatch(text, -1) {
		out = append(out, decodeJSONString(m[1]))
	}
	return out
}

// eachField calls f with the raw value of each `"key":"…"` of text, in
// order, while f returns true: the matches of stringFields' pattern, found
// with a plain substring search (in JSON text an unescaped quote never
// occurs inside a string, so every occurrence of the key is a match or no
// match at all).
func eachField(text, key string, f func(raw string) bool) {
	for rest := text; ; {
		at := indexKey(rest, key)
		if at < 0 {
			return
		}
		rest = rest[at:]
		v := rest
		if v != "" && strings.IndexByte(" \t\n\f\r", v[0]) >= 0 {
			v = v[1:]
		}
		if raw, ok := stringBody(v); ok {
			if !f(raw) {
				return
			}
			rest = v[len(raw)+2:]
		}
	}
}

// lastField is the decoded value of the last `"key":"…"` of text ("" for
// none).
func lastField(text, key string) string { return fieldValue(text, key, true) }

// firstField is the decoded value of the first `"key":"…"` of text (""
// for none).
func firstField(text, key string) string { return fieldValue(text, key, false) }

// fieldValue is the decoded value of the last `"key":"…"` of text, or of
// the first; "" for none.
func fieldValue(text, key string, last bool) string {
	raw, found := "", false
	eachField(text, key, func(r string) bool {
		raw, found = r, true
		return last
	})
	if !found {
		return ""
	}
	return decodeJSONString(raw)
}

// indexKey is where the value of the first `"key":` of text begins (just
// after the colon), or -1. The search is anchored on the key's first
// capital letter when it has one, so it skips from one rare byte to the
// next instead of stopping at every quote of the JSON text.
func indexKey(text, key string) int {
	cut := strings.IndexFunc(key, func(r rune) bool { return 'A' <= r && r <= 'Z' })
	if cut <= 0 {
		pat := `"` + key + `":`
		if i := strings.Index(text, pat); i >= 0 {
			return i + len(pat)
		}
		return -1
	}
	prefix, anchor := `"`+key[:cut], key[cut:]+`":`
	for off := 0; ; {
		i := strings.Index(text[off:], anchor)
		if i < 0 {
			return -1
		}
		at := off + i
		if at >= len(prefix) && text[at-len(prefix):at] == prefix {
			return at + len(anchor)
		}
		off = at + 1
	}
}

// hasKey reports whether text holds `"key":`.
func hasKey(text, key string) bool { return indexKey(text, key) >= 0 }

// stringBody is the body of the JSON string s starts with, up to its
// closing quote; false when s starts with none or it is not closed.
func stringBody(s string) (string, bool) {
	if s == "" || s[0] != '"' {
		return "", false
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) && s[i+1] == '\n' {
				return "", false
			}
			i++
		case '"':
			return s[1:i], true
		}
	}
	return "", false
}

// openStat opens a regular file and stats it.
func openStat(path string) (*os.File, os.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}
