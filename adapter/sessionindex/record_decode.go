package sessionindex

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// A list reads the last records of each transcript it shows (issue 10:
// the cold page reads about fifty). decodeRecord decodes one record line
// in a single pass over its bytes, for the form the CLI writes (exact
// keys, each value of the field's type), and says when a line is of
// another form: parseEntry then decodes it with encoding/json. The two
// agree on every line (FuzzDecodeRecord): the same validity, fields and
// raw values.

// maxRecordDepth is encoding/json's nesting limit: a deeper line is left
// to it.
const maxRecordDepth = 10000

// recordScan is a cursor over one line's JSON text.
type recordScan struct {
	s     string
	i     int
	depth int
	other bool // a form decodeRecord leaves to encoding/json
}

// decodeRecord decodes line as parseEntry does. handled is false when the
// line is of a form left to encoding/json; otherwise valid tells whether
// the line is a JSON value at all.
func decodeRecord(line string) (e entry, m message, valid, handled bool) {
	p := &recordScan{s: line}
	p.space()
	if p.i >= len(p.s) || p.s[p.i] != '{' {
		return e, m, false, false
	}
	var raw string // the message value
	ok := p.object(func(key string) bool {
		switch key {
		case "type":
			return p.stringInto(&e.Type)
		case "subtype":
			return p.stringInto(&e.Subtype)
		case "timestamp":
			return p.stringInto(&e.Timestamp)
		case "cwd":
			return p.stringInto(&e.Cwd)
		case "isSidechain":
			return p.boolInto(&e.IsSidechain)
		case "isMeta":
			return p.boolInto(&e.IsMeta)
		case "isCompactSummary":
			return p.boolInto(&e.IsCompactSummary)
		case "isApiErrorMessage":
			return p.boolInto(&e.IsAPIErrorMessage)
		case "message":
			from := p.i
			if !p.value() {
				return false
			}
			raw = p.s[from:p.i]
			return true
		}
		p.foldedKey(key, entryKeys[:])
		return p.value()
	})
	if ok {
		p.space()
		ok = p.i == len(p.s)
	}
	if p.other {
		return entry{}, message{}, false, false
	}
	if !ok {
		return entry{}, message{}, false, true
	}
	if raw != "" && raw != "null" {
		if m, ok = decodeMessage(raw); !ok {
			return entry{}, message{}, false, false
		}
	}
	return e, m, true, true
}

// entryKeys and messageKeys are the keys the decoder reads: encoding/json
// matches a key that differs only in case too, which is left to it.
var (
	entryKeys   = [...]string{"type", "subtype", "timestamp", "cwd", "isSidechain", "isMeta", "isCompactSummary", "isApiErrorMessage", "message"}
	messageKeys = [...]string{"model", "stop_reason", "content"}
)

// decodeMessage decodes a message object; false for another form.
func decodeMessage(raw string) (m message, ok bool) {
	p := &recordScan{s: raw}
	if raw[0] != '{' {
		return m, false
	}
	p.object(func(key string) bool {
		switch key {
		case "model":
			return p.stringInto(&m.Model)
		case "stop_reason":
			if p.literal("null") {
				m.StopReason = nil
				return true
			}
			var s string
			if !p.stringInto(&s) {
				return false
			}
			m.StopReason = &s
			return true
		case "content":
			from := p.i
			if !p.value() {
				return false
			}
			m.Content = json.RawMessage(p.s[from:p.i])
			return true
		}
		p.foldedKey(key, messageKeys[:])
		return p.value()
	})
	return m, !p.other
}

// foldedKey marks a key that encoding/json could match to one of keys
// without being it (another case, an escape, a non-ASCII letter).
func (p *recordScan) foldedKey(key string, keys []string) {
	for i := 0; i < len(key); i++ {
		if key[i] == '\\' || key[i] >= utf8.RuneSelf {
			p.other = true
			return
		}
	}
	for _, k := range keys {
		if len(k) == len(key) && strings.EqualFold(k, key) {
			p.other = true
			return
		}
	}
}

func (p *recordScan) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// object reads an object, calling field with each key (its raw text) once
// the cursor is on the key's value; field reads the value.
func (p *recordScan) object(field func(key string) bool) bool {
	return p.members('}', func() bool {
		key, ok := p.str()
		if !ok {
			return false
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return false
		}
		p.i++
		p.space()
		return field(key)
	})
}

// array reads an array.
func (p *recordScan) array() bool { return p.members(']', p.value) }

// members reads an object or an array from its opening byte to end, one
// member at a time with item, separated by commas.
func (p *recordScan) members(end byte, item func() bool) bool {
	if p.depth++; p.depth > maxRecordDepth {
		p.other = true
		return false
	}
	p.i++ // the opening byte
	p.space()
	if p.i < len(p.s) && p.s[p.i] == end {
		p.i++
		p.depth--
		return true
	}
	for {
		if !item() || p.other {
			return false
		}
		p.space()
		if p.i >= len(p.s) {
			return false
		}
		switch p.s[p.i] {
		case ',':
			p.i++
			p.space()
		case end:
			p.i++
			p.depth--
			return true
		default:
			return false
		}
	}
}

// value reads any value.
func (p *recordScan) value() bool {
	if p.i >= len(p.s) {
		return false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(func(string) bool { return p.value() })
	case c == '[':
		return p.array()
	case c == '"':
		_, ok := p.str()
		return ok
	case c == 't':
		return p.literal("true")
	case c == 'f':
		return p.literal("false")
	case c == 'n':
		return p.literal("null")
	default:
		return p.number()
	}
}

func (p *recordScan) literal(lit string) bool {
	if strings.HasPrefix(p.s[p.i:], lit) {
		p.i += len(lit)
		return true
	}
	return false
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *recordScan) number() bool {
	if p.i < len(p.s) && p.s[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.s) && p.s[p.i] == '0':
		p.i++
	case p.digits() == 0:
		return false
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return false
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return false
		}
	}
	return true
}

func (p *recordScan) digits() int {
	from := p.i
	for p.i < len(p.s) && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
		p.i++
	}
	return p.i - from
}

// str reads a string and returns its raw body (escapes not decoded).
func (p *recordScan) str() (string, bool) {
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return "", false
	}
	from := p.i + 1
	for i := from; i < len(p.s); i++ {
		switch c := p.s[i]; {
		case c == '"':
			p.i = i + 1
			return p.s[from:i], true
		case c < 0x20:
			return "", false
		case c == '\\':
			n := escapeLen(p.s[i:])
			if n == 0 {
				return "", false
			}
			i += n - 1
		}
	}
	return "", false
}

// escapeLen is the length of the escape s starts with, 0 when invalid.
func escapeLen(s string) int {
	if len(s) < 2 {
		return 0
	}
	switch s[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(s) < 6 {
			return 0
		}
		for _, c := range []byte(s[2:6]) {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return 0
			}
		}
		return 6
	}
	return 0
}

// stringInto reads a string value into *dst, or null (no change, as
// encoding/json does); any other value is left to encoding/json.
func (p *recordScan) stringInto(dst *string) bool {
	if p.i < len(p.s) && p.s[p.i] == 'n' {
		return p.literal("null")
	}
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		p.other = true
		return false
	}
	raw, ok := p.str()
	if !ok {
		return false
	}
	if plainString(raw) {
		*dst = raw
	} else {
		*dst = decodeJSONString(raw)
	}
	return true
}

// plainString: raw needs no decoding (no escape, valid UTF-8).
func plainString(raw string) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] == '\\' || raw[i] >= utf8.RuneSelf {
			return strings.IndexByte(raw, '\\') < 0 && utf8.ValidString(raw)
		}
	}
	return true
}

// boolInto reads true, false or null (no change) into *dst; any other
// value is left to encoding/json.
func (p *recordScan) boolInto(dst *bool) bool {
	switch {
	case p.literal("true"):
		*dst = true
	case p.literal("false"):
		*dst = false
	case p.literal("null"):
	default:
		p.other = true
		return false
	}
	return true
}
