package reports

import (
	"bufio"
	_ "embed"
	"fmt"
	"html/template"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// HTMLFile is the page WriteHTML writes into its directory.
const HTMLFile = "index.html"

//go:embed index.html.tmpl
var pageText string

// The parsed template, parsed on first use: every airwire verb links this
// package, and only a report needs it. (A sync.Once and a variable, not a
// package-level sync.OnceValue call: that is init code run at every start.)
var (
	pageOnce   sync.Once
	pageParsed *template.Template
)

// page is the parsed template.
func page() *template.Template {
	pageOnce.Do(func() {
		pageParsed = template.Must(template.New("page").Funcs(template.FuncMap{
			"fileURL": fileURL,
			"seconds": seconds,
		}).Parse(pageText))
	})
	return pageParsed
}

// pageData is what the template renders.
type pageData struct {
	R        *Report
	Profiles []string
	// Matrix holds the sections some run of the report covers; Uncovered
	// names the others (a one-run report covers a few of them).
	Matrix    []matrixRow
	Uncovered []string
	Sections  []string
	Runs      []runView
}

// runView is one run as the page shows it.
type runView struct {
	Run
	// Anchor is the id of the run's detail block.
	Anchor string
	// SectionsAttr lists the covers for the section filter, "|"-joined.
	SectionsAttr string
	Summary      string
	// Rows is the side-by-side view of a failed golden comparison.
	Rows []alignedRow
	// FirstDiff is the index in Rows of the first row that differs (-1:
	// none).
	FirstDiff int
}

// WriteHTML writes dir/index.html: one static page, styles and script
// inline, that needs no server and loads nothing. It shows the summary, a
// filter by status, profile and contract section, the matrix of contract
// sections × profiles, every run, and for each failed run its first
// difference and a side-by-side view of the golden and the run's
// transcript (lanes coloured, differing lines highlighted). The page
// scrolls the first failed run's first difference into view on load.
func (r *Report) WriteHTML(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	profiles, matrix := r.coverage()
	d := pageData{R: r, Profiles: profiles}
	for _, m := range matrix {
		if m.covered() {
			d.Matrix = append(d.Matrix, m)
			d.Sections = append(d.Sections, m.Section)
		} else {
			d.Uncovered = append(d.Uncovered, m.Section)
		}
	}
	for i, run := range r.Runs {
		d.Runs = append(d.Runs, view(i, run))
	}
	f, err := os.Create(filepath.Join(dir, HTMLFile))
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := page().Execute(w, d); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func view(i int, run Run) runView {
	v := runView{Run: run, Anchor: fmt.Sprintf("run-%d", i), SectionsAttr: "|" + strings.Join(run.Covers, "|") + "|",
		Summary: summaryLine(run.Failure), FirstDiff: -1}
	if f := run.Failure; f != nil && len(f.Actual) > 0 {
		v.Rows = align(f.Expected, f.Actual)
		for k, row := range v.Rows {
			if row.Kind != rowSame {
				v.FirstDiff = k
				break
			}
		}
	}
	return v
}

// fileURL links a file the report names (a golden, a journal).
func fileURL(path string) template.URL {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	return template.URL((&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String())
}
