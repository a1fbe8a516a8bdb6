package reports

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// TranscriptsSuffix names the folder beside a JSON report that holds its
// runs' transcripts: report.json keeps them in report.json.transcripts/,
// one gzip file per transcript, which the report's runs link to
// (Run.TranscriptFile, Failure.ExpectedFile, Failure.ActualFile) so that
// the report itself stays small.
const TranscriptsSuffix = ".transcripts"

// ErrTranscriptMissing means a report links a transcript file that is not
// there: the report was copied without its transcripts folder.
var ErrTranscriptMissing = errors.New("a transcript the report links is missing (copy the report's " + TranscriptsSuffix + " folder with it)")

// TranscriptsDir is the folder of the transcripts of the JSON report at
// reportPath.
func TranscriptsDir(reportPath string) string { return reportPath + TranscriptsSuffix }

// externalized is a copy of r whose runs keep their transcripts in files
// of TranscriptsDir(reportPath), written now (the folder is made anew),
// and link them by a path relative to the report's folder.
func (r *Report) externalized(reportPath string) (*Report, error) {
	dir := TranscriptsDir(reportPath)
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	out := *r
	out.Runs = slices.Clone(r.Runs)
	w := transcriptWriter{dir: dir, rel: filepath.Base(dir)}
	for i := range out.Runs {
		run := &out.Runs[i]
		base := fileName(*run)
		var err error
		if run.TranscriptFile, err = w.write(base+".txt.gz", run.Transcript); err != nil {
			return nil, err
		}
		if f := run.Failure; f != nil && (len(f.Expected) > 0 || len(f.Actual) > 0) {
			fc := *f
			if fc.ExpectedFile, err = w.write(base+".golden.txt.gz", f.Expected); err != nil {
				return nil, err
			}
			if fc.ActualFile = run.TranscriptFile; !slices.Equal(f.Actual, run.Transcript) {
				if fc.ActualFile, err = w.write(base+".actual.txt.gz", f.Actual); err != nil {
					return nil, err
				}
			}
			fc.Expected, fc.Actual = nil, nil
			run.Failure = &fc
		}
		run.Transcript = nil
	}
	return &out, nil
}

// transcriptWriter writes the gzip files of one report's transcripts.
type transcriptWriter struct {
	dir, rel string
	made     bool
}

// write stores lines in the file name and returns its path relative to the
// report's folder ("" for no lines, for which it writes nothing).
func (w *transcriptWriter) write(name string, lines []string) (string, error) {
	if len(lines) == 0 {
		return "", nil
	}
	if !w.made {
		if err := os.MkdirAll(w.dir, 0o755); err != nil {
			return "", err
		}
		w.made = true
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	for _, l := range lines {
		io.WriteString(zw, l+"\n") // a bytes.Buffer does not fail
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(w.dir, name), buf.Bytes(), 0o644); err != nil {
		return "", err
	}
	return path.Join(w.rel, name), nil
}

// fileName is a run's transcript file name without its suffix: its
// scenario and profile, every character other than a letter, digit, dot
// or dash replaced by "_".
func fileName(r Run) string {
	return strings.Map(func(c rune) rune {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' {
			return c
		}
		return '_'
	}, r.Scenario+"-"+r.Profile)
}

// loadTranscripts reads back the transcripts the runs of a report read
// from reportPath link, and clears the links.
func (r *Report) loadTranscripts(reportPath string) error {
	dir := filepath.Dir(reportPath)
	for i := range r.Runs {
		run := &r.Runs[i]
		var err error
		if run.Transcript, err = readLines(dir, run.TranscriptFile, run.Transcript); err != nil {
			return fmt.Errorf("run %s: %w", run.ID(), err)
		}
		run.TranscriptFile = ""
		if f := run.Failure; f != nil {
			if f.Expected, err = readLines(dir, f.ExpectedFile, f.Expected); err != nil {
				return fmt.Errorf("run %s: %w", run.ID(), err)
			}
			if f.Actual, err = readLines(dir, f.ActualFile, f.Actual); err != nil {
				return fmt.Errorf("run %s: %w", run.ID(), err)
			}
			f.ExpectedFile, f.ActualFile = "", ""
		}
	}
	return nil
}

// readLines reads the gzip transcript at rel (relative to dir); with no
// link it returns inline, the lines the report holds itself.
func readLines(dir, rel string, inline []string) ([]string, error) {
	if rel == "" {
		return inline, nil
	}
	if path.IsAbs(rel) || slices.Contains(strings.Split(rel, "/"), "..") {
		return nil, fmt.Errorf("transcript %q: not a path inside the report's folder", rel)
	}
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(rel)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", rel, ErrTranscriptMissing)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	b = bytes.TrimSuffix(b, []byte("\n"))
	if len(b) == 0 {
		return nil, nil
	}
	return strings.Split(string(b), "\n"), nil
}
