package play

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/reports"
	checks "github.com/airwire/airwire/schemas/validate"
)

// Files of a client report directory.
const (
	ReportJSON    = "report.json"
	ReportJUnit   = "junit.xml"
	ReportJournal = "journal.jsonl"
	ReportView    = "journal.html"
)

// ReportOptions say what goes into a client report.
type ReportOptions struct {
	Dir string
	// Airwire is the version of airwire that played.
	Airwire string
	// Validator checks the journal again for the report, so that each
	// finding carries its journal sequence number (nil: no findings).
	Validator *checks.Validator
	Covers    []string
}

// WriteReport writes the client report of a play into o.Dir: the journal,
// its findings, JSON, JUnit, the HTML report (reports.HTMLFile) and the
// journal view (ReportView). The run fails when the editor broke an
// obligation or sent a message the schema refuses.
func WriteReport(res *Result, o ReportOptions) (*reports.Report, error) {
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, err
	}
	jpath := filepath.Join(o.Dir, ReportJournal)
	if err := copyFile(res.Journal, jpath); err != nil {
		return nil, fmt.Errorf("keeping the journal: %w", err)
	}
	run := reports.Run{Scenario: res.Scenario, Profile: string(res.Profile), Status: reports.StatusPass,
		DurationMS: res.Duration.Milliseconds(), Covers: o.Covers, Journal: jpath,
		Notes: append([]string{fmt.Sprintf("the editor sent %d prompts; the scenario has %d", res.Prompts, res.Turns)}, res.Notes...)}
	if o.Validator != nil {
		fs, err := journalFindings(jpath, o.Validator)
		if err != nil {
			return nil, err
		}
		run.Findings, run.Failure = reportFindings(fs)
	}
	if run.Failure != nil {
		run.Status = reports.StatusFail
	}
	rep := &reports.Report{Airwire: o.Airwire, Agent: "airwire play --scenario " + res.Scenario + " --profile " + string(res.Profile),
		Started: res.Started, DurationMS: res.Duration.Milliseconds(), Sections: scenario.Outline()}
	rep.Add(run)
	note := fmt.Sprintf("airwire play of %s: the editor sent %d prompts; the scenario has %d.", run.ID(), res.Prompts, res.Turns)
	err := errors.Join(rep.WriteJSON(filepath.Join(o.Dir, ReportJSON)), rep.WriteJUnit(filepath.Join(o.Dir, ReportJUnit)),
		rep.WriteHTML(o.Dir), reports.WriteJournalView(filepath.Join(o.Dir, ReportView), run, note))
	return rep, err
}

// journalFindings validates the journal's client lane with v.
func journalFindings(path string, v *checks.Validator) ([]checks.Finding, error) {
	r, err := journal.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	rep, err := checks.Entries(r.Next, v)
	return rep.Findings, err
}

// reportFindings converts the findings; an error on the editor's side is
// the play's failure, naming the rules broken.
func reportFindings(fs []checks.Finding) ([]reports.Finding, *reports.Failure) {
	var out []reports.Finding
	var fail *reports.Failure
	for _, f := range fs {
		editorError := f.Dir == checks.DirEditor && f.Severity == checks.SeverityError
		out = append(out, reports.Finding{Seq: f.Seq, Method: f.Method, Pointer: f.Pointer, Rule: f.Rule, Section: f.Section,
			Severity: f.Severity.String(), Message: FindingLine(f), Known: !editorError})
		if !editorError {
			continue
		}
		if fail == nil {
			fail = &reports.Failure{Check: reports.CheckValidate, Message: "the editor broke its side of the contract: " + FindingLine(f)}
		}
		if !slices.Contains(fail.Rules, f.Rule) {
			fail.Rules = append(fail.Rules, f.Rule)
		}
	}
	return out, fail
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
