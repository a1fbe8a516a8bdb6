package adapter

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxRootFiles and maxMethods keep the adapter readable: the root holds
// the session and its translator, each large contract section is a
// package of its own, and no type grows past what one reader can hold.
const maxRootFiles, maxMethods = 30, 40

// TestAdapterStaysReadable fails when the package's root has more than
// maxRootFiles non-test files, or a type anywhere in the adapter has more
// than maxMethods methods.
func TestAdapterStaysReadable(t *testing.T) {
	root, _ := filepath.Glob("*.go")
	n := 0
	for _, f := range root {
		if !strings.HasSuffix(f, "_test.go") {
			n++
		}
	}
	if n > maxRootFiles {
		t.Errorf("the adapter root has %d files, at most %d: move a section into its own package", n, maxRootFiles)
	}
	for typ, count := range methodCounts(t, ".") {
		if count > maxMethods {
			t.Errorf("%s has %d methods, at most %d: split it into parts", typ, count, maxMethods)
		}
	}
}

// methodCounts counts the methods of each type declared under dir
// (package path/Type), test files aside.
func methodCounts(t *testing.T, dir string) map[string]int {
	t.Helper()
	counts := map[string]int{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv != nil {
				counts[filepath.Dir(p)+"/"+recvName(fd.Recv.List[0].Type)]++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return counts
}
