package journal

import (
	"bytes"
	"encoding/json"
	"errors"
)

// errNotEntry is the reason a line that is not one JSON object fails.
var errNotEntry = errors.New("not a JSON object")

// decodeEntry parses one entry line. The msg member is cut out and checked
// on its own, so its nesting counts from the frame, not one level deeper
// (encoding/json counts the entry's own object): whatever a frame may hold,
// its entry reads back. keepMsg false checks msg without copying it.
func decodeEntry(line []byte, keepMsg bool) (Entry, error) {
	var e Entry
	head, msg, err := splitMsg(line)
	if err != nil {
		return e, err
	}
	if err := json.Unmarshal(head, &e); err != nil {
		return e, err
	}
	e.Msg = nil
	if msg == nil {
		return e, nil
	}
	if !json.Valid(msg) {
		return e, errors.New("msg is not JSON")
	}
	if keepMsg {
		e.Msg = bytes.Clone(msg)
	}
	return e, nil
}

// splitMsg finds the value of the object's top-level "msg" member (the last
// one, as encoding/json takes) and returns the line with every msg value
// replaced by 0, which the envelope decodes cheaply. A line without msg is
// returned as is.
func splitMsg(line []byte) (head, msg []byte, err error) {
	var spans [][2]int
	i := skipWS(line, 0)
	if i >= len(line) || line[i] != '{' {
		return nil, nil, errNotEntry
	}
	for i = skipWS(line, i+1); i < len(line) && line[i] == '"'; {
		k0 := i
		if i, err = skipString(line, i); err != nil {
			return nil, nil, err
		}
		isMsg := keyIs(line[k0:i], "msg")
		if i = skipWS(line, i); i >= len(line) || line[i] != ':' {
			return nil, nil, errNotEntry
		}
		v0 := skipWS(line, i+1)
		if i, err = skipValue(line, v0); err != nil {
			return nil, nil, err
		}
		if isMsg {
			spans = append(spans, [2]int{v0, i})
		}
		if i = skipWS(line, i); i < len(line) && line[i] == ',' {
			i = skipWS(line, i+1)
		}
	}
	if len(spans) == 0 {
		return line, nil, nil
	}
	last := spans[len(spans)-1]
	return replaceSpans(line, spans), line[last[0]:last[1]], nil
}

// replaceSpans returns line with each span replaced by "0".
func replaceSpans(line []byte, spans [][2]int) []byte {
	var b []byte
	prev := 0
	for _, sp := range spans {
		b = append(b, line[prev:sp[0]]...)
		b = append(b, '0')
		prev = sp[1]
	}
	return append(b, line[prev:]...)
}

// keyIs compares a quoted member name with name, escapes resolved.
func keyIs(quoted []byte, name string) bool {
	if bytes.IndexByte(quoted, '\\') < 0 {
		return string(quoted[1:len(quoted)-1]) == name
	}
	var k string
	return json.Unmarshal(quoted, &k) == nil && k == name
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] == '"'.
func skipString(b []byte, i int) (int, error) {
	for i++; ; {
		j := bytes.IndexAny(b[i:], "\"\\")
		if j < 0 {
			return 0, errors.New("unterminated string")
		}
		i += j
		if b[i] == '"' {
			return i + 1, nil
		}
		i += 2 // a backslash and the byte it escapes
		if i > len(b) {
			return 0, errors.New("unterminated string")
		}
	}
}

// skipValue returns the index after the value starting at b[i]. It checks
// only nesting and strings: the caller validates the value. It keeps no
// stack, so no depth is too deep for it.
func skipValue(b []byte, i int) (int, error) {
	depth := 0
	for i < len(b) {
		switch c := b[i]; c {
		case '"':
			var err error
			if i, err = skipString(b, i); err != nil {
				return 0, err
			}
		case '{', '[':
			depth++
			i++
		case '}', ']':
			if depth == 0 {
				return i, nil
			}
			depth--
			i++
		case ',':
			if depth == 0 {
				return i, nil
			}
			i++
		default:
			i++
		}
		if depth == 0 && i > 0 && (b[i-1] == '"' || b[i-1] == '}' || b[i-1] == ']') {
			return i, nil
		}
	}
	if depth > 0 {
		return 0, errors.New("unexpected end of JSON input")
	}
	return i, nil
}
