package cat

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// writeCut writes s, escaped, cut after width characters (runes) with a
// note of how many more there were; width 0 writes it all. It walks s once
// and allocates nothing in proportion to it.
func writeCut(w io.Writer, s string, width int) {
	end, n := len(s), 0
	for i := 0; i < len(s); n++ {
		if width > 0 && n == width {
			end = i
			break
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	writeEscaped(w, s[:end])
	if end < len(s) {
		fmt.Fprintf(w, "… (+%d chars)", utf8.RuneCountInString(s[end:]))
	}
}

// bytesView is b as a string without a copy: a message of hundreds of MB is
// listed without being duplicated. b must not change while it is in use.
func bytesView(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// escape returns s with control characters shown as escapes (see
// writeEscaped).
func escape(s string) string {
	var b strings.Builder
	writeEscaped(&b, s)
	return b.String()
}

// writeEscaped writes s with every control character escaped: C0 and DEL
// as \t, \n, \r or \xNN, C1 (U+0080–U+009F) as \u00NN, invalid UTF-8 as
// \xNN. So nothing an agent wrote can move the cursor, retitle the window
// or clear the screen of whoever reads the listing.
func writeEscaped(w io.Writer, s string) {
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c >= 0x20 && c < 0x7f { // the common case, printable ASCII
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		esc := escapeOf(r, size, s[i])
		if esc == "" {
			i += size
			continue
		}
		io.WriteString(w, s[start:i])
		io.WriteString(w, esc)
		i += size
		start = i
	}
	io.WriteString(w, s[start:])
}

// escapeOf is the escape of one decoded rune, or "" when it prints as is.
func escapeOf(r rune, size int, b byte) string {
	switch {
	case r == utf8.RuneError && size == 1:
		return fmt.Sprintf(`\x%02x`, b)
	case r == '\t':
		return `\t`
	case r == '\n':
		return `\n`
	case r == '\r':
		return `\r`
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf(`\x%02x`, r)
	case r >= 0x80 && r <= 0x9f:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return ""
}
