// Package clistart words why a Claude CLI did not start, for the editor:
// the agent sends it in its error, and the recording proxy's CLI shim
// writes it as its first stderr line so that the agent behind
// `airwire record --cli-lane` says exactly what the bare agent says. No
// wording here carries a path of the machine or the value of a variable.
package clistart

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"

	"github.com/airwire/airwire/internal/lazyre"
)

// Prefix begins every reason the editor gets.
const Prefix = "the Claude CLI did not start: "

// shimMarker begins the line the CLI shim writes on its stderr when it
// cannot start the real CLI: the reason follows it.
const shimMarker = "airwire: " + Prefix

// ShimLine is the stderr line of a shim that could not start the CLI.
func ShimLine(reason string) string { return shimMarker + reason }

// Names says what a path that should name the CLI names instead, from
// stat's answer: "nothing (not found)", "a directory" or "a file that is
// not executable"; "" when it names an executable file (goos "windows":
// any file).
func Names(stat func(string) (fs.FileInfo, error), p, goos string) string {
	st, err := stat(p)
	switch {
	case err != nil:
		return "nothing (not found)"
	case st.IsDir():
		return "a directory"
	case goos != "windows" && st.Mode()&0o111 == 0:
		return "a file that is not executable"
	}
	return ""
}

// Given is the reason for a CLI named by source (--claude-path,
// CLAUDE_CODE_EXECUTABLE) that names what Names said.
func Given(source, names string) string {
	return source + " names " + names
}

// Exec words an error of starting the CLI's process.
func Exec(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "its executable was not found"
	case errors.Is(err, syscall.ENOEXEC):
		return "its executable is not a program this system can run"
	case errors.Is(err, fs.ErrPermission):
		return "its executable may not be run (permission denied)"
	}
	return "its process could not be created"
}

// Exited words a CLI that ended before it answered: its exit status (or
// signal) and the first line it wrote on stderr, scrubbed. A first line
// from the CLI shim is its reason, as it is.
func Exited(code int, signal, firstStderr string) string {
	line := strings.TrimSpace(firstStderr)
	if r, ok := strings.CutPrefix(line, shimMarker); ok {
		return r
	}
	s := fmt.Sprintf("it exited with status %d", code)
	if signal != "" {
		s = "it was ended by signal " + signal
	}
	if line = Scrub(line); line != "" {
		s += ": " + line
	}
	return s
}

// pathToken is a token that starts like a path: /, ~/, .\, C:\ and the
// like, at the start of the text or after a space, quote, bracket, = or :.
var pathToken = lazyre.New(`(^|[\s"'(\[=:,])(?:[A-Za-z]:[\\/]|~[\\/]|\.{0,2}[\\/])[^\s"',)\]]*`)

// longToken is a word long enough to be a key or token value; secret says
// whether it is one.
var longToken = lazyre.New(`\b(?:sk-[A-Za-z0-9_-]{8,}|[A-Za-z0-9_-]{24,})`)

// secret: an API key (sk-…) or a long word with digits in it, not a
// hyphenated flag such as --allow-dangerously-skip-permissions.
func secret(tok string) bool {
	return strings.HasPrefix(tok, "sk-") || strings.Count(tok, "-") < 3 && strings.IndexFunc(tok, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0
}

// maxLine bounds a scrubbed line.
const maxLine = 200

// Scrub makes a line of the CLI's stderr fit for the editor: paths become
// <path>, key-like values <redacted>, and it is cut to maxLine characters.
func Scrub(line string) string {
	line = pathToken.ReplaceAllString(line, "${1}<path>")
	line = longToken.ReplaceAllStringFunc(line, func(tok string) string {
		if secret(tok) {
			return "<redacted>"
		}
		return tok
	})
	if r := []rune(line); len(r) > maxLine {
		line = string(r[:maxLine]) + "…"
	}
	return strings.ToValidUTF8(line, "")
}
