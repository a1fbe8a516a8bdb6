package wirediff

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/airwire/airwire/conform"
	"github.com/airwire/airwire/internal/lazyre"
	"github.com/airwire/airwire/reports"
)

// Message is one canonical line: its tag ("client agent->editor",
// "cli:1 agent->cli", ...) and its decoded JSON.
type Message struct {
	// Line is the 1-based line in File.
	Line int
	Tag  string
	// Raw is the JSON as written in the canonical text.
	Raw   string
	Value any
}

// Run is one recording: a golden file, or a journal rendered canonical.
type Run struct {
	// Key pairs the runs of both sides: "scenario/profile" for a golden,
	// "journal" for a single journal or golden file.
	Key string
	// File is where the messages come from, as the user named it.
	File     string
	Messages []Message
}

// Set is one side of a diff, keyed by Run.Key.
type Set map[string]*Run

// Loader reads one kind of input. Load picks the first loader whose Detect
// accepts the path.
type Loader interface {
	// Detect reports whether path (a directory, or a file starting with
	// head) is this loader's kind.
	Detect(path string, isDir bool, head []byte) bool
	// Load reads the whole input.
	Load(path string) (Set, error)
}

// Loaders are tried in order by Load.
var Loaders = []Loader{goldenDir{}, reportFile{}, journalFile{}, goldenFile{}}

// Load reads a golden directory, a report JSON, a golden file or a
// journal.
func Load(path string) (Set, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var head []byte
	if !st.IsDir() {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		head = make([]byte, 64<<10) // a journal header (agent argv, env names) fits
		n, _ := f.Read(head)
		head = head[:n]
		f.Close()
	}
	for _, l := range Loaders {
		if l.Detect(path, st.IsDir(), head) {
			return l.Load(path)
		}
	}
	return nil, fmt.Errorf("%s: not a golden directory, report JSON, golden file or journal", path)
}

// goldenDir is a golden set: <dir>/<scenario>/<profile>.golden.
type goldenDir struct{}

func (goldenDir) Detect(_ string, isDir bool, _ []byte) bool { return isDir }

func (goldenDir) Load(dir string) (Set, error) {
	set := Set{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".golden") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		run, err := loadGolden(p, filepath.ToSlash(strings.TrimSuffix(rel, ".golden")))
		if err == nil {
			set[run.Key] = run
		}
		return err
	})
	if err == nil && len(set) == 0 {
		err = fmt.Errorf("%s: no *.golden file", dir)
	}
	return set, err
}

// goldenFile is one golden file: canonical lines "<tag> <json>".
type goldenFile struct{}

func (goldenFile) Detect(path string, _ bool, head []byte) bool {
	return strings.HasSuffix(path, ".golden") || bytes.HasPrefix(head, []byte("client "))
}

func (goldenFile) Load(path string) (Set, error) {
	run, err := loadGolden(path, SingleKey)
	if err != nil {
		return nil, err
	}
	return Set{SingleKey: run}, nil
}

// SingleKey is the key of the one run of a single file, so that any two
// single files (golden or journal) pair up.
const SingleKey = "file"

func loadGolden(path, key string) (*Run, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	msgs, err := ParseCanonical(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Run{Key: key, File: path, Messages: msgs}, nil
}

// ParseCanonical reads canonical text (the golden format): one
// "<tag> <json>" per line, the tag being the words before the first { or [.
// What two recordings measure or estimate differently by nature (durations,
// the CLI's token estimates) is masked as conform masks it
// (conform.MaskRecorded), so it never reads as a change.
func ParseCanonical(data []byte) ([]Message, error) {
	data = conform.MaskRecorded(data)
	var out []Message
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if strings.TrimSpace(text) == "" {
			continue
		}
		i := strings.IndexAny(text, "{[")
		if i < 0 {
			return nil, fmt.Errorf("line %d: no JSON", n)
		}
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, Message{Line: n, Tag: strings.TrimSpace(text[:i]), Raw: text[i:], Value: v})
	}
	return out, sc.Err()
}

// Keys returns the set's run keys, sorted.
func (s Set) Keys() []string {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// reportFile is a report JSON of `airwire conform --json` (or `airwire
// report merge`): each run's transcript as compared, keyed like a golden.
type reportFile struct{}

func (reportFile) Detect(_ string, isDir bool, head []byte) bool {
	return !isDir && bytes.HasPrefix(bytes.TrimSpace(head), []byte("{")) && reportSchemaRE.Match(head)
}

// reportSchemaRE finds a report's schema key, however the JSON is spaced.
// (reports.Schema written out: TestReportSchemaLiteral.)
var reportSchemaRE = lazyre.New(`"schema"\s*:\s*"airwire-report/1"`)

func (reportFile) Load(path string) (Set, error) {
	r, err := reports.Read(path)
	if err != nil {
		return nil, err
	}
	set := Set{}
	for _, run := range r.Runs {
		if len(run.Transcript) == 0 {
			continue // a run that did not complete, or was not run
		}
		msgs, err := ParseCanonical([]byte(strings.Join(run.Transcript, "\n")))
		if err != nil {
			return nil, fmt.Errorf("%s: run %s: %w", path, run.ID(), err)
		}
		set[run.ID()] = &Run{Key: run.ID(), File: path + "#" + run.ID(), Messages: msgs}
	}
	if len(set) == 0 {
		return nil, fmt.Errorf("%s: no run with a transcript (a report of airwire conform --json)", path)
	}
	return set, nil
}
