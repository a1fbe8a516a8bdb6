//go:build contract

package scenario

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestSectionsMatchContract compares Sections and Subsections with the
// level-2 and level-3 headings of the contract document that
// $AIRWIRE_CONTRACT names. The document is not part of the repository, so
// the test is built only with -tags contract (make contract).
func TestSectionsMatchContract(t *testing.T) {
	path := os.Getenv("AIRWIRE_CONTRACT")
	if path == "" {
		t.Fatal("AIRWIRE_CONTRACT names no contract document (make contract CONTRACT=path/to/air-extensions.md)")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("the contract document: %v", err)
	}
	defer f.Close()
	var got []string
	subs := map[string][]string{}
	in := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "# AIR extensions") {
			in = true
			continue
		}
		if in && strings.HasPrefix(line, "## ") && line != "## Contents" {
			got = append(got, strings.TrimSpace(strings.TrimPrefix(line, "## ")))
		}
		if in && strings.HasPrefix(line, "### ") && len(got) > 0 {
			sec := got[len(got)-1]
			subs[sec] = append(subs[sec], strings.TrimSpace(strings.TrimPrefix(line, "### ")))
		}
	}
	if strings.Join(got, "|") != strings.Join(Sections, "|") {
		t.Errorf("contract sections:\n got %q\nwant %q", got, Sections)
	}
	if len(subs) != len(subsections) {
		t.Errorf("%d sections have subsections in the contract, %d in subsections", len(subs), len(subsections))
	}
	for sec, want := range subs {
		if strings.Join(SubsectionsOf(sec), "|") != strings.Join(want, "|") {
			t.Errorf("subsections of %q:\n got %q\nwant %q", sec, SubsectionsOf(sec), want)
		}
	}
}
