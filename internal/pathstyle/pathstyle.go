package pathstyle

import (
	"runtime"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// Flavour is a platform's way with paths.
type Flavour uint8

const (
	// Posix is Linux and the other Unix systems: '/' only, case matters.
	Posix Flavour = iota
	// Darwin is macOS: '/' only; its default file system (APFS) ignores
	// case and the CLI takes paths in NFC.
	Darwin
	// Windows takes '\' and '/', drive letters and UNC shares, and its
	// file systems ignore case.
	Windows
)

// For is the flavour of a GOOS value.
func For(goos string) Flavour {
	switch goos {
	case "windows":
		return Windows
	case "darwin", "ios":
		return Darwin
	}
	return Posix
}

// Native is the flavour of the running platform.
func Native() Flavour { return For(runtime.GOOS) }

// Separator is the separator the flavour writes.
func (f Flavour) Separator() byte {
	if f == Windows {
		return '\\'
	}
	return '/'
}

// ListSeparator separates the entries of PATH.
func (f Flavour) ListSeparator() byte {
	if f == Windows {
		return ';'
	}
	return ':'
}

// IsSeparator reports whether c separates path elements.
func (f Flavour) IsSeparator(c byte) bool {
	return c == '/' || f == Windows && c == '\\'
}

// FoldsCase reports whether the file system ignores case, so two paths
// that differ only in case name one file.
func (f Flavour) FoldsCase() bool { return f != Posix }

// IsAbs reports whether p needs no base directory: "/x" on Unix; a drive
// with a separator ("C:\x", "c:/x") or a UNC share ("\\server\share") on
// Windows, where "\x" and "C:x" still depend on the current drive or
// directory.
func (f Flavour) IsAbs(p string) bool {
	if f != Windows {
		return strings.HasPrefix(p, "/")
	}
	if len(p) >= 2 && f.IsSeparator(p[0]) && f.IsSeparator(p[1]) {
		return true
	}
	return len(p) >= 3 && isLetter(p[0]) && p[1] == ':' && f.IsSeparator(p[2])
}

// HasSeparator reports whether p names a path rather than a bare command
// name (which a shell looks up on PATH). A Windows drive ("C:claude")
// counts too.
func (f Flavour) HasSeparator(p string) bool {
	for i := 0; i < len(p); i++ {
		if f.IsSeparator(p[i]) {
			return true
		}
	}
	return f == Windows && len(p) >= 2 && isLetter(p[0]) && p[1] == ':'
}

// Join puts dir and the elements together with the flavour's separator,
// writing each '/' of a Windows path as '\'. Empty elements are skipped;
// nothing else is cleaned.
func (f Flavour) Join(dir string, elem ...string) string {
	var b strings.Builder
	b.WriteString(dir)
	for _, e := range elem {
		if e == "" {
			continue
		}
		if b.Len() > 0 && !f.IsSeparator(b.String()[b.Len()-1]) {
			b.WriteByte(f.Separator())
		}
		b.WriteString(e)
	}
	if f == Windows {
		return strings.ReplaceAll(b.String(), "/", `\`)
	}
	return b.String()
}

// SplitList splits a PATH value into its directories. Empty entries are
// dropped (on Unix they mean the current directory, which is never
// searched); on Windows an entry may be quoted ("C:\Program Files\x").
func (f Flavour) SplitList(list string) []string {
	var out []string
	for _, e := range strings.Split(list, string(f.ListSeparator())) {
		if f == Windows {
			e = strings.ReplaceAll(e, `"`, "")
		}
		if e != "" {
			out = append(out, e)
		}
	}
	return out
}

// Ext is the extension of p's last element (".exe"), "" when it has none.
func (f Flavour) Ext(p string) string {
	for i := len(p) - 1; i >= 0 && !f.IsSeparator(p[i]); i-- {
		if p[i] == '.' {
			return p[i:]
		}
	}
	return ""
}

// Dir is p up to its last separator, as written ("C:\npm\claude.cmd" is
// "C:\npm"); "" when p has no separator. Nothing is cleaned.
func (f Flavour) Dir(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if f.IsSeparator(p[i]) {
			return p[:i]
		}
	}
	return ""
}

// Key is p as the platform compares paths: with '/' between elements on
// Windows, in NFC on macOS, and lower-cased where the file system ignores
// case. Two paths with equal keys name the same file as far as the names
// tell.
func (f Flavour) Key(p string) string {
	switch f {
	case Windows:
		return strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	case Darwin:
		return strings.ToLower(norm.NFC.String(p))
	}
	return p
}

// NodeKey is p as Node's path module of the platform compares resolved
// paths: lower-cased on Windows only (path.win32 ignores case, path.posix
// does not, also on macOS). The reference dedupes the paths of a file
// change report so.
func (f Flavour) NodeKey(p string) string {
	if f == Windows {
		return strings.ToLower(p)
	}
	return p
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
