package toolcall

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitPatchMatchesGit compares gitPatchText with `git diff --no-index`
// on random line edits, names with spaces and non-ASCII bytes, files
// without a final newline and created files (contract: "Diff patch").
// git's own indent heuristic can move a hunk of repeated lines; the
// generator uses distinct lines so that every shortest edit is the same.
func TestGitPatchMatchesGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	rng := rand.New(rand.NewSource(9))
	names := []string{"a.txt", "dir/with space.txt", "ü.go", `q"uote.txt`, "tab\tname.txt"}
	for i := range 400 {
		dir := t.TempDir()
		name := names[i%len(names)]
		oldText, newText := randomPair(rng)
		create := i%7 == 0
		oldPath := filepath.Join(dir, "old")
		newPath := filepath.Join(dir, "b", name)
		if err := os.MkdirAll(filepath.Dir(newPath), 0o755); err != nil {
			t.Fatal(err)
		}
		_ = os.WriteFile(oldPath, []byte(oldText), 0o644)
		_ = os.WriteFile(newPath, []byte(newText), 0o644)
		var oldArg = oldPath
		var old *string
		if create {
			oldArg = os.DevNull
		} else {
			old = &oldText
		}
		cmd := exec.Command(git, "-c", "core.quotePath=true", "diff", "--no-index", "--no-color", "--no-ext-diff",
			"--diff-algorithm=myers", "--no-indent-heuristic", "--src-prefix=a/", "--dst-prefix=b/", oldArg, newPath)
		out, _ := cmd.Output()
		p, ok := diffFile(old, newText)
		if !ok {
			// An empty created file has no hunk: the contract asks for at
			// least one, so it gets the standard diff.
			if len(out) != 0 && !(create && newText == "") {
				t.Fatalf("case %d: git sees a change, we do not:\n%s", i, out)
			}
			continue
		}
		got := gitPatchText("/"+name, p)
		want := normalizeGitOutput(string(out), name, dir)
		if got != want {
			t.Fatalf("case %d (%q):\nold %q\nnew %q\n got:\n%s\nwant:\n%s", i, name, oldText, newText, got, want)
		}
	}
}

// normalizeGitOutput rewrites git's headers for the temporary paths to
// the ones of the file itself, and drops the index and mode lines a
// patch of ours does not carry.
func normalizeGitOutput(out, name, dir string) string {
	var lines []string
	for _, l := range strings.SplitAfter(out, "\n") {
		if strings.HasPrefix(l, "index ") || l == "" {
			continue
		}
		if strings.HasPrefix(l, "@@ ") {
			// git's function context after the header: our patches have none.
			end := strings.Index(l[3:], " @@")
			l = l[:3+end+3] + "\n"
		}
		lines = append(lines, l)
	}
	joined := strings.Join(lines, "")
	oldHeader := quoteGitPath("a/" + name)
	newHeader := quoteGitPath("b/" + name)
	tab := ""
	if strings.Contains(name, " ") {
		tab = "\t"
	}
	var fixed []string
	for _, l := range strings.SplitAfter(joined, "\n") {
		switch {
		case strings.HasPrefix(l, "diff --git "):
			l = "diff --git " + oldHeader + " " + newHeader + "\n"
		case strings.HasPrefix(l, "--- ") && !strings.HasPrefix(l, "--- /dev/null"):
			l = "--- " + oldHeader + tab + "\n"
		case strings.HasPrefix(l, "+++ "):
			l = "+++ " + newHeader + tab + "\n"
		}
		fixed = append(fixed, l)
	}
	return strings.Join(fixed, "")
}

// randomPair makes a file of distinct lines and an edit of it.
func randomPair(rng *rand.Rand) (string, string) {
	n := rng.Intn(30)
	var a []string
	for i := range n {
		a = append(a, lineText(rng, i))
	}
	var b []string
	for i, l := range a {
		switch rng.Intn(6) {
		case 0: // delete
		case 1:
			b = append(b, lineText(rng, 1000+i))
		case 2:
			b = append(b, l, lineText(rng, 2000+i))
		default:
			b = append(b, l)
		}
	}
	if rng.Intn(4) == 0 {
		b = append(b, lineText(rng, 3000))
	}
	return joinLines(a, rng.Intn(5) != 0), joinLines(b, rng.Intn(5) != 0)
}

func lineText(rng *rand.Rand, i int) string {
	words := []string{"alpha", "\tbeta", "ünï", "gamma  ", "δ"}
	return words[rng.Intn(len(words))] + " " + strings.Repeat("x", i%3) + string(rune('a'+i%26)) + itoa(i)
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}

func joinLines(lines []string, finalNewline bool) string {
	if len(lines) == 0 {
		return ""
	}
	s := strings.Join(lines, "\n")
	if finalNewline {
		s += "\n"
	}
	return s
}
