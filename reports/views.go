package reports

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/reports/journalview"
)

// ViewsDir is the folder, beside the HTML page, that holds the journal
// view (airwire journal view) of each failed run whose journal was kept.
const ViewsDir = "journals"

// writeViews writes dir/journals/<scenario>-<profile>.html for each failed
// run of the page that kept its journal, and sets the run's link to it. A
// journal that cannot be read gets no view and no link: the report
// itself never fails on it.
func writeViews(dir string, runs []runView) {
	for i := range runs {
		v := &runs[i]
		if v.Journal == "" || v.Failure == nil {
			continue
		}
		name := viewName(v.Run)
		if err := os.MkdirAll(filepath.Join(dir, ViewsDir), 0o755); err != nil {
			return
		}
		if WriteJournalView(filepath.Join(dir, ViewsDir, name), v.Run, "The findings shown are those airwire conform reported for this run.") == nil {
			v.View = ViewsDir + "/" + name
		}
	}
}

// viewName is a run's view file: its id with every character other than
// a letter, digit, dot or dash replaced by "_".
func viewName(r Run) string {
	return strings.Map(func(c rune) rune {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' {
			return c
		}
		return '_'
	}, r.Scenario+"-"+r.Profile) + ".html"
}

// WriteJournalView draws the run's journal (airwire journal view) into
// path with the run's findings on their messages' cards; note heads the
// page.
func WriteJournalView(path string, run Run, note string) error {
	r, err := journal.Open(run.Journal)
	if err != nil {
		return err
	}
	defer r.Close()
	b := journalview.NewBuilder(r.Header(), journalview.Options{Title: run.ID(), Note: note})
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		b.Add(e)
	}
	b.SetFindings(viewFindings(run.Findings))
	return b.WriteFile(path)
}

func viewFindings(fs []Finding) []journalview.Finding {
	out := make([]journalview.Finding, 0, len(fs))
	for _, f := range fs {
		msg := f.Message
		if f.Known {
			msg += " (known: it does not fail the run)"
		}
		out = append(out, journalview.Finding{Seq: f.Seq, Severity: f.Severity, Rule: f.Rule, Section: f.Section,
			Pointer: f.Pointer, Message: msg})
	}
	return out
}
