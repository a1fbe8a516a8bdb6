package lazyre

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/airwire/airwire/internal/testroot"
)

// Every lazyre.New of the repository names an expression that compiles:
// a lazy expression no longer fails at start, so this test does.
func TestEveryExpressionCompiles(t *testing.T) {
	root := testroot.Root(t)
	found := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "New" || len(call.Args) != 1 {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "lazyre" {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok {
				t.Errorf("%s: lazyre.New takes a literal here, so that this test can check it", path)
				return true
			}
			expr, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Errorf("%s: %v", path, err)
				return true
			}
			found++
			if _, err := regexp.Compile(expr); err != nil {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s: %v", rel, err)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 60 {
		t.Errorf("found %d lazyre.New expressions; the repository has about 70", found)
	}
}

func TestCompilesOnceOnFirstUse(t *testing.T) {
	r := New(`^a(\d+)$`)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if m := r.FindStringSubmatch("a42"); len(m) != 2 || m[1] != "42" {
				t.Errorf("FindStringSubmatch = %q", m)
			}
		}()
	}
	wg.Wait()
	if r.Compiled() != r.Compiled() {
		t.Error("compiled twice")
	}
	if r.String() != `^a(\d+)$` {
		t.Errorf("String = %q", r.String())
	}
}

func TestABadExpressionPanicsOnFirstUse(t *testing.T) {
	r := New(`(`) // no panic here
	defer func() {
		if recover() == nil {
			t.Error("no panic on the first use of a bad expression")
		}
	}()
	r.MatchString("x")
}
