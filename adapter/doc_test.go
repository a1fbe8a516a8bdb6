package adapter

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// mapEntry is one line of doc.go's file map: "//   - name.go: what it holds".
var mapEntry = regexp.MustCompile(`(?m)^//   - ([A-Za-z0-9_]+\.go): \S`)

// TestDocMapsEveryFile checks that doc.go's layout names every non-test Go
// file of the package once, and no file that does not exist.
func TestDocMapsEveryFile(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	missing, stale := docMapDiff(t, string(doc), ".")
	for _, f := range missing {
		t.Errorf("doc.go's layout does not name %s", f)
	}
	for _, f := range stale {
		t.Errorf("doc.go's layout names %s, which is not a file of the package (or names it twice)", f)
	}
}

// docMapDiff compares the files doc names with the non-test Go files in
// dir: missing are files it does not name, stale names without a file
// (and names given twice).
func docMapDiff(t *testing.T, doc, dir string) (missing, stale []string) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, p := range paths {
		if f := filepath.Base(p); !strings.HasSuffix(f, "_test.go") {
			files = append(files, f)
		}
	}
	var named []string
	for _, m := range mapEntry.FindAllStringSubmatch(doc, -1) {
		if slices.Contains(named, m[1]) || !slices.Contains(files, m[1]) {
			stale = append(stale, m[1])
		}
		named = append(named, m[1])
	}
	for _, f := range files {
		if !slices.Contains(named, f) {
			missing = append(missing, f)
		}
	}
	return missing, stale
}

// The check itself: a file left out and a name without a file are both
// found.
func TestDocMapDiffFindsGaps(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.go", "b.go", "b_test.go"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("package x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	doc := "// Layout:\n//\n//   - a.go: one\n//   - c.go: gone\n//   - a.go: again\npackage x\n"
	missing, stale := docMapDiff(t, doc, dir)
	if !slices.Equal(missing, []string{"b.go"}) || !slices.Equal(stale, []string{"c.go", "a.go"}) {
		t.Errorf("missing %v, stale %v", missing, stale)
	}
}
