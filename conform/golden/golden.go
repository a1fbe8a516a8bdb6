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

	// goldie registers the -update flag UpdateRequested reads.
	_ "github.com/sebdah/goldie/v2"
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

// Kinds of the first difference (MismatchError.Kind), once the expected and
// actual lines (and, inside a line, the elements of an array) are aligned
// along a longest common subsequence.
const (
	// Changed: the same message (tag, method, id, update kind) holds another
	// value at Path.
	Changed = "changed"
	// Missing: a line (or array element) of the golden has no counterpart in
	// the actual transcript.
	Missing = "missing"
	// Extra: the actual transcript has a line (or array element) the golden
	// lacks.
	Extra = "extra"
	// Moved: a line (or array element) of the golden is in the actual
	// transcript, elsewhere.
	Moved = "moved"
)

// MismatchError is a comparison that failed.
type MismatchError struct {
	// File is the golden's path.
	File string
	// Kind is what happened at the first difference: Changed, Missing,
	// Extra or Moved.
	Kind string
	// Line is the 1-based golden line of the first difference (for Extra,
	// the golden line the extra line comes before; one past the end when it
	// comes last).
	Line int
	// GotLine is the 1-based line of the actual transcript (for Missing, the
	// line the missing one would come before).
	GotLine int
	// Tag is the first word(s) before the JSON on that line, when both sides
	// agree on it (for Missing, Extra and Moved, the line's own).
	Tag string
	// Path is the JSON path of the first difference on that line ("" when
	// the whole line is missing, extra or moved, or not JSON on both
	// sides). Inside a line, array elements are aligned too: Path then
	// names a missing, extra or moved element by its golden index (an extra
	// one by its actual index).
	Path string
	// Want and Got are the differing values at Path (or the whole lines;
	// "(absent)" for what a side lacks, "(at …)" for where a moved line or
	// element is in the actual transcript).
	Want, Got string
	// Diffs lists every difference, in golden order, up to MaxDiffs; More
	// says there were more.
	Diffs []Diff
	More  bool
	// Diff shows the first changed regions with a line of context, each
	// line clipped to Window bytes around where it differs (briefDiff).
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
		b.WriteString(e.summary())
	}
	b.WriteString("\n")
	b.WriteString(e.Diff)
	return b.String()
}

// summary is the first difference after "first difference on line N (tag)",
// long values clipped around where they differ.
func (e *MismatchError) summary() string {
	at := DiffAt(e.Want, e.Got)
	want, got := Clip(e.Want, at), Clip(e.Got, at)
	kind := ""
	if e.Kind != "" && e.Kind != Changed {
		kind = e.Kind + ": "
	}
	switch {
	case e.Path != "":
		return fmt.Sprintf(" at JSON path %s: %sexpected %s, got %s", e.Path, kind, want, got)
	case e.Kind == Missing:
		return fmt.Sprintf(": missing: the actual transcript lacks it (it would be its line %d):\n  expected: %s", e.GotLine, want)
	case e.Kind == Extra:
		return fmt.Sprintf(": extra: line %d of the actual transcript is not in the golden (it comes before this golden line):\n  got:      %s", e.GotLine, got)
	case e.Kind == Moved:
		return fmt.Sprintf(": moved: it is line %d of the actual transcript:\n  expected: %s", e.GotLine, want)
	}
	return fmt.Sprintf(":\n  expected: %s\n  got:      %s", want, got)
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

// Compare builds the *MismatchError for two different texts. The lines are
// aligned first (longest common subsequence), so that a missing, extra or
// moved line is named as such, at its own line, rather than compared with
// an unrelated line of the other side.
func Compare(file string, want, got []byte) *MismatchError {
	wl := strings.Split(string(want), "\n")
	gl := strings.Split(string(got), "\n")
	ops := align(wl, gl)
	e := &MismatchError{File: file, Diff: briefDiff(ops, wl, gl)}
	e.Diffs, e.More = allDiffs(ops, wl, gl)
	h := firstHunk(ops, wl, gl)
	if h == nil {
		return e
	}
	e.describe(h, wl, gl)
	return e
}

// describe fills in the first difference from the first hunk h.
func (e *MismatchError) describe(h *hunk, wl, gl []string) {
	if len(h.dels) > 0 {
		d := h.dels[0]
		if at, ok := h.insAt[wl[d.w]]; ok {
			e.wholeLine(Moved, d.w, at, wl[d.w], fmt.Sprintf("(at line %d)", at+1))
			return
		}
	}
	if len(h.inss) > 0 {
		i := h.inss[0]
		if at, ok := h.delAt[gl[i.g]]; ok {
			e.wholeLine(Moved, at, i.g, gl[i.g], fmt.Sprintf("(at line %d)", i.g+1))
			return
		}
	}
	switch {
	case len(h.inss) == 0:
		d := h.dels[0]
		e.wholeLine(Missing, d.w, d.g, wl[d.w], "(absent)")
	case len(h.dels) == 0:
		i := h.inss[0]
		e.wholeLine(Extra, i.w, i.g, "(absent)", gl[i.g])
	default:
		e.pair(h, wl, gl)
	}
}

// pair describes a hunk with lines on both sides: the first golden line
// changed into the actual line that is the same message, after the actual
// lines before that one (extra); a golden line that is no message of the
// actual side is missing. One line replaced by one other is a change.
func (e *MismatchError) pair(h *hunk, wl, gl []string) {
	d := h.dels[0]
	key := lineKey(wl[d.w])
	for k, i := range h.inss {
		if lineKey(gl[i.g]) != key {
			continue
		}
		if k > 0 {
			// The extra lines come where the hunk starts: before golden line d.
			first := h.inss[0]
			e.wholeLine(Extra, d.w, first.g, "(absent)", gl[first.g])
			return
		}
		e.changed(d.w, i.g, wl[d.w], gl[i.g])
		return
	}
	if len(h.dels) == 1 && len(h.inss) == 1 {
		e.changed(d.w, h.inss[0].g, wl[d.w], gl[h.inss[0].g])
		return
	}
	e.wholeLine(Missing, d.w, d.g, wl[d.w], "(absent)")
}

// wholeLine records a missing, extra or moved line.
func (e *MismatchError) wholeLine(kind string, w, g int, want, got string) {
	e.Kind, e.Line, e.GotLine, e.Want, e.Got = kind, w+1, g+1, want, got
	text := want
	if kind == Extra {
		text = got
	}
	e.Tag, _ = splitLine(text)
}

// changed records golden line w that is actual line g with other content,
// with the JSON path of the first difference when both are JSON with the
// same tag.
func (e *MismatchError) changed(w, g int, want, got string) {
	e.Kind, e.Line, e.GotLine = Changed, w+1, g+1
	e.Want, e.Got = want, got
	wt, wj := splitLine(want)
	at, aj := splitLine(got)
	if wt != at {
		return
	}
	e.Tag = wt
	if wj != nil && aj != nil {
		if d := firstDiff("$", wj, aj); d.path != "" {
			e.Kind, e.Path, e.Want, e.Got = d.kind, d.path, d.want, d.got
		}
	}
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
// decoded JSON values (object keys visited in sorted order, array elements
// aligned along a longest common subsequence) and the two values there,
// encoded; "" when they are equal.
func FirstDiff(want, got any) (path, w, g string) {
	d := firstDiff("$", want, got)
	return d.path, d.want, d.got
}

// diffAt is the first difference inside a line.
type diffAt struct {
	kind, path, want, got string
}

func firstDiff(at string, want, got any) diffAt {
	switch wv := want.(type) {
	case map[string]any:
		if gv, ok := got.(map[string]any); ok {
			return objectDiff(at, wv, gv)
		}
	case []any:
		if gv, ok := got.([]any); ok {
			return arrayDiff(at, wv, gv)
		}
	}
	if a, b := enc(want), enc(got); a != b {
		return diffAt{Changed, at, a, b}
	}
	return diffAt{}
}

func objectDiff(at string, wv, gv map[string]any) diffAt {
	for _, k := range sortedKeys(wv, gv) {
		a, inW := wv[k]
		b, inG := gv[k]
		p := at + pathKey(k)
		switch {
		case !inW:
			return diffAt{Changed, p, "(absent)", enc(b)}
		case !inG:
			return diffAt{Changed, p, enc(a), "(absent)"}
		}
		if d := firstDiff(p, a, b); d.path != "" {
			return d
		}
	}
	return diffAt{}
}

// arrayDiff aligns the elements of two arrays: a golden element that is
// elsewhere in the actual array is moved, one with no counterpart missing,
// an actual element the golden lacks extra; an element replaced by another
// at the same place is compared inside.
func arrayDiff(at string, wv, gv []any) diffAt {
	we, ge := make([]string, len(wv)), make([]string, len(gv))
	for i, v := range wv {
		we[i] = enc(v)
	}
	for i, v := range gv {
		ge[i] = enc(v)
	}
	h := firstHunk(align(we, ge), we, ge)
	if h == nil {
		return diffAt{}
	}
	idx := func(i int) string { return fmt.Sprintf("%s[%d]", at, i) }
	if len(h.dels) > 0 {
		d := h.dels[0]
		if g, ok := h.insAt[we[d.w]]; ok {
			return diffAt{Moved, idx(d.w), we[d.w], "(at " + idx(g) + ")"}
		}
	}
	if len(h.inss) > 0 {
		i := h.inss[0]
		if w, ok := h.delAt[ge[i.g]]; ok {
			return diffAt{Moved, idx(w), ge[i.g], "(at " + idx(i.g) + ")"}
		}
	}
	switch {
	case len(h.inss) == 0:
		return diffAt{Missing, idx(h.dels[0].w), we[h.dels[0].w], "(absent)"}
	case len(h.dels) == 0:
		return diffAt{Extra, idx(h.inss[0].g), "(absent)", ge[h.inss[0].g]}
	}
	d, i := h.dels[0], h.inss[0]
	return firstDiff(idx(d.w), wv[d.w], gv[i.g])
}

// sortedKeys is the union of the keys of two objects, sorted.
func sortedKeys(wv, gv map[string]any) []string {
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
	return sorted
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
