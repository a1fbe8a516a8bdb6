// Package jsonwalk reads a few members of a JSON object without decoding
// the rest, and writes JSON strings as encoding/json does. It is the hot
// path of a streamed turn: a Claude CLI text delta is routed and turned
// into an editor update without encoding/json.
//
// The API:
//
//   - Object walks an object's members: Reset(obj), then Next until it
//     reports false. Keys are the raw bytes between the key's quotes
//     (escapes not undone: a caller comparing against plain names must
//     treat a key with a backslash as unknown); values are raw JSON slices
//     of the input.
//   - Text turns a raw JSON string value into its bytes as encoding/json
//     would decode them, without a copy for plain ASCII.
//   - AppendString writes a string exactly as json.Marshal writes it
//     (HTML-escaped).
//   - MapStrings copies a decoded value with a function applied to each of
//     its strings (placeholders in scenarios and mock model replies).
//
// The input must already be valid JSON (every CLI line the agent reads has
// passed jsonrpc.Scan): on other input a walk may stop early or return a
// member a validator would refuse, but it never reads out of bounds.
//
//	var o jsonwalk.Object
//	o.Reset(line)
//	for k, v, ok := o.Next(); ok; k, v, ok = o.Next() { … }
package jsonwalk

import (
	"bytes"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Object walks the members of one JSON object. The zero value walks
// nothing; Reset starts a walk.
type Object struct {
	data []byte
	pos  int
	bad  bool
}

// Reset starts walking the object obj (leading whitespace allowed).
func (o *Object) Reset(obj []byte) {
	o.data, o.pos, o.bad = obj, skipSpace(obj, 0), false
	if o.pos >= len(obj) || obj[o.pos] != '{' {
		o.bad = true
		return
	}
	o.pos++
}

// Next returns the next member's key and raw value; ok is false after the
// last member or when the input is not a well-formed object.
func (o *Object) Next() (key, value []byte, ok bool) {
	if o.bad {
		return nil, nil, false
	}
	d := o.data
	p := skipSpace(d, o.pos)
	if p < len(d) && d[p] == ',' {
		p = skipSpace(d, p+1)
	}
	if p >= len(d) || d[p] != '"' {
		o.bad = true // '}' or malformed: the walk is over either way
		return nil, nil, false
	}
	kend := skipString(d, p)
	if kend < 0 {
		o.bad = true
		return nil, nil, false
	}
	key = d[p+1 : kend-1]
	p = skipSpace(d, kend)
	if p >= len(d) || d[p] != ':' {
		o.bad = true
		return nil, nil, false
	}
	p = skipSpace(d, p+1)
	vend := skipValue(d, p)
	if vend < 0 {
		o.bad = true
		return nil, nil, false
	}
	o.pos = vend
	return key, d[p:vend], true
}

func skipSpace(d []byte, p int) int {
	for p < len(d) && (d[p] == ' ' || d[p] == '\t' || d[p] == '\n' || d[p] == '\r') {
		p++
	}
	return p
}

// skipString returns the offset just past the string starting at d[p]
// (a quote), or -1 when it does not end.
func skipString(d []byte, p int) int {
	p++
	for {
		i := bytes.IndexByte(d[p:], '"')
		if i < 0 {
			return -1
		}
		q := p + i
		bs := 0
		for j := q - 1; j >= p && d[j] == '\\'; j-- {
			bs++
		}
		if bs%2 == 0 {
			return q + 1
		}
		p = q + 1
	}
}

// skipValue returns the offset just past the value starting at d[p], or
// -1 when it is cut short.
func skipValue(d []byte, p int) int {
	if p >= len(d) {
		return -1
	}
	switch d[p] {
	case '"':
		return skipString(d, p)
	case '{', '[':
		return skipNested(d, p)
	}
	for p < len(d) {
		switch d[p] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return p
		}
		p++
	}
	return p
}

// skipNested skips an object or array, strings inside included.
func skipNested(d []byte, p int) int {
	depth := 0
	for p < len(d) {
		switch d[p] {
		case '"':
			if p = skipString(d, p); p < 0 {
				return -1
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return p + 1
			}
		}
		p++
	}
	return -1
}

// Text returns the string a raw JSON string value holds, as encoding/json
// decodes it (escapes undone, invalid UTF-8 and lone surrogates replaced
// by U+FFFD). A plain ASCII value comes back as a slice of v itself; any
// other is decoded into *scratch, which keeps the grown buffer (scratch
// may be nil). ok is false when v is not a well-formed string.
func Text(v []byte, scratch *[]byte) (text []byte, ok bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return nil, false
	}
	inner := v[1 : len(v)-1]
	for _, c := range inner {
		if c < 0x20 || c == '\\' || c >= utf8.RuneSelf {
			var buf []byte
			if scratch != nil {
				buf = (*scratch)[:0]
			}
			if buf, ok = unquote(buf, inner); ok && scratch != nil {
				*scratch = buf
			}
			return buf, ok
		}
	}
	return inner, true
}

// unquote appends the decoded string body s to dst.
func unquote(dst, s []byte) ([]byte, bool) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			if i+1 >= len(s) {
				return nil, false
			}
			n, out, ok := unescape(dst, s[i:])
			if !ok {
				return nil, false
			}
			dst, i = out, i+n
		case c < 0x20:
			return nil, false
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			dst = utf8.AppendRune(dst, r) // RuneError for an invalid byte
			i += size
		}
	}
	return dst, true
}

// unescape decodes the escape at the start of s; n is its length.
func unescape(dst, s []byte) (n int, out []byte, ok bool) {
	switch s[1] {
	case '"', '\\', '/':
		return 2, append(dst, s[1]), true
	case 'b':
		return 2, append(dst, '\b'), true
	case 'f':
		return 2, append(dst, '\f'), true
	case 'n':
		return 2, append(dst, '\n'), true
	case 'r':
		return 2, append(dst, '\r'), true
	case 't':
		return 2, append(dst, '\t'), true
	case 'u':
		r := hex4(s[2:])
		if r < 0 {
			return 0, nil, false
		}
		if utf16.IsSurrogate(r) {
			if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
				if dec := utf16.DecodeRune(r, hex4(s[8:])); dec != unicode.ReplacementChar {
					return 12, utf8.AppendRune(dst, dec), true
				}
			}
			r = unicode.ReplacementChar
		}
		return 6, utf8.AppendRune(dst, r), true
	}
	return 0, nil, false
}

// hex4 reads four hex digits, or returns -1.
func hex4(s []byte) rune {
	if len(s) < 4 {
		return -1
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

const hex = "0123456789abcdef"

// AppendString appends s as a JSON string exactly as encoding/json's
// Marshal writes a string: `"`, `\` and control characters escaped (\b,
// \f, \n, \r, \t by name), <, > and & as \u003c, \u003e, \u0026, U+2028
// and U+2029 escaped, and each invalid UTF-8 byte as \ufffd.
func AppendString[T []byte | string](dst []byte, s T) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendEscapedByte(dst, b)
			i++
			start = i
			continue
		}
		c, size := decodeRune(s[i:])
		if (c == utf8.RuneError && size == 1) || c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			if size == 1 {
				dst = append(dst, `\ufffd`...)
			} else {
				dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			}
			start = i + size
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func decodeRune[T []byte | string](s T) (rune, int) {
	if len(s) > utf8.UTFMax {
		s = s[:utf8.UTFMax]
	}
	var buf [utf8.UTFMax]byte
	n := copy(buf[:], s)
	return utf8.DecodeRune(buf[:n])
}

func appendEscapedByte(dst []byte, b byte) []byte {
	switch b {
	case '\\', '"':
		return append(dst, '\\', b)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
}
