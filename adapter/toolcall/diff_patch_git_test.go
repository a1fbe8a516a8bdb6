package toolcall

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/airwire/airwire/adapter/airmeta"
)

// diffPatchPairs sets how many random file pairs TestDiffPatchMatchesGit
// compares with git. The full property run (the acceptance) is
//
//	go test ./adapter/toolcall -run TestDiffPatchMatchesGit -diffpatch.pairs=10000
//
// By default the test runs 1,000 pairs, 200 with -short.
var diffPatchPairs = flag.Int("diffpatch.pairs", 0, "random file pairs TestDiffPatchMatchesGit compares with git (0: 1,000, 200 with -short)")

// diffPatchSeed fixes the generator (0: a seed from the clock, logged).
var diffPatchSeed = flag.Int64("diffpatch.seed", 1, "seed of TestDiffPatchMatchesGit's generator (0: from the clock)")

// gitBatch is how many pairs share one `git diff --no-index` run: git
// diffs two directories and prints one patch per file that differs.
const gitBatch = 500

// patchCase is one random pair: the file name (below the root), the old
// text (nil: the file is created), the new text on disk.
type patchCase struct {
	number  int // the pair's number, first in its name
	name    string
	oldText *string
	newText string
	// repeats: lines may repeat, so that several shortest edits exist and
	// git may choose another one; the patch is then checked by applying it
	// with `git apply`.
	repeats bool
}

// wantsPatch says whether the contract gives the pair an exact patch: no
// CR or NUL on either side, no byte order mark on the written file, a
// change, and not an empty created file (a patch has at least one hunk).
func (c patchCase) wantsPatch() bool {
	if strings.ContainsAny(c.newText, "\r\x00") || strings.HasPrefix(c.newText, "\uFEFF") {
		return false
	}
	if c.oldText == nil {
		return c.newText != ""
	}
	return !strings.ContainsAny(*c.oldText, "\r\x00") && *c.oldText != c.newText
}

// TestDiffPatchMatchesGit is the diff patch property (issue 9, contract
// "Diff patch"): on random file pairs — Unicode, tabs, CRLF, no final
// newline, empty files, created files, names that git quotes (spaces,
// quotes, backslashes, tabs, newlines, control and non-ASCII bytes) — the
// final patch of an Edit or a Write (the PostToolUse path: originalFile
// against the file on disk) is byte for byte `git diff --no-index`, and a
// pair that cannot have an exact patch gets none. Lines are unique within
// a pair so that every shortest edit is the same one (git is run with its
// Myers algorithm and without the indent heuristic, which only choose
// between equal edits). A pair in five lets lines repeat: git can then
// pick another edit of the same length, so those patches are checked by
// `git apply`, which must turn each old file into its new text.
func TestDiffPatchMatchesGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	n := *diffPatchPairs
	if n == 0 {
		n = 1000
		if testing.Short() {
			n = 200
		}
	}
	seed := *diffPatchSeed
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	t.Logf("%d pairs, seed %d", n, seed)
	rng := rand.New(rand.NewSource(seed))
	stats := map[string]int{}
	for start := 0; start < n; start += gitBatch {
		var batch []patchCase
		for i := start; i < min(n, start+gitBatch); i++ {
			batch = append(batch, randomCase(rng, i))
		}
		checkBatch(t, git, batch, stats)
		if t.Failed() {
			return
		}
	}
	t.Logf("outcomes: %v", stats)
}

// checkBatch writes the batch to old/ and new/, runs git once and checks
// every pair.
func checkBatch(t *testing.T, git string, batch []patchCase, stats map[string]int) {
	t.Helper()
	root := t.TempDir()
	for _, c := range batch {
		dir := "new"
		switch {
		case !c.wantsPatch():
			continue // git is not asked: the contract decides alone
		case c.repeats:
			dir = "apply"
		case c.oldText != nil:
			writeCaseFile(t, filepath.Join(root, "old", c.name), *c.oldText)
		}
		if c.repeats && c.oldText != nil {
			writeCaseFile(t, filepath.Join(root, dir, c.name), *c.oldText)
		} else if !c.repeats {
			writeCaseFile(t, filepath.Join(root, dir, c.name), c.newText)
		}
	}
	for _, d := range []string{"old", "new", "apply"} {
		_ = os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	want := gitPatches(t, git, root)
	var applied []patchCase
	var ours strings.Builder
	for _, c := range batch {
		got, ok := finalPatch(t, c)
		switch {
		case c.repeats && c.wantsPatch() && ok:
			applied = append(applied, c)
			ours.WriteString(got)
			stats["applied"]++
			continue
		case !c.wantsPatch() && ok:
			t.Errorf("pair %q: a patch where the contract wants the standard diff:\n%s", c.name, got)
		case !c.wantsPatch():
			stats["standard diff"]++
		case !ok:
			t.Errorf("pair %q: no patch, git has:\n%s", c.name, want[c.number])
		case got != want[c.number]:
			t.Errorf("pair %q:\nold %q\nnew %q\n got:\n%s\nwant:\n%s", c.name, deref(c.oldText), c.newText, got, want[c.number])
		case c.oldText == nil:
			stats["created"]++
		default:
			stats["patched"]++
		}
		if t.Failed() {
			return
		}
	}
	checkApplied(t, git, root, applied, ours.String())
}

// checkApplied applies our patches of the repeats pairs with one `git
// apply` in root/apply, where each old file is, and compares each file
// with its new text.
func checkApplied(t *testing.T, git, root string, cases []patchCase, patches string) {
	t.Helper()
	if len(cases) == 0 {
		return
	}
	patchFile := filepath.Join(root, "ours.patch")
	if err := os.WriteFile(patchFile, []byte(patches), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(git, "apply", "-p1", "--whitespace=nowarn", patchFile)
	cmd.Dir = filepath.Join(root, "apply")
	cmd.Env = gitEnv(root)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply refuses our patches: %v\n%s", err, out)
	}
	for _, c := range cases {
		b, err := os.ReadFile(filepath.Join(root, "apply", c.name))
		if err != nil || string(b) != c.newText {
			t.Errorf("pair %q: git apply of our patch gives %q (%v), want %q", c.name, b, err, c.newText)
		}
	}
}

// gitEnv runs git without the machine's configuration.
func gitEnv(root string) []string {
	return append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "HOME="+root, "LC_ALL=C")
}

func deref(s *string) string {
	if s == nil {
		return "<created>"
	}
	return *s
}

func writeCaseFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// finalPatch runs the pair through the PostToolUse path: a tool_response
// with originalFile (or type create and the content), the new text read
// from a disk; it returns the patch text, ok false for the standard diff.
func finalPatch(t *testing.T, c patchCase) (string, bool) {
	t.Helper()
	path := "/" + c.name
	resp := map[string]any{"filePath": path, "type": "update", "originalFile": c.oldText}
	if c.oldText == nil {
		resp = map[string]any{"filePath": path, "type": "create", "content": c.newText}
	}
	raw, _ := json.Marshal(resp)
	disk := &Disk{ReadFile: func(p string) ([]byte, error) {
		if p != path {
			return nil, os.ErrNotExist
		}
		return []byte(c.newText), nil
	}}
	facts, ok := disk.hookPatch(raw, airPatch)
	if !ok {
		return "", false
	}
	if facts.Content == nil || len(*facts.Content) != 1 {
		t.Fatalf("pair %q: content %v", c.name, facts.Content)
	}
	var block struct {
		Meta json.RawMessage `json:"_meta"`
	}
	_ = json.Unmarshal((*facts.Content)[0], &block)
	var p struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(airmeta.Payload(block.Meta, "diffPatch"), &p)
	return p.Text, true
}

// gitIndex finds the pair number in a `diff --git` line of the batch.
var gitIndex = regexp.MustCompile(`b/new/(\d{5})-`)

// gitPatches diffs root/old and root/new in one git run and returns each
// pair's patch by pair number, with the headers rewritten from the batch
// directories to the file's own path, and without what a patch of ours
// does not carry (index lines, the function context after a hunk header).
// An empty created file has no hunk: git's header alone is dropped.
func gitPatches(t *testing.T, git, root string) map[int]string {
	t.Helper()
	cmd := exec.Command(git, "-c", "core.quotePath=true", "diff", "--no-index", "--no-color", "--no-ext-diff",
		"--no-renames", "--diff-algorithm=myers", "--no-indent-heuristic", "--src-prefix=a/", "--dst-prefix=b/", "old", "new")
	cmd.Dir = root
	cmd.Env = gitEnv(root)
	out, err := cmd.Output()
	if exit, ok := err.(*exec.ExitError); err != nil && (!ok || exit.ExitCode() != 1) {
		t.Fatalf("git: %v", err)
	}
	patches := map[int]string{}
	for _, p := range splitGitOutput(out) {
		header, _, _ := strings.Cut(p, "\n")
		m := gitIndex.FindAllStringSubmatch(header, -1)
		if m == nil {
			t.Fatalf("no pair number in %q", header)
		}
		i, _ := strconv.Atoi(m[len(m)-1][1])
		if p = normalizeGitPatch(p); strings.Contains(p, "\n@@ ") {
			patches[i] = p
		}
	}
	return patches
}

// splitGitOutput cuts git's output at each `diff --git` line.
func splitGitOutput(out []byte) []string {
	var patches []string
	for _, part := range bytes.Split(out, []byte("\ndiff --git ")) {
		s := string(part)
		if !strings.HasPrefix(s, "diff --git ") {
			s = "diff --git " + s
		}
		if !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		if len(out) > 0 {
			patches = append(patches, s)
		}
	}
	return patches
}

// normalizeGitPatch rewrites one git patch of the batch to the form of
// ours: `a/old/`, `a/new/` and `b/new/` become `a/` and `b/` in the
// headers; index lines and the function context go.
func normalizeGitPatch(p string) string {
	var b strings.Builder
	inHeader := true
	for _, l := range strings.SplitAfter(p, "\n") {
		switch {
		case l == "":
			continue
		case strings.HasPrefix(l, "@@ "):
			inHeader = false
			end := strings.Index(l[3:], " @@")
			l = l[:3+end+3] + "\n"
		case inHeader && strings.HasPrefix(l, "index "):
			continue
		case inHeader:
			l = strings.Replace(l, "a/old/", "a/", 1)
			l = strings.Replace(l, "a/new/", "a/", 1)
			l = strings.Replace(l, "b/new/", "b/", 1)
		}
		b.WriteString(l)
	}
	return b.String()
}

// randomCase makes pair i: a name that may need quoting and one of the
// contract's text shapes.
func randomCase(rng *rand.Rand, i int) patchCase {
	c := patchCase{number: i, name: randomName(rng, i), repeats: rng.Intn(5) == 0}
	oldLines := randomLines(rng, rng.Intn(40), 0, c.repeats)
	newLines := editLines(rng, oldLines, c.repeats)
	oldText := joinText(rng, oldLines)
	newText := joinText(rng, newLines)
	switch r := rng.Intn(100); {
	case r < 12: // a created file (empty or not)
		if rng.Intn(4) == 0 {
			newText = ""
		}
		c.newText = newText
		return c
	case r < 15: // no change
		newText = oldText
	case r < 18: // CRLF line ends on one side or both
		if rng.Intn(2) == 0 {
			oldText = strings.ReplaceAll(oldText, "\n", "\r\n")
		}
		if rng.Intn(2) == 0 || !strings.Contains(oldText, "\r") {
			newText = strings.ReplaceAll(newText, "\n", "\r\n") + "\r"
		}
	case r < 19: // a NUL (a binary file) on one side
		if rng.Intn(2) == 0 {
			oldText += "\x00"
		} else {
			newText = "\x00" + newText
		}
	case r < 20: // a byte order mark on the written file
		newText = "\uFEFF" + newText
	case r < 22: // a byte order mark on the original only
		oldText = "\uFEFF" + oldText
	case r < 27: // an empty side
		if rng.Intn(2) == 0 {
			oldText = ""
		} else {
			newText = ""
		}
	}
	c.oldText, c.newText = &oldText, newText
	return c
}

// nameParts are pieces of file names: plain, and every kind git quotes.
var nameParts = []string{"a", "file", ".txt", ".go", "-x_", " ", "with space", "\t", `"`, `\`, "'", "$", "#", "é", "ü",
	"日本", "😀", "\n", "\x01", "\x1b", "\x7f", "\a", "\b", "\v", "\f", "\r", "(1)", "~"}

// randomName is pair i's name: its number first (git lists the pairs in
// that order), then random parts, sometimes below a directory.
func randomName(rng *rand.Rand, i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%05d-", i)
	if rng.Intn(5) == 0 {
		b.WriteString(nameParts[rng.Intn(len(nameParts))] + "dir/")
	}
	for range 1 + rng.Intn(4) {
		b.WriteString(nameParts[rng.Intn(len(nameParts))])
	}
	return b.String()
}

// lineWords are pieces of lines: tabs, spaces, Unicode, characters that
// look like patch syntax.
var lineWords = []string{"alpha", "\tbeta", "\t\tgamma", "ünïcödé", "δέλτα", "日本語", "😀", "  ", "trailing  ", "-x", "+y",
	"@@ -1 +1 @@", `\ No newline`, "diff --git", "\"q\"", "\\", "func f() {", "}", "", "\u2028", "ä\tb"}

// repeatedLines are the lines that repeat in a repeats pair.
var repeatedLines = []string{"", "}", "\treturn", "  "}

// randomLines are n lines; each ends with its own number, unless repeats
// (then two in three are one of repeatedLines).
func randomLines(rng *rand.Rand, n, first int, repeats bool) []string {
	var out []string
	for i := range n {
		if repeats && rng.Intn(3) != 0 {
			out = append(out, repeatedLines[rng.Intn(len(repeatedLines))])
			continue
		}
		var b strings.Builder
		for range rng.Intn(4) {
			b.WriteString(lineWords[rng.Intn(len(lineWords))])
		}
		fmt.Fprintf(&b, "#%d", first+i)
		out = append(out, b.String())
	}
	return out
}

// editLines changes lines in runs: deletions, replacements, insertions
// (new lines are numbered past every old one), long unchanged stretches
// in between, so that hunks split and join at git's 3 lines of context.
func editLines(rng *rand.Rand, lines []string, repeats bool) []string {
	next := 10000
	fresh := func(n int) []string { next += n; return randomLines(rng, n, next-n, repeats) }
	var out []string
	if rng.Intn(5) == 0 {
		out = append(out, fresh(1+rng.Intn(3))...)
	}
	for i := 0; i < len(lines); {
		run := 1 + rng.Intn(3)
		switch op := rng.Intn(10); {
		case op == 0: // delete a run
			i += run
		case op == 1: // replace a run
			out = append(out, fresh(1+rng.Intn(3))...)
			i += run
		case op == 2: // insert
			out = append(out, fresh(1+rng.Intn(3))...)
		default: // keep a stretch of 1 to 9 lines
			keep := min(len(lines), i+1+rng.Intn(9))
			out = append(out, lines[i:keep]...)
			i = keep
		}
	}
	if rng.Intn(4) == 0 {
		out = append(out, fresh(1+rng.Intn(2))...)
	}
	return out
}

// joinText joins lines with "\n", with a final newline four times in five.
func joinText(rng *rand.Rand, lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	s := strings.Join(lines, "\n")
	if rng.Intn(5) != 0 {
		s += "\n"
	}
	return s
}
