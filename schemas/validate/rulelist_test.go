package validate_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/airwire/airwire/schemas/validate"
)

// TestRulesListEveryRule: every rule id the package's code reports (the
// second argument of add, a Finding's Rule, the Rule* constants) is in
// validate.Rules, and Rules names each id once and only ids the code
// reports.
func TestRulesListEveryRule(t *testing.T) {
	used := reportedRuleIDs(t)
	listed := map[string]bool{}
	for _, r := range validate.Rules {
		if listed[r.ID] {
			t.Errorf("Rules lists %s twice", r.ID)
		}
		listed[r.ID] = true
		if !used[r.ID] {
			t.Errorf("Rules lists %s, which no code reports", r.ID)
		}
	}
	var missing []string
	for id := range used {
		if !listed[id] {
			missing = append(missing, id)
		}
	}
	sort.Strings(missing)
	for _, id := range missing {
		t.Errorf("%s is reported but not in validate.Rules", id)
	}
}

// reportedRuleIDs reads the package's non-test sources.
func reportedRuleIDs(t *testing.T) map[string]bool {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	consts := map[string]string{}
	var exprs []ast.Expr
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.ValueSpec:
				for i, name := range x.Names {
					if i < len(x.Values) {
						if s, ok := stringLit(x.Values[i]); ok {
							consts[name.Name] = s
						}
					}
				}
			case *ast.CallExpr:
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "add" && len(x.Args) >= 2 {
					exprs = append(exprs, x.Args[1])
				}
			case *ast.KeyValueExpr:
				if k, ok := x.Key.(*ast.Ident); ok && k.Name == "Rule" {
					exprs = append(exprs, x.Value)
				}
			}
			return true
		})
	}
	used := map[string]bool{}
	for _, e := range exprs {
		if s, ok := stringLit(e); ok && !strings.HasPrefix(s, "acp:") { // a schema id
			used[s] = true
		} else if id, ok := e.(*ast.Ident); ok && consts[id.Name] != "" {
			used[consts[id.Name]] = true
		}
	}
	for name, v := range consts {
		if strings.HasPrefix(name, "Rule") {
			used[v] = true
		}
	}
	return used
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}
