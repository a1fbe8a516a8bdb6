package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// errNotEntry is the reason a line that is not one JSON object fails.
var errNotEntry = errors.New("not a JSON object")

// decodeEntry parses one entry line. The msg member is cut out and checked
// on its own, so its nesting counts from the frame, not one level deeper
// (encoding/json counts the entry's own object): whatever a frame may hold,
// its entry reads back. keepBodies false checks msg, text and b64 but keeps
// none of them, so a huge one is never copied.
func decodeEntry(line []byte, keepBodies bool) (Entry, error) {
	var e Entry
	names := bodyNames
	if keepBodies {
		names = names[:1]
	}
	head, bodies, err := cutMembers(line, names)
	if err != nil {
		return e, err
	}
	if err := json.Unmarshal(head, &e); err != nil {
		return e, err
	}
	e.Msg = nil
	for i, b := range bodies {
		if b != nil && !json.Valid(b) {
			return e, fmt.Errorf("%s is not JSON", names[i])
		}
	}
	if msg := bodies[0]; msg != nil && keepBodies {
		e.Msg = bytes.Clone(msg)
	}
	return e, nil
}

// bodyNames are the members that may be huge; msg first.
var bodyNames = []string{"msg", "text", "b64"}

// cutMembers finds the values of the object's top-level members names
// (the last of each, as encoding/json takes) and returns the line with each
// of them replaced by null, for the envelope to decode cheaply, and the
// values by name. A line without them is returned as is.
func cutMembers(line []byte, names []string) (head []byte, values [][]byte, err error) {
	values = make([][]byte, len(names))
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
		name := keyIndex(line[k0:i], names)
		if i = skipWS(line, i); i >= len(line) || line[i] != ':' {
			return nil, nil, errNotEntry
		}
		v0 := skipWS(line, i+1)
		if i, err = skipValue(line, v0); err != nil {
			return nil, nil, err
		}
		if name >= 0 {
			spans = append(spans, [2]int{v0, i})
			values[name] = line[v0:i]
		}
		if i = skipWS(line, i); i < len(line) && line[i] == ',' {
			i = skipWS(line, i+1)
		}
	}
	if len(spans) == 0 {
		return line, values, nil
	}
	return replaceSpans(line, spans), values, nil
}

// replaceSpans returns line with each span replaced by null.
func replaceSpans(line []byte, spans [][2]int) []byte {
	var b []byte
	prev := 0
	for _, sp := range spans {
		b = append(b, line[prev:sp[0]]...)
		b = append(b, "null"...)
		prev = sp[1]
	}
	return append(b, line[prev:]...)
}

// keyIndex is the index in names of a quoted member name (escapes
// resolved), or -1.
func keyIndex(quoted []byte, names []string) int {
	k := string(quoted[1 : len(quoted)-1])
	if bytes.IndexByte(quoted, '\\') >= 0 && json.Unmarshal(quoted, &k) != nil {
		return -1
	}
	for i, n := range names {
		if k == n {
			return i
		}
	}
	return -1
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
