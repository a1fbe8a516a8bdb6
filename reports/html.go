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
	// Causes are the report's causes, each with the runs it hits.
	Causes []causeView
}

// maxCauseRuns is how many runs the page links under one cause.
const maxCauseRuns = 50

// causeView is one cause as the page shows it: its line and the failed
// runs it hits (List, up to maxCauseRuns; More counts the others).
type causeView struct {
	Cause
	// Text is the cause's own change in one line; AlsoText the changes
	// that always come with it.
	Text     string
	AlsoText []string
	List     []runView
	More     int
}

// causeViews puts the runs under their causes.
func causeViews(causes []Cause, runs []runView) []causeView {
	out := make([]causeView, len(causes))
	at := map[int]int{}
	for i, c := range causes {
		out[i] = causeView{Cause: c, Text: c.Change.String()}
		for _, a := range c.Also {
			out[i].AlsoText = append(out[i].AlsoText, a.String())
		}
		at[c.ID] = i
	}
	for _, v := range runs {
		if v.Failure == nil || v.Status != StatusFail {
			continue
		}
		for _, id := range v.Failure.Causes {
			cv := &out[at[id]]
			if len(cv.List) < maxCauseRuns {
				cv.List = append(cv.List, v)
			} else {
				cv.More++
			}
		}
	}
	return out
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
	// CauseList names the run's causes; Differences are its differences,
	// one a line.
	CauseList   string
	Differences []string
	// RowsLeftOut says the page left out the view, past its size bound.
	RowsLeftOut bool
	// FirstDiff is the index in Rows of the first row that differs (-1:
	// none).
	FirstDiff int
	// View links the journal view of a failed run that kept its journal
	// (relative to the page; "" when there is none).
	View string
}

// WriteHTML writes dir/index.html: one static page, styles and script
// inline, that needs no server and loads nothing. It shows the summary, a
// filter by status, profile and contract section, the matrix of contract
// sections × profiles, every run, and for each failed run its first
// difference and a side-by-side view of the golden and the run's
// transcript (lanes coloured, differing lines highlighted), and a link to
// the journal view of each failed run that kept its journal (writeViews,
// dir/journals/). The page
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
	budget := pageRowBytes
	for i, run := range r.Runs {
		v := view(i, run)
		if n := rowBytes(v.Rows); n > budget {
			v.Rows, v.FirstDiff, v.RowsLeftOut = nil, -1, true
		} else {
			budget -= n
		}
		d.Runs = append(d.Runs, v)
	}
	writeViews(dir, d.Runs)
	d.Causes = causeViews(r.Causes, d.Runs)
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
		Summary: summaryLine(run.Failure), FirstDiff: -1, CauseList: CauseList(run.Failure)}
	if f := run.Failure; f != nil {
		for _, d := range f.Differences {
			v.Differences = append(v.Differences, fmt.Sprintf("line %d %s", d.Line, DifferenceLine(d)))
		}
	}
	if f := run.Failure; f != nil && len(f.Actual) > 0 {
		v.Rows = trimRows(align(f.Expected, f.Actual))
		for k, row := range v.Rows {
			if row.Kind != rowSame && row.Kind != rowGap {
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
