// Package projectdir names the directory under `<config>/projects` where
// the Claude CLI keeps the transcripts of a working directory, as the CLI
// and the reference adapter compute it (its session-index/project-dirs.js:
// encodeProjectPath). The adapter finds stored sessions with it, and the
// conformance harness seeds and recognizes them.
package projectdir

import (
	"strconv"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/airwire/airwire/internal/pathstyle"
)

// maxLength is where a long name is cut, in UTF-16 code units.
const maxLength = 200

// Name is the project directory name of cwd on the running platform
// (NameOn).
func Name(cwd string) string { return NameOn(pathstyle.Native(), cwd) }

// NameOn is the project directory name of cwd on platform f: every UTF-16
// code unit of the path outside [A-Za-z0-9] turned into '-' (a character
// outside the BMP is two), and past 200 units, the first 200, '-' and the
// base-36 absolute value of the path's 32-bit Java string hash. On macOS
// the path is taken in NFC first. A Windows path gets no rule of its own:
// its drive colon and backslashes are dashes like any other character
// (C:\Users\a is C--Users-a). The caller resolves symlinks (the CLI uses
// the real path). Names are computed for every transcript a list shows:
// an ASCII path allocates only the result.
func NameOn(f pathstyle.Flavour, cwd string) string {
	cwd = normalize(f, cwd)
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

// normalize is cwd in NFC on macOS, as the SDK takes it there.
func normalize(f pathstyle.Flavour, cwd string) string {
	if f == pathstyle.Darwin {
		return norm.NFC.String(cwd)
	}
	return cwd
}

// Matches reports whether dirName may hold the transcripts of cwd on
// platform f: cwd's name, in any case on Windows (whose file names ignore
// it), or for a name past 200 units the same cut with any hash (the CLI
// and the SDK hash differently). The reference's projectDirMatches.
func Matches(f pathstyle.Flavour, dirName, cwd string) bool {
	name := NameOn(f, cwd)
	if sameName(f, dirName, name) {
		return true
	}
	if len(name) <= maxLength {
		return false
	}
	prefix := name[:maxLength] + "-"
	if f == pathstyle.Windows {
		return strings.HasPrefix(strings.ToLower(dirName), strings.ToLower(prefix))
	}
	return strings.HasPrefix(dirName, prefix)
}

// IsExact reports whether dirName is cwd's own name on platform f, in any
// case on Windows and macOS (the reference's isExactProjectDir: the SDK
// finds the directory by stat, which ignores case there).
func IsExact(f pathstyle.Flavour, dirName, cwd string) bool {
	name := NameOn(f, cwd)
	return sameName(f, dirName, name) || f == pathstyle.Darwin && strings.EqualFold(dirName, name)
}

// sameName compares directory names as the reference does: ignoring case
// on Windows only.
func sameName(f pathstyle.Flavour, a, b string) bool {
	if f == pathstyle.Windows {
		return strings.EqualFold(a, b)
	}
	return a == b
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
