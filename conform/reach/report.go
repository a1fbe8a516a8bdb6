package reach

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf16"
)

// Target is the share of its functions each contract area should reach
// (docs/reach.md).
const Target = 85.0

// Count is executed out of total.
type Count struct {
	Executed int `json:"executed"`
	Total    int `json:"total"`
}

// Percent is Executed/Total in %, -1 when Total is 0.
func (c Count) Percent() float64 {
	if c.Total == 0 {
		return -1
	}
	return 100 * float64(c.Executed) / float64(c.Total)
}

// MarshalJSON adds the percentage to the counts ("percent", absent when
// Total is 0).
func (c Count) MarshalJSON() ([]byte, error) {
	type counts Count
	out := struct {
		counts
		Percent *float64 `json:"percent,omitempty"`
	}{counts: counts(c)}
	if c.Total > 0 {
		p := math.Round(c.Percent()*10) / 10
		out.Percent = &p
	}
	return json.Marshal(out)
}

func (c *Count) add(d Count) { c.Executed += d.Executed; c.Total += d.Total }

// Function is a function no process executed.
type Function struct {
	// Name is V8's name for it, "(anonymous)" when it has none.
	Name string `json:"name"`
	// Line and EndLine are its first and last lines (1-based).
	Line    int `json:"line"`
	EndLine int `json:"endLine"`
}

// Lines is how many lines the function spans.
func (f Function) Lines() int { return f.EndLine - f.Line + 1 }

// Module is the reach of one module of dist/.
type Module struct {
	// Name is the module's path relative to dist/ (tool-calls/renderer.js).
	Name string `json:"name"`
	// Area is the contract area it implements (AreaOf), "" for none.
	Area string `json:"area,omitempty"`
	// Loaded says whether any process loaded it; the counts are 0 if not.
	Loaded    bool  `json:"loaded"`
	Functions Count `json:"functions"`
	Blocks    Count `json:"blocks"`
	// Uncovered are the functions no process executed, by line.
	Uncovered []Function `json:"uncovered,omitempty"`
}

// AreaReach sums the modules of one contract area.
type AreaReach struct {
	Name      string   `json:"name"`
	Sections  []string `json:"sections"`
	Modules   []string `json:"modules"`
	Functions Count    `json:"functions"`
	Blocks    Count    `json:"blocks"`
	// NotLoaded are its modules no process loaded.
	NotLoaded []string `json:"notLoaded,omitempty"`
}

// Report is the reach of the suite over the reference's dist/.
type Report struct {
	// Dist is the directory the sources were read from.
	Dist string `json:"dist"`
	// Files and Processes are Coverage's.
	Files     int `json:"coverageFiles"`
	Processes int `json:"processes"`
	// Modules are sorted by function reach, lowest first, then by name;
	// the modules no process loaded come last.
	Modules []Module `json:"modules"`
	// Areas follow the order of Areas; Contract sums them.
	Areas    []AreaReach `json:"areas"`
	Contract AreaReach   `json:"contract"`
	// Total sums every loaded module.
	Total AreaReach `json:"total"`
	// Rules counts the rule table (RuleTable), set by the caller.
	Rules RuleTotals `json:"rules"`
	// Selection, set by Select, sums the modules a set of patterns names;
	// Modules then holds only those.
	Selection *AreaReach `json:"selection,omitempty"`
}

// Select keeps in r.Modules only the modules whose name (relative to
// dist/, e.g. v2/agent.js) matches one of patterns (path.Match: "v2/*",
// "session-notices.js") and sums them in r.Selection. A malformed pattern,
// or one that matches no module of dist/, is an error. The areas and the
// total stay those of the whole of dist/.
func (r *Report) Select(patterns []string) error {
	matches := func(p string, m Module) bool { ok, _ := path.Match(p, m.Name); return ok }
	for _, p := range patterns {
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("module pattern %q: %w", p, err)
		}
		if !slices.ContainsFunc(r.Modules, func(m Module) bool { return matches(p, m) }) {
			return fmt.Errorf("module pattern %q matches no module of %s", p, r.Dist)
		}
	}
	sel := &AreaReach{Name: "selected modules (" + strings.Join(patterns, ", ") + ")"}
	var kept []Module
	for _, m := range r.Modules {
		if slices.ContainsFunc(patterns, func(p string) bool { return matches(p, m) }) {
			kept = append(kept, m)
			sel.add(m)
		}
	}
	r.Modules, r.Selection = kept, sel
	return nil
}

// Build reports c per module of dist, the reference's dist/ directory;
// dist "" is the one the script URLs name. It reads each module's source
// for the lines of its functions, and lists the .js files of dist that no
// process loaded.
func Build(c *Coverage, dist string) (*Report, error) {
	if len(c.scripts) == 0 {
		return nil, fmt.Errorf("none of the %d coverage files holds a script under %s: the reference adapter did not run, or ran without NODE_V8_COVERAGE", c.Files, DistMarker)
	}
	if dist == "" {
		var err error
		if dist, err = distOf(c); err != nil {
			return nil, err
		}
	}
	r := &Report{Dist: dist, Files: c.Files, Processes: c.Processes}
	seen := map[string]bool{}
	for _, sc := range c.scripts {
		m, err := sc.module(dist)
		if err != nil {
			return nil, err
		}
		seen[m.Name] = true
		r.Modules = append(r.Modules, m)
	}
	unloaded, err := notLoaded(dist, seen)
	if err != nil {
		return nil, err
	}
	sortModules(r.Modules)
	r.Modules = append(r.Modules, unloaded...)
	r.sum()
	return r, nil
}

// distOf is the dist/ directory of the scripts' file URLs.
func distOf(c *Coverage) (string, error) {
	for url := range c.scripts {
		p, ok := strings.CutPrefix(url, "file://")
		if !ok {
			return "", fmt.Errorf("script %s is not a file URL: pass the dist directory", url)
		}
		i := strings.Index(p, DistMarker)
		return filepath.FromSlash(p[:i+len(DistMarker)-1]), nil
	}
	return "", errors.New("no script")
}

// module is sc's reach, its lines read from dist.
func (sc *script) module(dist string) (Module, error) {
	name := sc.url[strings.Index(sc.url, DistMarker)+len(DistMarker):]
	src, err := os.ReadFile(filepath.Join(dist, filepath.FromSlash(name)))
	if err != nil {
		return Module{}, fmt.Errorf("reading the source of %s: %w", sc.url, err)
	}
	lines := newLineIndex(string(src))
	sc.settle()
	m := Module{Name: name, Area: AreaOf(name), Loaded: true}
	for _, f := range sc.funcs {
		m.Functions.Total++
		if f.executed {
			m.Functions.Executed++
			continue
		}
		fn := Function{Name: f.name, Line: lines.line(f.start), EndLine: lines.line(max(f.end-1, f.start))}
		if fn.Name == "" {
			fn.Name = "(anonymous)"
		}
		m.Uncovered = append(m.Uncovered, fn)
	}
	for _, hit := range sc.blocks {
		m.Blocks.Total++
		if hit {
			m.Blocks.Executed++
		}
	}
	sort.Slice(m.Uncovered, func(i, j int) bool { return m.Uncovered[i].Line < m.Uncovered[j].Line })
	return m, nil
}

// notLoaded lists the .js files of dist no process loaded.
func notLoaded(dist string, seen map[string]bool) ([]Module, error) {
	var out []Module
	err := filepath.WalkDir(dist, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return err
		}
		rel, err := filepath.Rel(dist, p)
		if name := filepath.ToSlash(rel); err == nil && !seen[name] {
			out = append(out, Module{Name: name, Area: AreaOf(name)})
		}
		return err
	})
	return out, err
}

// sortModules sorts by function reach, lowest first; modules without
// functions come after the others.
func sortModules(ms []Module) {
	key := func(m Module) float64 {
		if m.Functions.Total == 0 {
			return 101
		}
		return m.Functions.Percent()
	}
	sort.Slice(ms, func(i, j int) bool {
		pi, pj := key(ms[i]), key(ms[j])
		if pi != pj {
			return pi < pj
		}
		return ms[i].Name < ms[j].Name
	})
}

// sum fills the areas, the contract group and the total.
func (r *Report) sum() {
	byName := map[string]*AreaReach{}
	for _, a := range Areas {
		r.Areas = append(r.Areas, AreaReach{Name: a.Name, Sections: a.Sections})
	}
	for i := range r.Areas {
		byName[r.Areas[i].Name] = &r.Areas[i]
	}
	r.Contract = AreaReach{Name: "contract modules"}
	r.Total = AreaReach{Name: "all of dist/"}
	for _, m := range r.Modules {
		r.Total.add(m)
		if a := byName[m.Area]; a != nil {
			a.add(m)
			r.Contract.add(m)
		}
	}
}

func (a *AreaReach) add(m Module) {
	a.Modules = append(a.Modules, m.Name)
	a.Functions.add(m.Functions)
	a.Blocks.add(m.Blocks)
	if !m.Loaded {
		a.NotLoaded = append(a.NotLoaded, m.Name)
	}
}

// lineIndex maps V8's offsets (UTF-16 code units) to 1-based lines.
type lineIndex []int

func newLineIndex(src string) lineIndex {
	starts := lineIndex{0}
	off := 0
	for _, r := range src {
		off += utf16.RuneLen(r)
		if r == '\n' {
			starts = append(starts, off)
		}
	}
	return starts
}

// line is the line holding the code unit at offset.
func (l lineIndex) line(offset int) int {
	return sort.Search(len(l), func(i int) bool { return l[i] > offset })
}
