package toolcall

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Limits of the diff patch (contract: "Diff patch", "Claude behavior").
const (
	// maxPatchFileBytes bounds the file and the new text of a patch.
	maxPatchFileBytes = 1 << 20
	// patchContextLines is the context of a hunk, as `git diff`.
	patchContextLines = 3
	// binarySniffBytes is how much of a file is searched for a NUL.
	binarySniffBytes = 8000
)

// patchHunk is one `@@` hunk: 1-based starts and line counts, and its
// lines with their ' ', '-' or '+' prefix (and the no-newline marker).
type patchHunk struct {
	oldStart, oldLines, newStart, newLines int
	lines                                  []string
}

// filePatch is the exact change of one file: a creation when oldText was
// nil. ok is false when the texts are equal.
type filePatch struct {
	create bool
	hunks  []patchHunk
}

// diffFile computes the patch of oldText (nil: the file is created) to
// newText.
func diffFile(oldText *string, newText string) (filePatch, bool) {
	if oldText == nil {
		h, ok := wholeFileHunk(newText)
		if !ok {
			return filePatch{}, false
		}
		return filePatch{create: true, hunks: []patchHunk{h}}, true
	}
	hunks := lineHunks(textLines(*oldText), textLines(newText))
	return filePatch{hunks: hunks}, len(hunks) > 0
}

// textLines splits text into lines that keep their "\n"; a last line
// without one stays as it is.
func textLines(text string) []string {
	var out []string
	for text != "" {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}

// wholeFileHunk is the hunk that adds every line of text.
func wholeFileHunk(text string) (patchHunk, bool) {
	lines := textLines(text)
	if len(lines) == 0 {
		return patchHunk{}, false
	}
	h := patchHunk{oldStart: 1, newStart: 1, newLines: len(lines)}
	for _, l := range lines {
		h.lines = appendPatchLine(h.lines, '+', l)
	}
	return h, true
}

// appendPatchLine adds one prefixed line, and the no-newline marker after
// a line that has no "\n".
func appendPatchLine(lines []string, prefix byte, line string) []string {
	if strings.HasSuffix(line, "\n") {
		return append(lines, string(prefix)+line[:len(line)-1])
	}
	return append(lines, string(prefix)+line, noNewlineMarker)
}

// gitPatchText is the unified Git patch of path (contract: "Diff
// content"): the path loses its leading slashes and gets the a/ and b/
// prefixes, a Windows path with forward slashes, quoted as Git quotes it;
// a path with a space gets a tab after the --- and +++ names; a creation
// has the `new file mode` line and /dev/null as the old name.
func gitPatchText(path string, p filePatch) string {
	name := strings.TrimLeft(slashPath(path), "/")
	return patchText(quoteGitPath("a/"+name), quoteGitPath("b/"+name), strings.Contains(name, " "), p)
}

// v2PatchText is the Git patch of an ACP v2 diff: the path as it is, so
// that unquoted it equals the diff's `changes` entry, quoted as Git
// quotes it, with no a/ and b/ prefixes.
func v2PatchText(path string, p filePatch) string {
	name := quoteGitPath(path)
	return patchText(name, name, strings.Contains(path, " "), p)
}

// patchText is the Git patch text of p between the names oldName and
// newName; tab ends the --- and +++ names with a tab, as Git does for a
// name with a space.
func patchText(oldName, newName string, tab bool, p filePatch) string {
	sep := ""
	if tab {
		sep = "\t"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git %s %s\n", oldName, newName)
	if p.create {
		b.WriteString("new file mode 100644\n--- /dev/null\n")
	} else {
		fmt.Fprintf(&b, "--- %s%s\n", oldName, sep)
	}
	fmt.Fprintf(&b, "+++ %s%s\n", newName, sep)
	for _, h := range p.hunks {
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(h.oldStart, h.oldLines), hunkRange(h.newStart, h.newLines))
		for _, l := range h.lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// slashPath writes a Windows path (on Windows, or with a drive letter or
// a UNC prefix) with forward slashes ("A Windows path uses forward
// slashes"). A POSIX path keeps its backslashes: they are part of a file
// name, which Git quotes ("A double quote, a backslash ... makes Git quote
// the path").
func slashPath(path string) string {
	drive := len(path) >= 3 && path[1] == ':' && (path[2] == '\\' || path[2] == '/') &&
		('a' <= path[0]|0x20 && path[0]|0x20 <= 'z')
	if filepath.Separator == '\\' || drive || strings.HasPrefix(path, `\\`) {
		return strings.ReplaceAll(path, `\`, "/")
	}
	return path
}

// hunkRange is one side of a hunk header.
func hunkRange(start, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", max(0, start-1))
	case 1:
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, count)
}

// gitPathEscapes are the C escapes Git uses in a quoted path.
// By byte, 0 for none: an array literal is static data, where a map literal
// is built by init code at every start.
var gitPathEscapes = [256]byte{0x07: 'a', 0x08: 'b', 0x09: 't', 0x0a: 'n', 0x0b: 'v', 0x0c: 'f', 0x0d: 'r', '"': '"', '\\': '\\'}

// quoteGitPath quotes a path as Git does with the default core.quotePath:
// a double quote, a backslash, a control byte or a non-ASCII byte makes
// Git quote the whole name, with C escapes and octal bytes.
func quoteGitPath(name string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if e := gitPathEscapes[c]; e != 0 {
			b.WriteByte('\\')
			b.WriteByte(e)
			quoted = true
		} else if c < 0x20 || c >= 0x7f {
			fmt.Fprintf(&b, "\\%03o", c)
			quoted = true
		} else {
			b.WriteByte(c)
		}
	}
	if !quoted {
		return name
	}
	return `"` + b.String() + `"`
}

// patchableText reports whether a text can be a side of an exact patch:
// at most 1 MiB, no NUL and no CR ("A patch never contains a CR byte").
func patchableText(text string) bool {
	return len(text) <= maxPatchFileBytes && !strings.ContainsAny(text, "\x00\r")
}

// decodePatchSource reads file bytes as the text of a patch side: ok is
// false for a file over 1 MiB, a binary file (a NUL in its first 8000
// bytes), text that is not UTF-8 or that holds a CR.
func decodePatchSource(b []byte) (string, bool) {
	if len(b) > maxPatchFileBytes || bytes.IndexByte(b[:min(len(b), binarySniffBytes)], 0) >= 0 {
		return "", false
	}
	if !utf8.Valid(b) || bytes.IndexByte(b, '\r') >= 0 {
		return "", false
	}
	return string(b), true
}
