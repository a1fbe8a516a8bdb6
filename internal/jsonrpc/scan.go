package jsonrpc

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// maxDepth matches encoding/json's nesting limit, so the scanner and
// json.Valid agree on what is JSON.
const maxDepth = 10000

// StringVisitor is called for every string value that sits in an object
// member (directly, or inside arrays under that member). key is the member
// name as raw bytes between its quotes; start and end delimit the value's raw
// bytes between its quotes in the frame.
type StringVisitor func(key []byte, start, end int)

// ScanError says why a frame is not JSON. Offset is the byte where the
// scanner stopped.
type ScanError struct {
	Reason string
	Offset int
}

func (e *ScanError) Error() string {
	return e.Reason + " at byte " + strconv.Itoa(e.Offset)
}

// scanner checks JSON syntax in one pass and records the spans of the
// envelope fields it is asked about.
type scanner struct {
	data  []byte
	pos   int
	visit StringVisitor
	msg   *Message
	depth int
	err   *ScanError
}

// field ids for the envelope keys the scanner remembers.
const (
	fNone = iota
	fID
	fMethod
	fParams
	fResult
	fError
	fType
	fSubtype
	fRequestID
	fSessionID // session_id (CLI)
	fRequest   // CLI control_request body
	fResponse  // CLI control_response body
	fJSONRPC
)

func topField(k []byte) int {
	switch string(k) {
	case "id":
		return fID
	case "method":
		return fMethod
	case "params":
		return fParams
	case "result":
		return fResult
	case "error":
		return fError
	case "type":
		return fType
	case "subtype":
		return fSubtype
	case "request_id":
		return fRequestID
	case "session_id":
		return fSessionID
	case "request":
		return fRequest
	case "response":
		return fResponse
	case "jsonrpc":
		return fJSONRPC
	}
	return fNone
}

func (s *scanner) fail(reason string) {
	if s.err == nil {
		s.err = &ScanError{Reason: reason, Offset: s.pos}
	}
}

func (s *scanner) skipSpace() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// str scans a string starting at its opening quote. It returns the raw span
// between the quotes and whether it held escapes. The closing quote is found
// with bytes.IndexByte (vectorised) and remembered across escapes, so a long
// string with many escapes stays linear; the span before it is checked for
// backslashes (vectorised) and control characters (eight bytes at a time).
func (s *scanner) str() (start, end int, escaped bool) {
	s.pos++ // opening quote
	start = s.pos
	d := s.data
	q := -1 // position of the next raw '"' at or after s.pos
	for {
		i := s.pos
		if q < i {
			j := bytes.IndexByte(d[i:], '"')
			if j < 0 {
				s.pos = len(d)
				s.fail("unterminated string")
				return start, len(d), escaped
			}
			q = i + j
		}
		seg := d[i:q]
		bs := bytes.IndexByte(seg, '\\')
		if bs >= 0 {
			seg = seg[:bs]
		}
		if c := firstControl(seg); c >= 0 {
			s.pos = i + c
			s.fail("control character in string")
			return start, i + c, escaped
		}
		if bs < 0 {
			s.pos = q + 1
			return start, q, escaped
		}
		escaped = true
		e := i + bs // the backslash
		if e+1 >= len(d) {
			s.pos = e + 1
			s.fail("unterminated escape")
			return start, e, escaped
		}
		switch d[e+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			s.pos = e + 2
		case 'u':
			if e+6 > len(d) || !isHex4(d[e+2:e+6]) {
				s.pos = e + 1
				s.fail("bad \\u escape")
				return start, e, escaped
			}
			s.pos = e + 6
		default:
			s.pos = e + 1
			s.fail("bad escape")
			return start, e, escaped
		}
	}
}

// firstControl returns the index of the first byte below 0x20 in b, or -1.
func firstControl(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if hasLess(binary.LittleEndian.Uint64(b[i:]), 0x20) != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if b[i] < 0x20 {
			return i
		}
	}
	return -1
}

const (
	lows  = 0x0101010101010101
	highs = 0x8080808080808080
)

// hasLess is non-zero when a byte of w is below n (n <= 128).
func hasLess(w uint64, n uint64) uint64 { return (w - lows*n) & ^w & highs }

func isHex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func (s *scanner) number() {
	d := s.data
	i := s.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
	default:
		s.pos = i
		s.fail("bad number")
		return
	}
	if i < len(d) && d[i] == '.' {
		i++
		j := i
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
		if i == j {
			s.pos = i
			s.fail("bad number fraction")
			return
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := i
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
		if i == j {
			s.pos = i
			s.fail("bad number exponent")
			return
		}
	}
	s.pos = i
}

func (s *scanner) literal(lit string) {
	if bytes.HasPrefix(s.data[s.pos:], []byte(lit)) {
		s.pos += len(lit)
		return
	}
	s.fail("invalid literal")
}

// value scans one value. key is the enclosing member name (for the visitor);
// field and parent say which envelope field, if any, this value is.
func (s *scanner) value(key []byte, level int, parent int) {
	s.skipSpace()
	if s.pos >= len(s.data) {
		s.fail("unexpected end of input")
		return
	}
	switch c := s.data[s.pos]; {
	case c == '{':
		s.object(level, parent)
	case c == '[':
		s.array(key, level, parent)
	case c == '"':
		st, en, _ := s.str()
		if s.visit != nil && key != nil && s.err == nil {
			s.visit(key, st, en)
		}
	case c == '-' || ('0' <= c && c <= '9'):
		s.number()
	case c == 't':
		s.literal("true")
	case c == 'f':
		s.literal("false")
	case c == 'n':
		s.literal("null")
	default:
		s.fail("unexpected character")
	}
}

func (s *scanner) enter() bool {
	s.depth++
	if s.depth > maxDepth {
		s.fail("nesting too deep")
		return false
	}
	return true
}

func (s *scanner) array(key []byte, level, parent int) {
	if !s.enter() {
		return
	}
	s.pos++ // [
	s.skipSpace()
	if s.pos < len(s.data) && s.data[s.pos] == ']' {
		s.pos++
		s.depth--
		return
	}
	for s.err == nil {
		s.value(key, level+1, fNone)
		s.skipSpace()
		if s.pos >= len(s.data) {
			s.fail("unterminated array")
			return
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case ']':
			s.pos++
			s.depth--
			return
		default:
			s.fail("expected , or ] in array")
			return
		}
	}
}

// object scans an object. level is 0 for the top-level value; parent names
// the envelope field the object is the value of (fParams, fResult, …).
func (s *scanner) object(level, parent int) {
	if !s.enter() {
		return
	}
	s.pos++ // {
	s.skipSpace()
	if s.pos < len(s.data) && s.data[s.pos] == '}' {
		s.pos++
		s.depth--
		return
	}
	for s.err == nil {
		s.skipSpace()
		if s.pos >= len(s.data) || s.data[s.pos] != '"' {
			s.fail("expected object key")
			return
		}
		ks, ke, kesc := s.str()
		if s.err != nil {
			return
		}
		k := s.data[ks:ke]
		if kesc {
			k = unescapeKey(k)
		}
		s.skipSpace()
		if s.pos >= len(s.data) || s.data[s.pos] != ':' {
			s.fail("expected : after object key")
			return
		}
		s.pos++
		s.skipSpace()
		vstart := s.pos
		f := fNone
		if level == 0 {
			f = topField(k)
		}
		s.value(k, level+1, f)
		if s.err != nil {
			return
		}
		s.record(level, parent, f, k, vstart, s.pos)
		s.skipSpace()
		if s.pos >= len(s.data) {
			s.fail("unterminated object")
			return
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case '}':
			s.pos++
			s.depth--
			return
		default:
			s.fail("expected , or } in object")
			return
		}
	}
}

// record keeps the spans of the envelope fields.
func (s *scanner) record(level, parent, f int, k []byte, vs, ve int) {
	m := s.msg
	raw := json.RawMessage(s.data[vs:ve])
	if level == 0 {
		switch f {
		case fID:
			m.ID = raw
		case fMethod:
			m.Method = stringValue(raw)
			m.hasMethod = true
		case fParams:
			m.Params = raw
		case fResult:
			m.Result = raw
		case fError:
			m.Error = raw
		case fType:
			m.Type = stringValue(raw)
		case fSubtype:
			if m.Subtype == "" {
				m.Subtype = stringValue(raw)
			}
		case fRequestID:
			m.RequestID = stringValue(raw)
		case fSessionID:
			if m.Session == "" {
				m.Session = stringValue(raw)
			}
		case fRequest:
			m.Request = raw
		case fResponse:
			m.Response = raw
		case fJSONRPC:
			m.JSONRPC = stringValue(raw)
		}
		return
	}
	if level != 1 {
		return
	}
	switch parent {
	case fParams, fResult:
		if string(k) == "sessionId" && m.Session == "" {
			m.Session = stringValue(raw)
		}
	case fRequest, fResponse:
		switch string(k) {
		case "subtype":
			m.Subtype = stringValue(raw)
		case "request_id":
			if m.RequestID == "" {
				m.RequestID = stringValue(raw)
			}
		case "session_id":
			if m.Session == "" {
				m.Session = stringValue(raw)
			}
		}
	}
}

// stringValue decodes a raw JSON string value; other values give "".
func stringValue(raw []byte) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	inner := raw[1 : len(raw)-1]
	if s, ok := common(inner); ok {
		return s
	}
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	var v string
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	return v
}

// common returns the values that fill most frames without a copy: the
// JSON-RPC version, the stream-json line types of a turn.
func common(v []byte) (string, bool) {
	switch string(v) {
	case "2.0":
		return "2.0", true
	case "stream_event":
		return "stream_event", true
	case "assistant":
		return "assistant", true
	case "user":
		return "user", true
	case "system":
		return "system", true
	case "result":
		return "result", true
	case "session/update":
		return "session/update", true
	}
	return "", false
}

func unescapeKey(k []byte) []byte {
	q := make([]byte, 0, len(k)+2)
	q = append(q, '"')
	q = append(q, k...)
	q = append(q, '"')
	var v string
	if json.Unmarshal(q, &v) != nil {
		return k
	}
	return []byte(v)
}

// Scan checks that frame is one JSON value (surrounding whitespace and the
// newline allowed) in valid UTF-8, and returns its parsed view. visit, when
// not nil, sees every string member value. The Message aliases frame.
func Scan(frame []byte, visit StringVisitor) (Message, error) {
	var m Message
	if !utf8.Valid(frame) {
		return m, &ScanError{Reason: "invalid UTF-8", Offset: firstInvalidUTF8(frame)}
	}
	s := scanner{data: frame, visit: visit, msg: &m}
	s.skipSpace()
	if s.pos >= len(frame) {
		return m, &ScanError{Reason: "empty line", Offset: 0}
	}
	top := frame[s.pos]
	s.value(nil, 0, fNone)
	if s.err == nil {
		s.skipSpace()
		if s.pos != len(frame) {
			s.fail("data after the JSON value")
		}
	}
	if s.err != nil {
		return Message{}, s.err
	}
	if top != '{' {
		m = Message{Kind: KindOther}
		return m, nil
	}
	m.classify()
	return m, nil
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}
