package airwire_test

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/airwire/airwire"

// roomRank ranks the module's top-level rooms, bottom to top: a file may
// import its own room and the rooms ranked below it. The root package
// (embed.go, the built-in data) is imported by cmd/airwire alone.
var roomRank = map[string]int{
	"internal":  0,
	"schemas":   1,
	"reports":   2,
	"conform":   3,
	"adapter":   4,
	"proxy":     4,
	"cmd":       5,
	"scenarios": 5,
}

// rootImporter is the one package that imports the root package.
const rootImporter = module + "/cmd/airwire"

// listedPackage is what the test reads of `go list -json`.
type listedPackage struct {
	ImportPath                                                   string
	Dir                                                          string
	GoFiles, CgoFiles, TestGoFiles, XTestGoFiles, IgnoredGoFiles []string
}

// goFile is one Go file of the module (tests and other platforms' files
// included) and the module packages it imports.
type goFile struct {
	pkg, path string
	imports   []string
}

// room is the top-level directory of a module package ("" for the root).
func room(pkg string) string {
	rest, ok := strings.CutPrefix(pkg, module+"/")
	if !ok {
		return ""
	}
	r, _, _ := strings.Cut(rest, "/")
	return r
}

// TestRoomsImportDownward: every import between rooms goes to a room
// ranked below the importer's, and only cmd/airwire imports the root
// package.
func TestRoomsImportDownward(t *testing.T) {
	for _, f := range moduleFiles(t) {
		from := room(f.pkg)
		for _, imp := range f.imports {
			to := room(imp)
			switch {
			case imp == module:
				if f.pkg != module && f.pkg != rootImporter {
					t.Errorf("%s (package %s) imports the root package %s; only %s does", f.path, f.pkg, imp, rootImporter)
				}
			case f.pkg == module || to == from:
			case roomRank[to] >= roomRank[from]:
				t.Errorf("%s (package %s, room %s) imports %s of room %s, which is not below it", f.path, f.pkg, from, imp, to)
			}
		}
	}
}

// TestInternalServesTwoRooms: every package directly under internal/ is
// used by at least two other rooms, directly or through other internal/
// packages; a package one room alone uses lives in that room.
func TestInternalServesTwoRooms(t *testing.T) {
	imports := map[string][]string{}
	for _, f := range moduleFiles(t) {
		imports[f.pkg] = append(imports[f.pkg], f.imports...)
	}
	users := map[string]map[string]bool{}
	for pkg, imps := range imports {
		if room(pkg) == "internal" || pkg == module {
			continue
		}
		for dep := range internalClosure(imports, imps) {
			if users[dep] == nil {
				users[dep] = map[string]bool{}
			}
			users[dep][room(pkg)] = true
		}
	}
	for pkg := range imports {
		if room(pkg) != "internal" || strings.Count(pkg, "/") != strings.Count(module, "/")+2 {
			continue
		}
		if len(users[pkg]) < 2 {
			var rooms []string
			for r := range users[pkg] {
				rooms = append(rooms, r)
			}
			t.Errorf("%s is used by %d room(s) %v; a package of one room lives in that room", pkg, len(rooms), rooms)
		}
	}
}

// internalClosure is the internal/ packages among imps and, transitively,
// among their imports.
func internalClosure(imports map[string][]string, imps []string) map[string]bool {
	seen := map[string]bool{}
	stack := append([]string(nil), imps...)
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if room(p) != "internal" || seen[p] {
			continue
		}
		seen[p] = true
		stack = append(stack, imports[p]...)
	}
	return seen
}

// moduleFiles lists every Go file of the module's packages with its
// imports of module packages; the test fails on a room it cannot rank.
func moduleFiles(t *testing.T) []goFile {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command("go", "list", "-e", "-json", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	var files []goFile
	fset := token.NewFileSet()
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if _, ok := roomRank[room(p.ImportPath)]; !ok && p.ImportPath != module {
			t.Errorf("package %s is in room %q, which roomRank does not rank", p.ImportPath, room(p.ImportPath))
		}
		names := append(append(append(append(p.GoFiles, p.CgoFiles...), p.TestGoFiles...), p.XTestGoFiles...), p.IgnoredGoFiles...)
		sort.Strings(names)
		for _, name := range names {
			path := filepath.Join(p.Dir, name)
			f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(wd, path)
			g := goFile{pkg: p.ImportPath, path: filepath.ToSlash(rel)}
			for _, spec := range f.Imports {
				imp, _ := strconv.Unquote(spec.Path.Value)
				if imp == module || strings.HasPrefix(imp, module+"/") {
					g.imports = append(g.imports, imp)
				}
			}
			files = append(files, g)
		}
	}
	return files
}
