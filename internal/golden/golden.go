package golden

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/sebdah/goldie/v2"
)

// Layout constants, the same as goldie's defaults.
const (
	// Suffix ends every golden file name.
	Suffix = ".golden"
	// FilePerms and DirPerms are used when writing goldens.
	FilePerms os.FileMode = 0o644
	DirPerms  os.FileMode = 0o755
)

// ErrMismatch matches every *MismatchError (errors.Is).
var ErrMismatch = errors.New("golden mismatch")

// ErrMissing means the golden file does not exist (run with -update).
var ErrMissing = errors.New("golden file missing: record it with -update (ginkgo -- -update, or airwire conform --update)")

// MismatchError is a comparison that failed.
type MismatchError struct {
	// File is the golden's path.
	File string
	// Line is the 1-based line of the first difference.
	Line int
	// Tag is the first word(s) before the JSON on that line, when both sides
	// agree on it.
	Tag string
	// Path is the JSON path of the first difference on that line ("" when
	// the line is not JSON on both sides).
	Path string
	// Want and Got are the differing values at Path (or the whole lines).
	Want, Got string
	// Diff is goldie.Diff(ClassicDiff, actual, expected).
	Diff string
}

func (e *MismatchError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s does not match", e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, "; first difference on line %d", e.Line)
		if e.Tag != "" {
			fmt.Fprintf(&b, " (%s)", e.Tag)
		}
		if e.Path != "" {
			fmt.Fprintf(&b, " at JSON path %s: expected %s, got %s", e.Path, e.Want, e.Got)
		} else {
			fmt.Fprintf(&b, ":\n  expected: %s\n  got:      %s", e.Want, e.Got)
		}
	}
	b.WriteString("\n")
	b.WriteString(e.Diff)
	return b.String()
}

// Is makes errors.Is(err, ErrMismatch) hold.
func (e *MismatchError) Is(target error) bool { return target == ErrMismatch }

// Golden compares and writes the goldens under one directory.
type Golden struct {
	dir    string
	update *bool
}

// Option configures a Golden.
type Option func(*Golden)

// WithUpdate forces update mode on or off, instead of goldie's -update flag
// and GOLDIE_UPDATE.
func WithUpdate(on bool) Option { return func(g *Golden) { g.update = &on } }

// New returns a Golden for the fixture directory dir (e.g. "goldens").
func New(dir string, opts ...Option) *Golden {
	g := &Golden{dir: dir}
	for _, o := range opts {
		o(g)
	}
	return g
}

// Updating reports whether Match writes goldens: WithUpdate if given, else
// goldie's -update flag (registered on the default flag set when goldie is
// imported), else GOLDIE_UPDATE.
func (g *Golden) Updating() bool {
	if g.update != nil {
		return *g.update
	}
	return UpdateRequested()
}

// UpdateRequested reads goldie's -update flag, falling back to GOLDIE_UPDATE.
func UpdateRequested() bool {
	if f := flag.Lookup("update"); f != nil {
		if v, err := strconv.ParseBool(f.Value.String()); err == nil && v {
			return true
		}
	}
	switch strings.ToLower(os.Getenv("GOLDIE_UPDATE")) {
	case "1", "true", "t":
		return true
	}
	return false
}

// Dir is the fixture directory.
func (g *Golden) Dir() string { return g.dir }

// File is the path of the golden for name: <dir>/<name>.golden.
func (g *Golden) File(name string) string {
	return filepath.Join(g.dir, filepath.FromSlash(name)+Suffix)
}

// Match compares got with the golden for name, writing it first when
// updating. It returns nil, an error wrapping ErrMissing, or a
// *MismatchError.
func (g *Golden) Match(name string, got []byte) error {
	file := g.File(name)
	if g.Updating() {
		if err := os.MkdirAll(filepath.Dir(file), DirPerms); err != nil {
			return err
		}
		if err := os.WriteFile(file, got, FilePerms); err != nil {
			return err
		}
	}
	want, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s: %w", file, ErrMissing)
	}
	if err != nil {
		return err
	}
	if bytes.Equal(want, got) {
		return nil
	}
	return Compare(file, want, got)
}

// Compare builds the *MismatchError for two different texts.
func Compare(file string, want, got []byte) *MismatchError {
	e := &MismatchError{File: file, Diff: goldie.Diff(goldie.ClassicDiff, string(got), string(want))}
	wl := strings.Split(string(want), "\n")
	gl := strings.Split(string(got), "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, a string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			a = gl[i]
		}
		if w == a {
			continue
		}
		e.Line = i + 1
		e.Want, e.Got = quoteLine(w, i < len(wl)), quoteLine(a, i < len(gl))
		wt, wj := splitLine(w)
		at, aj := splitLine(a)
		if wt == at {
			e.Tag = wt
		}
		if wj != nil && aj != nil && wt == at {
			path, wv, gv := FirstDiff(wj, aj)
			if path != "" {
				e.Path, e.Want, e.Got = path, wv, gv
			}
		}
		break
	}
	return e
}

func quoteLine(s string, present bool) string {
	if !present {
		return "(no line)"
	}
	return s
}

// splitLine cuts a canonical line "<tag words> <json>" at the first { or [.
func splitLine(s string) (string, any) {
	i := strings.IndexAny(s, "{[")
	if i < 0 {
		return s, nil
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(s[i:]))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return s, nil
	}
	return strings.TrimSpace(s[:i]), v
}

// FirstDiff returns the JSON path of the first difference between two
// decoded JSON values (object keys visited in sorted order) and the two
// values there, encoded; "" when they are equal.
func FirstDiff(want, got any) (path, w, g string) {
	return firstDiff("$", want, got)
}

func firstDiff(at string, want, got any) (string, string, string) {
	switch wv := want.(type) {
	case map[string]any:
		gv, ok := got.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range wv {
			keys[k] = true
		}
		for k := range gv {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			a, inW := wv[k]
			b, inG := gv[k]
			p := at + pathKey(k)
			switch {
			case !inW:
				return p, "(absent)", enc(b)
			case !inG:
				return p, enc(a), "(absent)"
			}
			if q, x, y := firstDiff(p, a, b); q != "" {
				return q, x, y
			}
		}
		return "", "", ""
	case []any:
		gv, ok := got.([]any)
		if !ok {
			break
		}
		for i := 0; i < max(len(wv), len(gv)); i++ {
			p := fmt.Sprintf("%s[%d]", at, i)
			switch {
			case i >= len(wv):
				return p, "(absent)", enc(gv[i])
			case i >= len(gv):
				return p, enc(wv[i]), "(absent)"
			}
			if q, x, y := firstDiff(p, wv[i], gv[i]); q != "" {
				return q, x, y
			}
		}
		return "", "", ""
	}
	if a, b := enc(want), enc(got); a != b {
		return at, a, b
	}
	return "", "", ""
}

func pathKey(k string) string {
	simple := k != ""
	for i, r := range k {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			simple = false
			break
		}
	}
	if simple {
		return "." + k
	}
	b, _ := json.Marshal(k)
	return "[" + string(b) + "]"
}

func enc(v any) string {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimRight(buf.String(), "\n")
}
