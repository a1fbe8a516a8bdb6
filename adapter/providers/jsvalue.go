package providers

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// The reference reads every payload with JSON.parse and writes settings
// and error data with JSON.stringify, and the order of an object's keys
// reaches the wire (headers are joined into ANTHROPIC_CUSTOM_HEADERS in
// that order). So a payload is held here the way JavaScript holds it:
// objects as *jsObject, arrays as []any, numbers as float64, and strings,
// booleans and nil as themselves.

// jsObject is a JavaScript object: a key set again keeps its place.
type jsObject struct {
	keys []string
	vals map[string]any
}

func (o *jsObject) set(key string, v any) {
	if o.vals == nil {
		o.vals = map[string]any{}
	}
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

// ordered is the order JavaScript enumerates the keys in: array indexes
// first, ascending, then the other keys in the order they were added.
func (o *jsObject) ordered() []string {
	var indexes, rest []string
	for _, k := range o.keys {
		if _, ok := arrayIndex(k); ok {
			indexes = append(indexes, k)
		} else {
			rest = append(rest, k)
		}
	}
	slices.SortFunc(indexes, func(a, b string) int {
		x, _ := arrayIndex(a)
		y, _ := arrayIndex(b)
		return cmp.Compare(x, y)
	})
	return append(indexes, rest...)
}

// arrayIndex reports whether key is the canonical spelling of an array
// index (0 to 2^32-2), the keys JavaScript enumerates first.
func arrayIndex(key string) (int64, bool) {
	if key == "" || len(key) > 10 || (key[0] == '0' && len(key) > 1) {
		return 0, false
	}
	n, err := strconv.ParseInt(key, 10, 64)
	if err != nil || n < 0 || n > math.MaxUint32-1 || strconv.FormatInt(n, 10) != key {
		return 0, false
	}
	return n, true
}

// field is v[key] for an object v; ok is false when JavaScript would read
// undefined.
func field(v any, key string) (any, bool) {
	o, isObj := v.(*jsObject)
	if !isObj || o == nil {
		return nil, false
	}
	val, ok := o.vals[key]
	return val, ok
}

// parseJS is JSON.parse: exactly one value, surrounded by white space at
// most.
func parseJS(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeJS(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

func decodeJS(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return decodeObject(dec)
		}
		if t == '[' {
			return decodeArray(dec)
		}
		return nil, errors.New("unexpected " + t.String())
	case json.Number:
		// Out of range is JavaScript's Infinity or 0 as well.
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, err
		}
		return f, nil
	default:
		return t, nil
	}
}

func decodeObject(dec *json.Decoder) (any, error) {
	o := &jsObject{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		v, err := decodeJS(dec)
		if err != nil {
			return nil, err
		}
		o.set(key, v)
	}
	_, err := dec.Token()
	return o, err
}

func decodeArray(dec *json.Decoder) (any, error) {
	a := []any{}
	for dec.More() {
		v, err := decodeJS(dec)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
	}
	_, err := dec.Token()
	return a, err
}

// spread copies v's own enumerable entries into dst, as `{...v}` does:
// an object's keys, an array's or a string's indexes, nothing of the rest.
func spread(dst *jsObject, v any) {
	switch t := v.(type) {
	case *jsObject:
		for _, k := range t.ordered() {
			dst.set(k, t.vals[k])
		}
	case []any:
		for i, e := range t {
			dst.set(strconv.Itoa(i), e)
		}
	case string:
		for i, unit := range utf16.Encode([]rune(t)) {
			dst.set(strconv.Itoa(i), string(rune(unit)))
		}
	}
}

// stringify is JSON.stringify of v, whose lack of HTML escaping and of escaped
// U+2028 sets it apart from Go's encoder.
func stringify(v any) string {
	var b strings.Builder
	writeJS(&b, v)
	return b.String()
}

func writeJS(b *strings.Builder, v any) {
	switch t := v.(type) {
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			b.WriteString("null")
		} else {
			b.WriteString(jsNumber(t))
		}
	case string:
		writeQuoted(b, t)
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJS(b, e)
		}
		b.WriteByte(']')
	case *jsObject:
		b.WriteByte('{')
		for i, k := range t.ordered() {
			if i > 0 {
				b.WriteByte(',')
			}
			writeQuoted(b, k)
			b.WriteByte(':')
			writeJS(b, t.vals[k])
		}
		b.WriteByte('}')
	default:
		b.WriteString("null")
	}
}

func writeQuoted(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hex[r>>4])
				b.WriteByte(hex[r&0xf])
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// jsNumber is Number.prototype.toString: the shortest digits that read
// back as f, in plain notation from 1e-6 up to 1e21, in exponent notation
// outside.
func jsNumber(f float64) string {
	switch {
	case f == 0:
		return "0"
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f < 0:
		return "-" + jsNumber(-f)
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
	digits := strings.Replace(mant, ".", "", 1)
	e, _ := strconv.Atoi(exp)
	k, n := len(digits), e+1
	switch {
	case k <= n && n <= 21:
		return digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return "0." + strings.Repeat("0", -n) + digits
	}
	sign := "+"
	if n-1 < 0 {
		sign = "-"
	}
	if k > 1 {
		digits = digits[:1] + "." + digits[1:]
	}
	return digits + "e" + sign + strconv.Itoa(abs(n-1))
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// jsString is String(v), what a template literal prints of a value that
// is present.
func jsString(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			if e != nil {
				parts[i] = jsString(e)
			}
		}
		return strings.Join(parts, ",")
	case *jsObject:
		return "[object Object]"
	case float64:
		return jsNumber(t)
	case bool:
		return strconv.FormatBool(t)
	case string:
		return t
	}
	return ""
}

// interpolate is `${v}` of a value read as field does: undefined when
// absent.
func interpolate(v any, ok bool) string {
	if !ok {
		return "undefined"
	}
	return jsString(v)
}
