package permission

import (
	"strings"
	"unicode/utf16"

	"github.com/airwire/airwire/adapter/jsstr"
)

// jsLen is the JavaScript length of s (UTF-16 code units).
func jsLen(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// isControl reports the control characters that prompt text never carries:
// C0 controls except tab, line feed and carriage return, and DEL.
func isControl(r rune) bool {
	return r <= 0x08 || r == 0x0b || r == 0x0c || (r >= 0x0e && r <= 0x1f) || r == 0x7f
}

// plainString is a non-blank string, trimmed; "" otherwise.
func plainString(v string, ok bool) string {
	if !ok {
		return ""
	}
	return jsstr.Trim(v)
}

// safePlainString reports whether v is a bounded non-blank string without
// control characters (the validation of Durable SDK suggestions).
func safePlainString(v string, ok bool, maxLen int) bool {
	t := jsstr.Trim(v)
	return ok && t != "" && jsLen(v) <= maxLen && !strings.ContainsFunc(t, isControl)
}

// humanText removes control characters, trims (and with singleLine collapses
// whitespace), and returns "" for a text that ends up empty or longer than
// maxLen ("Compact text" of Tool call of the request: an invalid optional
// text is omitted, never truncated).
func humanText(v string, ok bool, maxLen int, singleLine bool) string {
	if !ok {
		return ""
	}
	v = strings.Map(func(r rune) rune {
		if isControl(r) {
			return -1
		}
		return r
	}, v)
	if singleLine {
		v = strings.Join(strings.FieldsFunc(v, jsstr.IsSpace), " ")
	} else {
		v = jsstr.Trim(v)
	}
	if v == "" || jsLen(v) > maxLen {
		return ""
	}
	return v
}
