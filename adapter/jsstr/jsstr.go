// Package jsstr has the string rules of JavaScript that the reference
// adapter's behaviour depends on, where Go's differ.
package jsstr

import (
	"strings"
	"unicode"
)

// IsSpace reports whether r is JavaScript white space (the \s class and
// String.prototype.trim's): the Unicode space separators, the line
// terminators and U+FEFF, but not U+0085, which Go counts.
func IsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x2028, 0x2029, 0xfeff:
		return true
	}
	return unicode.Is(unicode.Zs, r)
}

// Trim is String.prototype.trim.
func Trim(s string) string { return strings.TrimFunc(s, IsSpace) }
