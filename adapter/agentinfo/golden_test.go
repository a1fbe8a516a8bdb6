package agentinfo

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/cassette"

	"github.com/airwire/airwire/internal/testroot"
)

// repoRoot walks up from the package directory to go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	return testroot.Root(t)
}

// goldenLine is one `<tag> <json>` line of a golden.
type goldenLine struct {
	Tag string
	Msg json.RawMessage
}

func readGolden(t *testing.T, path string) []goldenLine {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []goldenLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		i := strings.Index(sc.Text(), " {")
		if i < 0 {
			continue
		}
		out = append(out, goldenLine{Tag: sc.Text()[:i], Msg: json.RawMessage(sc.Text()[i+1:])})
	}
	return out
}

// canon renders v (raw JSON or a Go value) with sorted keys.
func canon(t *testing.T, v any) string {
	t.Helper()
	raw, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		t.Fatalf("bad JSON %s: %v", raw, err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(b.String())
}

// runs lists the golden files of profile that sit next to a cassette (or
// all goldens when withCassette is false), by scenario name.
func goldens(t *testing.T, profile string, withCassette bool) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(repoRoot(t), "goldens", "*", profile+".golden"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range paths {
		if withCassette {
			if _, err := os.Stat(strings.TrimSuffix(p, ".golden") + ".cassette"); err != nil {
				continue
			}
		}
		out[filepath.Base(filepath.Dir(p))] = p
	}
	return out
}

func loadCassette(t *testing.T, goldenPath string) *cassette.Cassette {
	t.Helper()
	c, err := cassette.Load(strings.TrimSuffix(goldenPath, ".golden") + ".cassette")
	if err != nil {
		t.Fatal(err)
	}
	return c
}
