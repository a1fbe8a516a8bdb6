package validate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/airwire/airwire/internal/lazyre"
)

var (
	hunkRe    = lazyre.New(`^@@ -\d+(,\d+)? \+\d+(,\d+)? @@`)
	windowsRe = lazyre.New(`^([A-Za-z]:\\|\\\\)`)
)

// GitPath is the header name git gives path with prefix "a/" or "b/": the
// leading slash dropped, a Windows path with forward slashes, and the whole
// name quoted as git does with the default core.quotePath.
func GitPath(prefix, path string) string {
	if windowsRe.MatchString(path) {
		path = strings.ReplaceAll(path, `\`, "/")
	}
	return gitQuote(prefix + strings.TrimLeft(path, "/"))
}

func gitQuote(s string) string {
	needs := false
	for i := 0; i < len(s); i++ {
		if b := s[i]; b == '"' || b == '\\' || b < 0x20 || b >= 0x7f {
			needs = true
			break
		}
	}
	if !needs {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; ch {
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\v':
			b.WriteString(`\v`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		default:
			if ch < 0x20 || ch >= 0x7f {
				fmt.Fprintf(&b, `\%03o`, ch)
			} else {
				b.WriteByte(ch)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// headerName is the name on a ---/+++ line: with a trailing tab when an
// unquoted name holds a space.
func headerName(name string) string {
	if !strings.HasPrefix(name, `"`) && strings.Contains(name, " ") {
		return name + "\t"
	}
	return name
}

// CheckPatchText returns the rule breaks of a diffPatch text for the diff
// block of path ("Diff patch"): one file, git headers, at least one hunk,
// a/ and b/ names, git quoting, the new-file form, and no CR byte.
func CheckPatchText(text, path string) []string {
	var out []string
	if strings.Contains(text, "\r") {
		out = append(out, "the patch contains a CR byte at offset "+strconv.Itoa(strings.IndexByte(text, '\r')))
	}
	lines := strings.Split(strings.ReplaceAll(text, "\r", ""), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "diff --git ") {
		return append(out, "the patch does not start with a diff --git header")
	}
	a, b := GitPath("a/", path), GitPath("b/", path)
	if path != "" && lines[0] != "diff --git "+a+" "+b {
		out = append(out, fmt.Sprintf("header %q, want %q", lines[0], "diff --git "+a+" "+b))
	}
	var minus, plus *string
	newFile, hunks, files := false, 0, 0
	for i := range lines {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "diff --git "):
			files++
		case minus == nil && strings.HasPrefix(l, "new file mode "):
			newFile = true
			if l != "new file mode 100644" {
				out = append(out, fmt.Sprintf("%q: an added file has new file mode 100644", l))
			}
		case strings.HasPrefix(l, "deleted file mode "):
			out = append(out, "the adapter never sends a deleted file")
		case minus == nil && strings.HasPrefix(l, "--- "):
			minus = &lines[i]
		case plus == nil && minus != nil && strings.HasPrefix(l, "+++ "):
			plus = &lines[i]
		case hunkRe.MatchString(l):
			hunks++
		}
	}
	if files != 1 {
		out = append(out, fmt.Sprintf("the patch holds %d files; a diff block holds one", files))
	}
	if minus == nil || plus == nil {
		out = append(out, "the patch lacks its --- and +++ file headers")
	} else if path != "" {
		wantMinus := "--- " + headerName(a)
		if newFile {
			wantMinus = "--- /dev/null"
		}
		if *minus != wantMinus {
			if *minus == "--- /dev/null" {
				out = append(out, "--- /dev/null without new file mode 100644")
			} else {
				out = append(out, fmt.Sprintf("%q, want %q", *minus, wantMinus))
			}
		}
		if wantPlus := "+++ " + headerName(b); *plus != wantPlus {
			out = append(out, fmt.Sprintf("%q, want %q", *plus, wantPlus))
		}
	}
	if hunks == 0 {
		out = append(out, "the patch has no @@ hunk")
	}
	return out
}
