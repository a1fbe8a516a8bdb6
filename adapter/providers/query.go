package providers

import (
	"net/url"
	"strconv"
	"strings"
)

// A listing's query is written as the reference's URLSearchParams
// writes it, which Go's url.Values does not: it keeps the order of the
// params and encodes other characters.

// formEncode is application/x-www-form-urlencoded, as URLSearchParams
// writes it.
func formEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9',
			c == '*', c == '-', c == '.', c == '_':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteString("%" + strings.ToUpper(strconv.FormatUint(uint64(c)|0x100, 16)[1:]))
		}
	}
	return b.String()
}

// withQuery is u with each param set as URLSearchParams.set does: the
// first param of that name replaced, the rest of that name removed, a new
// one appended.
func withQuery(u *url.URL, q []param) string {
	v := *u
	if len(q) == 0 {
		return v.String()
	}
	pairs := parseForm(u.RawQuery)
	for _, p := range q {
		pairs = setParam(pairs, p)
	}
	parts := make([]string, len(pairs))
	for i, p := range pairs {
		parts[i] = formEncode(p.name) + "=" + formEncode(p.value)
	}
	v.RawQuery, v.ForceQuery = strings.Join(parts, "&"), false
	return v.String()
}

func setParam(pairs []param, p param) []param {
	out := pairs[:0:0]
	done := false
	for _, x := range pairs {
		if x.name != p.name {
			out = append(out, x)
		} else if !done {
			out, done = append(out, p), true
		}
	}
	if !done {
		out = append(out, p)
	}
	return out
}

// parseForm reads a query as URLSearchParams does.
func parseForm(q string) []param {
	var pairs []param
	for _, part := range strings.Split(q, "&") {
		if part == "" {
			continue
		}
		name, value, _ := strings.Cut(part, "=")
		pairs = append(pairs, param{formDecode(name), formDecode(value)})
	}
	return pairs
}

// formDecode turns '+' into a space and decodes valid percent escapes,
// leaving invalid ones as they are.
func formDecode(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '+':
			b = append(b, ' ')
		case s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			n, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b = append(b, byte(n))
			i += 2
		default:
			b = append(b, s[i])
		}
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
