package reports

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestTranscriptsBesideTheReport: the JSON report links its runs'
// transcripts, which sit gzipped in the folder beside it, instead of
// holding them; Read loads them back; a report copied without the folder
// does not read (its durations still do); writing again makes the folder
// anew.
func TestTranscriptsBesideTheReport(t *testing.T) {
	r := fixture(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	stale := filepath.Join(TranscriptsDir(path), "gone-air.txt.gz")
	if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a transcript of an earlier report is left: %v", err)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, word := range []string{`"transcript": [`, `"expected": [`, `"actual": [`, `jsonrpc`} {
		if strings.Contains(string(text), word) {
			t.Errorf("the report holds %s", word)
		}
	}
	for _, link := range []string{`"transcript_file": "r.json.transcripts/bash-foreground-air.txt.gz"`,
		`"expected_file": "r.json.transcripts/bash-foreground-air.golden.txt.gz"`, `"actual_file": "r.json.transcripts/bash-foreground-air.txt.gz"`} {
		if !strings.Contains(string(text), link) {
			t.Errorf("the report lacks %s", link)
		}
	}
	back, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, r) || len(back.Runs[0].Transcript) == 0 || len(back.Runs[0].Failure.Expected) == 0 {
		t.Errorf("read back another report")
	}
	moved := filepath.Join(t.TempDir(), "r.json")
	if err := os.Rename(path, moved); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(moved); !errors.Is(err, ErrTranscriptMissing) || !strings.Contains(err.Error(), "bash-foreground-air") {
		t.Errorf("read without its transcripts: err = %v", err)
	}
	if d, err := Durations(moved); err != nil || len(d) != 3 {
		t.Errorf("durations without the transcripts: %v, %v", d, err)
	}
}

// TestTranscriptLinkStaysInside: a link out of the report's folder is
// refused.
func TestTranscriptLinkStaysInside(t *testing.T) {
	for _, link := range []string{"../x.txt.gz", "/etc/x.txt.gz", "r.json.transcripts/../../x"} {
		if _, err := readLines(t.TempDir(), link, nil); err == nil || !strings.Contains(err.Error(), "not a path inside") {
			t.Errorf("%s: err = %v", link, err)
		}
	}
}
