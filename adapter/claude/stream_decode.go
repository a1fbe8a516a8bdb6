package claude

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"

	"github.com/airwire/airwire/internal/jsonwalk"
	"github.com/airwire/airwire/internal/lookup"
)

// decodeStreamEvent is DecodeFrame for a stream_event line of a content
// block (its delta, start or stop), the bulk of a streamed turn, in one
// walk of the line instead of encoding/json's passes. It yields exactly
// what json.Unmarshal would; ok is false for a line of another type, an
// event with a message or usage, or one with any member it does not read
// the simple way (an escaped or case-folded key, a value of an unexpected
// JSON type), which DecodeFrame then reads with encoding/json. The frame
// keeps line as its Raw: the caller hands it over.
func decodeStreamEvent(line []byte) (*Frame, bool) {
	m := &Frame{Raw: line, Detail: &noDetail}
	var o jsonwalk.Object
	o.Reset(line)
	seenType := false
	for k, v, ok := o.Next(); ok; k, v, ok = o.Next() {
		var good bool
		switch string(k) {
		case "type":
			m.Type, good = constText(v, "stream_event")
			seenType = good && m.Type == "stream_event"
		case "event":
			good = m.Event.decode(v)
		case "parent_tool_use_id":
			m.Parent, good = optionalText(v)
		case "uuid":
			m.UUID, good = text(v)
		case "session_id":
			m.SessionID, good = text(v)
		case "subtype":
			m.Subtype, good = text(v)
		default:
			good = !foldsTo(k, frameKeys.Get())
		}
		if !good {
			return nil, false
		}
	}
	return m, seenType
}

// frameKeys are the JSON names of Frame's fields, which encoding/json also
// matches case-insensitively: a line with any other than the ones the fast
// path reads takes the slow path.
var frameKeys = lookup.Lazy[[]string]{Build: func() []string { return jsonNames(reflect.TypeFor[Frame]()) }}

// jsonNames are the JSON names of a struct's fields, its embedded
// structs' included.
func jsonNames(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Pointer:
			out = append(out, jsonNames(f.Type.Elem())...)
		case f.Anonymous && name == "":
			out = append(out, jsonNames(f.Type)...)
		case name != "":
			out = append(out, name)
		}
	}
	return out
}

// decode reads a stream event object of a content block: its type, index
// and delta, and all of it as Raw (a slice of the line).
func (b *Event) decode(v []byte) bool {
	var o jsonwalk.Object
	o.Reset(v)
	if len(v) == 0 || v[0] != '{' {
		return false
	}
	for k, ev, ok := o.Next(); ok; k, ev, ok = o.Next() {
		good := true
		switch string(k) {
		case "type":
			b.Type, good = eventType(ev)
		case "index":
			b.Index, good = integer(ev)
		case "delta":
			good = b.decodeDelta(ev)
		case "content_block":
			good = b.decodeContentBlock(ev)
		default:
			good = !foldsTo(k, eventKeys)
		}
		if !good {
			return false
		}
	}
	b.Raw = v
	return true
}

var eventKeys = []string{"type", "index", "message", "content_block", "delta", "usage"}

// decodeDelta reads a delta's type, text and thinking (a second delta
// member merges into the first, as encoding/json does).
func (b *Event) decodeDelta(v []byte) bool {
	return eachMember(v, &deltaKeys, func(k, dv []byte) (known, good bool) {
		switch string(k) {
		case "type":
			b.Delta.Type, good = deltaType(dv)
		case "text":
			b.Delta.Text, good = text(dv)
		case "thinking":
			b.Delta.Thinking, good = text(dv)
		case "content":
			b.Delta.Content, good = optionalText(dv)
		case "partial_json":
			b.Delta.PartialJSON, good = text(dv)
		default:
			return false, false
		}
		return true, good
	})
}

var deltaKeys = lookup.Lazy[[]string]{Build: func() []string { return eventFieldNames("Delta") }}

// decodeContentBlock reads a started block's type and content (a second
// member merges into the first, as encoding/json does).
func (b *Event) decodeContentBlock(v []byte) bool {
	return eachMember(v, &blockKeys, func(k, cv []byte) (known, good bool) {
		switch string(k) {
		case "type":
			b.ContentBlock.Type, good = text(cv)
		case "content":
			b.ContentBlock.Content, good = optionalText(cv)
		case "id":
			b.ContentBlock.ID, good = text(cv)
		case "name":
			b.ContentBlock.Name, good = text(cv)
		case "input":
			// an object as written (a slice of the line); anything else
			// takes the slow path.
			b.ContentBlock.Input, good = cv, len(cv) > 0 && cv[0] == '{'
		default:
			return false, false
		}
		return true, good
	})
}

// eachMember reads each member of the object v (null reads nothing) with
// read, which says whether it knows the key and could read its value. A
// key it does not know must not fold to one of keys, the names
// encoding/json would match without case. It is false for a value that is
// not an object or null, and for any member that is not read so.
func eachMember(v []byte, keys *lookup.Lazy[[]string], read func(k, v []byte) (known, good bool)) bool {
	if string(v) == "null" {
		return true
	}
	if len(v) == 0 || v[0] != '{' {
		return false
	}
	var o jsonwalk.Object
	o.Reset(v)
	for k, mv, ok := o.Next(); ok; k, mv, ok = o.Next() {
		known, good := read(k, mv)
		if !known {
			good = !foldsTo(k, keys.Get())
		}
		if !good {
			return false
		}
	}
	return true
}

var blockKeys = lookup.Lazy[[]string]{Build: func() []string { return eventFieldNames("ContentBlock") }}

// eventFieldNames are the JSON names of the fields of Event's struct field
// name.
func eventFieldNames(name string) []string {
	f, _ := reflect.TypeFor[Event]().FieldByName(name)
	return jsonNames(f.Type)
}

// deltaType is text for a delta's type, without a copy for the usual ones.
func deltaType(v []byte) (string, bool) {
	switch string(v) {
	case `"text_delta"`:
		return "text_delta", true
	case `"thinking_delta"`:
		return "thinking_delta", true
	case `"input_json_delta"`:
		return "input_json_delta", true
	}
	return text(v)
}

// eventType is text for an event's type, without a copy for the types
// of a streamed message.
func eventType(v []byte) (string, bool) {
	switch string(v) {
	case `"content_block_delta"`:
		return "content_block_delta", true
	case `"content_block_start"`:
		return "content_block_start", true
	case `"content_block_stop"`:
		return "content_block_stop", true
	case `"message_start"`:
		return "message_start", true
	case `"message_delta"`:
		return "message_delta", true
	case `"message_stop"`:
		return "message_stop", true
	}
	return text(v)
}

// foldsTo reports whether key is, or may stand for, one of names: it
// differs only in case, or holds an escape.
func foldsTo(key []byte, names []string) bool {
	if bytes.IndexByte(key, '\\') >= 0 {
		return true
	}
	for _, n := range names {
		if bytes.EqualFold(key, []byte(n)) {
			return true
		}
	}
	return false
}

// text reads a string value; null leaves it empty, as encoding/json does.
func text(v []byte) (string, bool) {
	if string(v) == "null" {
		return "", true
	}
	t, ok := jsonwalk.Text(v, nil)
	return string(t), ok
}

// constText is text that returns the constant c, without a copy, when the
// value equals it.
func constText(v []byte, c string) (string, bool) {
	if len(v) == len(c)+2 && string(v[1:len(v)-1]) == c && v[0] == '"' {
		return c, true
	}
	return text(v)
}

func optionalText(v []byte) (*string, bool) {
	if string(v) == "null" {
		return nil, true
	}
	s, ok := text(v)
	return &s, ok
}

// integer reads an int the way encoding/json does: digits only, no
// fraction or exponent.
func integer(v []byte) (int, bool) {
	if string(v) == "null" {
		return 0, true
	}
	n, err := strconv.ParseInt(string(v), 10, 0)
	return int(n), err == nil
}
