package reports

import (
	"encoding/xml"
	"fmt"
	"os"
	"strings"
)

// The JUnit XML the Ant junit task writes and Jenkins, GitLab and GitHub
// test reporters read: <testsuites> with one <testsuite> per profile, one
// <testcase> per run (classname airwire.conform.<profile>, name the
// scenario). A failure is a <failure> whose type is its check and whose
// message is its first difference; an expected failure and a run not run
// are <skipped> (JUnit has no expected-failure state).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string          `xml:"name,attr"`
	Tests     int             `xml:"tests,attr"`
	Failures  int             `xml:"failures,attr"`
	Errors    int             `xml:"errors,attr"`
	Skipped   int             `xml:"skipped,attr"`
	Time      string          `xml:"time,attr"`
	Timestamp string          `xml:"timestamp,attr,omitempty"`
	Props     *junitPropList  `xml:"properties,omitempty"`
	Cases     []junitTestCase `xml:"testcase"`
}

type junitPropList struct {
	Props []junitProp `xml:"property"`
}

type junitProp struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitTestCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut *junitText    `xml:"system-out,omitempty"`
}

type junitText struct {
	Text string `xml:",cdata"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",cdata"`
}

// WriteJUnit writes the report as JUnit XML.
func (r *Report) WriteJUnit(path string) error {
	out := junitSuites{Name: "airwire conform", Time: seconds(r.DurationMS)}
	for _, p := range profilesOf(r.Runs) {
		s := junitSuite{Name: suiteName(p), Timestamp: r.Started.UTC().Format("2006-01-02T15:04:05"),
			Props: &junitPropList{Props: []junitProp{{"agent", r.Agent}, {"airwire", r.Airwire}}}}
		var ms int64
		for _, run := range r.Runs {
			if run.Profile != p {
				continue
			}
			s.Cases = append(s.Cases, junitCase(run, r.Causes))
			s.Tests++
			ms += run.DurationMS
			switch run.Status {
			case StatusFail:
				s.Failures++
			case StatusSkip, StatusExpectedFail:
				s.Skipped++
			}
		}
		s.Time = seconds(ms)
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Suites = append(out.Suites, s)
	}
	b, err := xml.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append([]byte(xml.Header), append(b, '\n')...), 0o644)
}

func junitCase(run Run, causes []Cause) junitTestCase {
	c := junitTestCase{Name: run.Scenario, Classname: "airwire.conform." + run.Profile, Time: seconds(run.DurationMS),
		SystemOut: &junitText{runInfo(run)}}
	switch run.Status {
	case StatusFail:
		c.Failure = &junitMessage{Message: causeLine(run.Failure, causes), Type: run.Failure.Check, Text: failureText(run.Failure)}
	case StatusExpectedFail:
		c.Skipped = &junitMessage{Message: fmt.Sprintf("expected failure (%s:%d: %s): %s",
			run.Baseline.File, run.Baseline.Line, run.Baseline.Reason, summaryLine(run.Failure))}
	case StatusSkip:
		c.Skipped = &junitMessage{Message: "not run"}
	}
	return c
}

// runInfo is what a JUnit viewer shows beside a run: the contract
// sections, the files and the validator findings.
func runInfo(run Run) string {
	var b strings.Builder
	fmt.Fprintf(&b, "covers: %s\n", strings.Join(run.Covers, "; "))
	if run.Golden != "" {
		fmt.Fprintf(&b, "golden: %s\n", run.Golden)
	}
	if run.Journal != "" {
		fmt.Fprintf(&b, "journal: %s\n", run.Journal)
	}
	for _, n := range run.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	for _, f := range run.Findings {
		fmt.Fprintf(&b, "finding: %s %s %s: %s [%s; %s]\n", f.Severity, f.Method, f.Pointer, f.Message, f.Rule, f.Section)
	}
	return b.String()
}

// summaryLine is a failure in one line: its first difference, else the
// first line of its message.
func summaryLine(f *Failure) string {
	if f == nil {
		return ""
	}
	if d := f.Difference; d != nil {
		if d.Path != "" {
			return fmt.Sprintf("line %d at %s: expected %s, got %s", d.Line, d.Path, d.Expected, d.Actual)
		}
		return fmt.Sprintf("line %d: expected %s, got %s", d.Line, d.Expected, d.Actual)
	}
	first, _, _ := strings.Cut(f.Message, "\n")
	return first
}

// causeLine is a failure in one short line: the causes it belongs to, the
// first one said, when the report grouped them; else summaryLine.
func causeLine(f *Failure, causes []Cause) string {
	if f == nil || len(f.Causes) == 0 {
		return summaryLine(f)
	}
	first := f.Causes[0]
	line := CauseList(f)
	for _, c := range causes {
		if c.ID == first {
			line += fmt.Sprintf(": %s (%s)", c, plural(c.Runs, "run"))
			break
		}
	}
	if n := len(f.Causes) - 1; n > 0 {
		line += fmt.Sprintf("; and %s", plural(n, "more cause"))
	}
	return line
}

// failureText is a failure's message and all its differences.
func failureText(f *Failure) string {
	if len(f.Differences) < 2 {
		return f.Message
	}
	var b strings.Builder
	b.WriteString(f.Message)
	if f.MoreDifferences {
		fmt.Fprintf(&b, "\n\ndifferences (the first %d; more were found, not listed):\n", len(f.Differences))
	} else {
		fmt.Fprintf(&b, "\n\ndifferences (%d):\n", len(f.Differences))
	}
	for _, d := range f.Differences {
		fmt.Fprintf(&b, "  line %d %s\n", d.Line, DifferenceLine(d))
	}
	return b.String()
}

// plural is "1 run", "2 runs".
func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}

// suiteName names the testsuite of a profile; the scenario files that did
// not load (no profile) have their own.
func suiteName(profile string) string {
	if profile == "" {
		return "airwire conform scenario files"
	}
	return "airwire conform " + profile
}

func seconds(ms int64) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }

// profilesOf returns the profiles of runs: plain, zed, air first, then
// any other in the order seen.
func profilesOf(runs []Run) []string {
	out := []string{}
	for _, p := range []string{"plain", "zed", "air"} {
		for _, r := range runs {
			if r.Profile == p {
				out = append(out, p)
				break
			}
		}
	}
	for _, r := range runs {
		out = union(out, []string{r.Profile})
	}
	return out
}
