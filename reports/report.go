package reports

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// Schema is the value of Report.Schema this package writes and reads
// (docs/report.md). A change that removes or retypes a field bumps the
// number; a new optional field does not.
const Schema = "airwire-report/1"

// ErrSchema means a file is not a report of Schema.
var ErrSchema = errors.New("not an airwire report of schema " + Schema)

// Status is the verdict of one run.
type Status string

// The statuses of a run.
const (
	// StatusPass: the run matched its golden and the validator found no
	// error that is not a known finding.
	StatusPass Status = "pass"
	// StatusFail: the run failed and no baseline entry lists the failure.
	StatusFail Status = "fail"
	// StatusSkip: the run was selected but not run (--fail-fast, an
	// adapter that never initialized, an interruption).
	StatusSkip Status = "skip"
	// StatusExpectedFail: the run failed as an expected-failures entry
	// says (Run.Baseline).
	StatusExpectedFail Status = "expected-fail"
)

// The checks a failure is attributed to (Failure.Check); an
// expected-failures entry names one of them, or a validator rule.
const (
	// CheckGolden: the canonical transcript differs from the golden, or
	// the golden is missing.
	CheckGolden = "golden"
	// CheckValidate: the validator found errors in the agent's messages
	// that goldens/known-findings.json does not list (Failure.Rules).
	CheckValidate = "validate"
	// CheckRun: the run did not complete (the agent died, timed out,
	// answered an error the scenario did not expect, a lane was missing).
	CheckRun = "run"
	// CheckLoad: the scenario file did not load (Run.Profile is "").
	CheckLoad = "load"
	// CheckCassette: the run replays a cassette that does not apply to
	// the adapter: it started the CLI with other arguments, or sent it a
	// control request, than the recording has. Nothing was compared; the
	// run can be made with --live.
	CheckCassette = "cassette"
)

// Report is the outcome of one suite run (or of merged shards).
type Report struct {
	Schema string `json:"schema"`
	// Airwire is the version of the airwire that ran the suite.
	Airwire string `json:"airwire"`
	// Agent is the adapter command line.
	Agent   string    `json:"agent"`
	Started time.Time `json:"started"`
	// DurationMS is the wall time of the suite run (of the longest shard
	// after a merge).
	DurationMS int64 `json:"duration_ms"`
	// Shard is the part of the runs this report holds (nil: all of them).
	Shard *ShardSpec `json:"shard,omitempty"`
	// Baseline is the expected-failures file the run used ("" for none).
	Baseline string `json:"baseline,omitempty"`
	// CLI is the version of the Claude CLI a live run (--live) ran, as
	// its --version printed it ("" for replayed and scripted runs).
	CLI string `json:"cli,omitempty"`
	// Sections are the contract sections the coverage matrix lists, in
	// contract order ("Parent > Child" for a subsection).
	Sections []string `json:"sections"`
	Summary  Summary  `json:"summary"`
	// Causes are the differences from the goldens of the failed runs,
	// grouped by cause (Group): one change that hits many runs is one
	// cause, most runs first.
	Causes []Cause `json:"causes,omitempty"`
	// MoreCauses counts the causes past MaxCauses, not listed.
	MoreCauses int   `json:"more_causes,omitempty"`
	Runs       []Run `json:"runs"`
}

// Summary counts the runs by status.
type Summary struct {
	Total        int `json:"total"`
	Pass         int `json:"pass"`
	Fail         int `json:"fail"`
	Skip         int `json:"skip"`
	ExpectedFail int `json:"expected_fail"`
}

// Run is one scenario × profile.
type Run struct {
	Scenario   string `json:"scenario"`
	Profile    string `json:"profile"`
	Status     Status `json:"status"`
	DurationMS int64  `json:"duration_ms"`
	// Covers are the contract sections the scenario names.
	Covers []string `json:"covers"`
	// Golden is the golden file's path; Journal the run's journal, when
	// the run directory was kept (--keep) and "" otherwise.
	Golden  string `json:"golden,omitempty"`
	Journal string `json:"journal,omitempty"`
	// Failure says why the run failed (nil for pass and skip).
	Failure *Failure `json:"failure,omitempty"`
	// Findings are the validator's findings on the agent's messages,
	// errors and warnings, failing or known.
	Findings []Finding `json:"findings,omitempty"`
	// Baseline is the expected-failures entry that lists this failure.
	Baseline *Entry `json:"baseline,omitempty"`
	// Deviations counts the values declared deviations masked.
	Deviations int `json:"deviations,omitempty"`
	// LeftOut counts the golden lines declared deviations left out (lines
	// the adapter does not send).
	LeftOut int `json:"left_out,omitempty"`
	// Notes are what the run wants its reader to know besides its verdict
	// (airwire play: the prompts past the scenario's last turn).
	Notes []string `json:"notes,omitempty"`
	// Transcript is the run's canonical transcript as compared (declared
	// deviations masked), line by line: what "airwire diff" compares
	// between two releases' reports.
	Transcript []string `json:"transcript,omitempty"`
	// TranscriptFile is where a JSON report keeps Transcript: a gzip file
	// of its lines in the report's transcripts folder (TranscriptsDir),
	// the path relative to the report's own folder. WriteJSON sets it and
	// Read loads the lines back into Transcript, clearing it.
	TranscriptFile string `json:"transcript_file,omitempty"`
}

// ID is "<scenario>/<profile>", the golden's name.
func (r Run) ID() string { return r.Scenario + "/" + r.Profile }

// Failure is why a run failed.
type Failure struct {
	// Check is CheckGolden, CheckValidate, CheckRun, CheckLoad or
	// CheckCassette.
	Check string `json:"check"`
	// Message is the failure in one paragraph (for a golden mismatch: the
	// first difference, without the diff).
	Message string `json:"message"`
	// Difference is the first difference from the golden (check golden).
	Difference *Difference `json:"difference,omitempty"`
	// Differences are all the differences from the golden, up to a bound
	// (golden.MaxDiffs); MoreDifferences says the bound was hit.
	Differences     []Difference `json:"differences,omitempty"`
	MoreDifferences bool         `json:"more_differences,omitempty"`
	// Causes are the ids of the report's causes (Report.Causes) this
	// run's differences belong to.
	Causes []int `json:"causes,omitempty"`
	// Reasons are what the cassette's player refused, one per refused
	// spawn or frame (check cassette).
	Reasons []string `json:"reasons,omitempty"`
	// Rules are the validator rules of the failing findings (check
	// validate).
	Rules []string `json:"rules,omitempty"`
	// Expected and Actual are the golden's and the run's canonical
	// transcripts, line by line (check golden; Expected is empty when the
	// golden is missing).
	Expected []string `json:"expected,omitempty"`
	Actual   []string `json:"actual,omitempty"`
	// ExpectedFile and ActualFile are where a JSON report keeps Expected
	// and Actual, as Run.TranscriptFile (ActualFile is the run's
	// TranscriptFile when they are the same lines).
	ExpectedFile string `json:"expected_file,omitempty"`
	ActualFile   string `json:"actual_file,omitempty"`
}

// Difference is a line where the run and the golden differ.
type Difference struct {
	// Kind is "changed" (a value at Path), "missing" (a golden line or
	// array element the run lacks), "extra" (one the golden lacks) or
	// "moved"; "" in reports that predate it.
	Kind string `json:"kind,omitempty"`
	// Line is the 1-based line of the golden (and of the run's transcript).
	Line int `json:"line"`
	// Tag is the line's lane and direction ("client agent->editor") when
	// both sides agree on it.
	Tag string `json:"tag,omitempty"`
	// Method is the JSON-RPC method of the line's message, or for a
	// response that of the request it answers (MethodAt); "" when the line
	// is not a JSON-RPC message.
	Method string `json:"method,omitempty"`
	// Path is the JSON path of the first differing value on that line; ""
	// when the line is not JSON on both sides.
	Path string `json:"path,omitempty"`
	// Expected and Actual are the values at Path, or the whole lines.
	Expected string `json:"expected"`
	Actual   string `json:"actual"`
}

// Finding is one validator finding (schemas/validate.Finding).
type Finding struct {
	Seq      uint64 `json:"seq"`
	Method   string `json:"method,omitempty"`
	Pointer  string `json:"pointer"`
	Rule     string `json:"rule"`
	Section  string `json:"section"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	// Known is true when goldens/known-findings.json lists the finding (or
	// it is a warning): it does not fail the run.
	Known bool `json:"known,omitempty"`
}

// Add appends run and counts it in the summary.
func (r *Report) Add(run Run) {
	r.Runs = append(r.Runs, run)
	r.Summary.count(run.Status)
}

func (s *Summary) count(st Status) {
	s.Total++
	switch st {
	case StatusPass:
		s.Pass++
	case StatusFail:
		s.Fail++
	case StatusSkip:
		s.Skip++
	case StatusExpectedFail:
		s.ExpectedFail++
	}
}

// Sort orders the runs by scenario, then profile.
func (r *Report) Sort() {
	slices.SortStableFunc(r.Runs, func(a, b Run) int {
		return strings.Compare(a.Scenario+"\x00"+a.Profile, b.Scenario+"\x00"+b.Profile)
	})
}

// WriteJSON writes the report, indented, with Schema set, and its runs'
// transcripts (Run.Transcript, Failure.Expected and Actual) into the
// folder TranscriptsDir(path), made anew, one gzip file each, which the
// report links instead of holding them. r itself keeps them.
func (r *Report) WriteJSON(path string) error {
	r.Schema = Schema
	out, err := r.externalized(path)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// Read loads a JSON report and the transcripts it links (a linked file
// that is not there is ErrTranscriptMissing); a file of another schema is
// ErrSchema.
func Read(path string) (*Report, error) {
	r, err := read(path)
	if err != nil {
		return nil, err
	}
	if err := r.loadTranscripts(path); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// read loads a JSON report without the transcripts it links.
func read(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var probe struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if probe.Schema != Schema {
		return nil, fmt.Errorf("%s: schema %q: %w", path, probe.Schema, ErrSchema)
	}
	var r Report
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, run := range r.Runs {
		if err := run.check(); err != nil {
			return nil, fmt.Errorf("%s: run %s: %w", path, run.ID(), err)
		}
	}
	return &r, nil
}

// check enforces what the schema says of a run's status: a failed run
// says why, an expected failure also names its baseline entry.
func (r Run) check() error {
	switch r.Status {
	case StatusPass, StatusSkip:
		return nil
	case StatusFail, StatusExpectedFail:
		if r.Failure == nil {
			return fmt.Errorf("status %s without a failure", r.Status)
		}
		if r.Status == StatusExpectedFail && r.Baseline == nil {
			return errors.New("status expected-fail without its baseline entry")
		}
		return nil
	}
	return fmt.Errorf("unknown status %q", r.Status)
}

// Merge joins the reports of the shards of one suite run into one report:
// every run must appear in exactly one of them, and all must come from the
// same adapter command. The summary and the causes are recounted; Shard is
// cleared.
func Merge(parts ...*Report) (*Report, error) {
	if len(parts) == 0 {
		return nil, errors.New("merge: no report")
	}
	out := &Report{Schema: Schema, Airwire: parts[0].Airwire, Agent: parts[0].Agent, Started: parts[0].Started,
		Baseline: parts[0].Baseline, CLI: parts[0].CLI}
	seen := map[string]int{}
	for i, p := range parts {
		if p.CLI != "" && out.CLI != "" && p.CLI != out.CLI {
			return nil, fmt.Errorf("merge: report %d ran Claude CLI %s, report 1 ran %s", i+1, p.CLI, out.CLI)
		}
		out.CLI = cmp.Or(out.CLI, p.CLI)
		if p.Agent != out.Agent {
			return nil, fmt.Errorf("merge: report %d ran %q, report 1 ran %q", i+1, p.Agent, out.Agent)
		}
		if p.Started.Before(out.Started) {
			out.Started = p.Started
		}
		out.DurationMS = max(out.DurationMS, p.DurationMS)
		out.Sections = union(out.Sections, p.Sections)
		for _, run := range p.Runs {
			if j, dup := seen[run.ID()]; dup {
				return nil, fmt.Errorf("merge: run %s is in report %d and report %d", run.ID(), j, i+1)
			}
			seen[run.ID()] = i + 1
			out.Add(run)
		}
	}
	out.Sort()
	out.Group()
	return out, nil
}

// union appends to a the names of b it lacks, keeping a's order.
func union(a, b []string) []string {
	for _, s := range b {
		if !slices.Contains(a, s) {
			a = append(a, s)
		}
	}
	return a
}
