// Package reach measures how much of the reference adapter's code the
// conformance suite executes, so that the branches no scenario reaches are
// found by a tool (`make reach`, docs/reach.md).
//
// `airwire conform --reference` run with NODE_V8_COVERAGE=DIR makes every
// Node process of every run write its V8 coverage into DIR as
// coverage-*.json: {"result":[{"url","functions":[{"functionName",
// "isBlockCoverage","ranges":[{"startOffset","endOffset","count"}]}]}]}.
// Read merges the scripts of those files that lie under the reference's
// dist/ (DistMarker); Build turns the merge into a Report per module of
// dist/, with the functions no process executed, their lines read from the
// sources, and the contract areas (Areas) summed.
//
// Use:
//
//	cov, err := reach.Read(dir)          // the NODE_V8_COVERAGE directory
//	rep, err := reach.Build(cov, "")     // "" = the dist/ the URLs name
//	rep.WriteText(os.Stdout)
//	json.Marshal(rep)
//
// What the figures mean (V8's precise coverage, as Node takes it):
//   - a function is executed when the count of its first range (its body)
//     is above 0 in some process; functions are merged by URL and start
//     offset. The module's top-level code is not counted as a function.
//   - a block is a range after a function's first one (a branch, a loop
//     body, the right side of && and ||, a catch). V8 drops a nested range
//     whose count equals its parent's, so a block shows only in the
//     processes where it ran a different number of times than its
//     function; it is executed when, in some process, the innermost range
//     that contains it has a count above 0.
//   - the functions of a function that never ran anywhere are not
//     reported by V8 at all: such an outer function counts as one
//     unexecuted function, its inner ones are not in the totals. The
//     totals are therefore lower bounds, and the percentages upper bounds.
//   - a module no process loaded is listed as not loaded, without totals.
package reach

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// DistMarker is the part of a script URL that marks the reference
// adapter's compiled modules; the module name is what follows it.
const DistMarker = "/claude-agent-acp/dist/"

// v8File is one coverage-*.json file as Node writes it.
type v8File struct {
	Result []v8Script `json:"result"`
}

type v8Script struct {
	URL       string       `json:"url"`
	Functions []v8Function `json:"functions"`
}

type v8Function struct {
	FunctionName string    `json:"functionName"`
	Ranges       []v8Range `json:"ranges"`
}

type v8Range struct {
	StartOffset int `json:"startOffset"`
	EndOffset   int `json:"endOffset"`
	Count       int `json:"count"`
}

// span is a range of a script in UTF-16 code units, as V8 counts offsets.
type span struct{ start, end int }

// counted is one range of one process with its count.
type counted struct {
	span
	count int
}

// function is a function of a script merged over the processes.
type function struct {
	name string
	span
	executed bool
}

// script is one module merged over the processes that loaded it.
type script struct {
	url   string
	funcs map[int]*function
	// blocks is the union of the block ranges any process reported.
	blocks map[span]bool
	// runs holds each loading process's ranges, sorted by start, then by
	// end descending (parents before the ranges they contain).
	runs [][]counted
}

// Coverage is the merged V8 coverage of the dist/ modules. Read builds it.
type Coverage struct {
	// Files is how many coverage files were read; Processes how many of
	// them held at least one dist/ script (the adapter processes).
	Files, Processes int
	scripts          map[string]*script
}

// Read merges every coverage-*.json file of dir (a NODE_V8_COVERAGE
// directory). It fails when dir holds no coverage file.
func Read(dir string) (*Coverage, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "coverage-*.json"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no coverage-*.json in %s: did Node run with NODE_V8_COVERAGE=%s and exit normally?", dir, dir)
	}
	sort.Strings(paths)
	c := &Coverage{scripts: map[string]*script{}}
	for _, p := range paths {
		if err := c.addFile(p); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *Coverage) addFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var f v8File
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	c.Files++
	loaded := false
	for _, s := range f.Result {
		if strings.Contains(s.URL, DistMarker) {
			c.add(s)
			loaded = true
		}
	}
	if loaded {
		c.Processes++
	}
	return nil
}

// add merges one process's coverage of one script.
func (c *Coverage) add(s v8Script) {
	sc := c.scripts[s.URL]
	if sc == nil {
		sc = &script{url: s.URL, funcs: map[int]*function{}, blocks: map[span]bool{}}
		c.scripts[s.URL] = sc
	}
	var run []counted
	for i, f := range s.Functions {
		if len(f.Ranges) == 0 {
			continue
		}
		body := f.Ranges[0]
		for _, r := range f.Ranges {
			run = append(run, counted{span{r.StartOffset, r.EndOffset}, r.Count})
		}
		for _, r := range f.Ranges[1:] {
			sc.blocks[span{r.StartOffset, r.EndOffset}] = false
		}
		if i == 0 && body.StartOffset == 0 {
			continue // the module's top-level code
		}
		fn := sc.funcs[body.StartOffset]
		if fn == nil {
			fn = &function{name: f.FunctionName, span: span{body.StartOffset, body.EndOffset}}
			sc.funcs[body.StartOffset] = fn
		}
		fn.executed = fn.executed || body.Count > 0
	}
	sort.Slice(run, func(i, j int) bool {
		if run[i].start != run[j].start {
			return run[i].start < run[j].start
		}
		return run[i].end > run[j].end
	})
	sc.runs = append(sc.runs, run)
}

// countAt is the count of the innermost range of run that contains b (0
// when none does).
func countAt(run []counted, b span) int {
	i := sort.Search(len(run), func(i int) bool { return run[i].start > b.start })
	for i--; i >= 0; i-- {
		if run[i].start <= b.start && b.end <= run[i].end {
			return run[i].count
		}
	}
	return 0
}

// settle decides, for every block of sc, whether some process executed it.
func (sc *script) settle() {
	for b := range sc.blocks {
		for _, run := range sc.runs {
			if countAt(run, b) > 0 {
				sc.blocks[b] = true
				break
			}
		}
	}
}
