// Package projectdir names the directory under `<config>/projects` where
// the Claude CLI keeps the transcripts of a working directory, as the CLI
// and the reference adapter compute it (its session-index/project-dirs.js:
// encodeProjectPath). The adapter finds stored sessions with it, and the
// conformance harness seeds and recognizes them.
package projectdir

import (
	"runtime"
	"strconv"

	"golang.org/x/text/unicode/norm"
)

// maxLength is where a long name is cut, in UTF-16 code units.
const maxLength = 200

// Name is the project directory name of cwd: every UTF-16 code unit of
// the path outside [A-Za-z0-9] turned into '-' (a character outside the
// BMP is two), and past 200 units, the first 200, '-' and the base-36
// absolute value of the path's 32-bit Java string hash. On macOS the path
// is taken in NFC first. The caller resolves symlinks (the CLI uses the
// real path). Names are computed for every transcript a list shows: an
// ASCII path allocates only the result.
func Name(cwd string) string {
	if runtime.GOOS == "darwin" {
		cwd = norm.NFC.String(cwd)
	}
	b := make([]byte, 0, len(cwd))
	for _, r := range cwd {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b = append(b, byte(r))
		case r >= 0x10000:
			b = append(b, '-', '-')
		default:
			b = append(b, '-')
		}
	}
	// One byte per UTF-16 unit: b's length is the JavaScript length.
	if len(b) <= maxLength {
		return string(b)
	}
	h := int64(javaHash(cwd))
	if h < 0 {
		h = -h
	}
	return string(b[:maxLength]) + "-" + strconv.FormatInt(h, 36)
}

// javaHash is JavaScript's `(h << 5) - h + charCodeAt(i) | 0` over the
// UTF-16 code units of s (Java's String.hashCode).
func javaHash(s string) int32 {
	var h int32
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			h = 31*h + int32(0xd800+(r>>10)&0x3ff)
			h = 31*h + int32(0xdc00+r&0x3ff)
			continue
		}
		h = 31*h + int32(r)
	}
	return h
}
