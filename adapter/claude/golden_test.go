package claude

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/cassette"

	"github.com/airwire/airwire/internal/testroot"
)

// repoRoot is the directory holding go.mod above the test's directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	return testroot.Root(t)
}

// goldenLine is one line of a golden: its lane tag and its JSON.
type goldenLine struct {
	Tag  string // "client editor->agent", "cli:1 spawn", …
	JSON json.RawMessage
}

// goldenFiles returns every goldens/*/*.golden path.
func goldenFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot(t), "goldens", "*", "*.golden"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no goldens found (%v)", err)
	}
	return files
}

// readGolden splits a golden into tagged lines.
func readGolden(t *testing.T, path string) []goldenLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []goldenLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		i := strings.Index(sc.Text(), " {")
		if i < 0 {
			continue
		}
		out = append(out, goldenLine{Tag: sc.Text()[:i], JSON: json.RawMessage(sc.Text()[i+1:])})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// cassettes loads every goldens/*/*.cassette.
func cassettes(t *testing.T) map[string]*cassette.Cassette {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot(t), "goldens", "*", "*.cassette"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cassettes found (%v)", err)
	}
	out := map[string]*cassette.Cassette{}
	for _, f := range files {
		c, err := cassette.Load(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[f] = c
	}
	return out
}

// sameJSON reports whether a and b hold the same JSON value.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}
