package reports

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/deps"
)

// junitDoc reads back what WriteJUnit wrote, as a JUnit reader would.
type junitDoc struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
			SystemOut string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestJUnit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := fixture(t).WriteJUnit(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc junitDoc
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tests != 4 || doc.Failures != 1 || len(doc.Suites) != 3 {
		t.Fatalf("tests %d failures %d suites %d, want 4, 1, 3 (plain, zed, air)", doc.Tests, doc.Failures, len(doc.Suites))
	}
	failures := 0
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if c.Failure == nil {
				continue
			}
			failures++
			if c.Name != "bash-foreground" || c.Classname != "airwire.conform.air" || c.Failure.Type != CheckGolden {
				t.Errorf("failure on %s %s type %s", c.Classname, c.Name, c.Failure.Type)
			}
			if !strings.Contains(c.Failure.Message, failedStopReason) || !strings.Contains(c.Failure.Message, `expected "end_turn", got "cancelled"`) {
				t.Errorf("the failure does not carry its difference: %q", c.Failure.Message)
			}
			if !strings.Contains(c.SystemOut, "covers: Tool call contract") || !strings.Contains(c.SystemOut, "finding: warning initialize") {
				t.Errorf("system-out lacks the covers and findings:\n%s", c.SystemOut)
			}
		}
	}
	if failures != 1 {
		t.Errorf("%d failures, want 1", failures)
	}
	if !strings.Contains(string(b), `<skipped message="expected failure (known.yaml:2: issue 9)`) {
		t.Errorf("the expected failure is not a skipped test case with its baseline entry:\n%s", b)
	}
	validateJUnitSchema(t, path)
}

// validateJUnitSchema checks path against testdata/junit.xsd (the Jenkins /
// Ant JUnit structure) with xmllint, and checks that the schema rejects a
// testsuite without its tests count, so that the check can fail.
func validateJUnitSchema(t *testing.T, path string) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		deps.Unavailable(t, "xmllint not installed (make deps installs Debian libxml2-utils): the JUnit schema check did not run; the structure checks above ran")
	}
	if out, err := exec.Command(xmllint, "--noout", "--schema", "testdata/junit.xsd", path).CombinedOutput(); err != nil {
		t.Fatalf("the JUnit XML does not validate: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(path)
	broken := filepath.Join(t.TempDir(), "broken.xml")
	if err := os.WriteFile(broken, []byte(strings.Replace(string(b), `<testsuite name="airwire conform plain" tests="1"`, `<testsuite name="airwire conform plain"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command(xmllint, "--noout", "--schema", "testdata/junit.xsd", broken).Run(); err == nil {
		t.Error("the schema accepts a testsuite without tests")
	}
}
