// Package goldentest reads the checkout's goldens and cassettes for the
// tests of other packages: the tagged lines of a golden, the goldens of a
// profile, the cassette beside a golden, and JSON in canonical form. Every
// helper fails the test on an error.
package goldentest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/cassette"
	"github.com/airwire/airwire/conform/scenario"
	"github.com/airwire/airwire/internal/testroot"
)

// AgentTag is the tag of the agent's messages to the editor.
const AgentTag = "client agent->editor"

// Line is one `<tag> <json>` line of a golden: its lane tag ("client
// editor->agent", "cli:1 spawn", …) and its JSON.
type Line struct {
	Tag string
	Msg json.RawMessage
}

// Path is goldens/<scenario>/<profile>.golden of the checkout.
func Path(t testing.TB, scenario, profile string) string {
	t.Helper()
	return filepath.Join(testroot.Root(t), "goldens", scenario, profile+".golden")
}

// Read returns the tagged JSON lines of the golden at path, in order; lines
// without JSON are left out.
func Read(t testing.TB, path string) []Line {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []Line
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := sc.Text()
		i := strings.Index(line, " {")
		if i < 0 {
			continue
		}
		out = append(out, Line{Tag: line[:i], Msg: json.RawMessage(line[i+1:])})
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}

// AgentMessages returns the JSON of each agent->editor line of the golden
// at path.
func AgentMessages(t testing.TB, path string) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	for _, l := range Read(t, path) {
		if l.Tag == AgentTag {
			out = append(out, l.Msg)
		}
	}
	return out
}

// Tagged returns the JSON of each line of goldens/<scenario>/<profile>.golden
// whose tag is tag ("client agent->editor", "cli:1 stdin", …), as text.
func Tagged(t testing.TB, scenario, profile, tag string) []string {
	t.Helper()
	var out []string
	for _, l := range Read(t, Path(t, scenario, profile)) {
		if l.Tag == tag {
			out = append(out, string(l.Msg))
		}
	}
	return out
}

// Files returns every goldens/*/*.golden path of the checkout whose
// profile speaks ACP v1 (V2Files: the ACP v2 draft's).
func Files(t testing.TB) []string {
	t.Helper()
	return filesOf(t, 1)
}

// V2Files returns the goldens/*/*.golden paths of the checkout whose
// profile speaks the ACP v2 draft (protocolVersion 2).
func V2Files(t testing.TB) []string {
	t.Helper()
	return filesOf(t, 2)
}

func filesOf(t testing.TB, version int) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(testroot.Root(t), "goldens", "*", "*.golden"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no goldens found (%v)", err)
	}
	var out []string
	for _, f := range files {
		p := scenario.Profile(strings.TrimSuffix(filepath.Base(f), ".golden"))
		if scenario.ProtocolVersion(p) == version {
			out = append(out, f)
		}
	}
	return out
}

// Profile maps scenario names to the profile's golden files; withCassette
// keeps only those that sit next to a cassette (recorded runs).
func Profile(t testing.TB, profile string, withCassette bool) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(testroot.Root(t), "goldens", "*", profile+".golden"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range paths {
		if withCassette {
			if _, err := os.Stat(CassettePath(p)); err != nil {
				continue
			}
		}
		out[filepath.Base(filepath.Dir(p))] = p
	}
	return out
}

// CassettePath is the cassette beside the golden at goldenPath.
func CassettePath(goldenPath string) string {
	return strings.TrimSuffix(goldenPath, ".golden") + ".cassette"
}

// LoadCassette loads the cassette beside the golden at goldenPath.
func LoadCassette(t testing.TB, goldenPath string) *cassette.Cassette {
	t.Helper()
	c, err := cassette.Load(CassettePath(goldenPath))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Cassettes loads every goldens/*/*.cassette of the checkout, by path.
func Cassettes(t testing.TB) map[string]*cassette.Cassette {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(testroot.Root(t), "goldens", "*", "*.cassette"))
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

// Canon renders v (raw JSON or a Go value) with sorted keys, numbers as
// written and no HTML escaping, so that equal JSON values render equal.
func Canon(t testing.TB, v any) string {
	t.Helper()
	raw, ok := v.(json.RawMessage)
	if b, isBytes := v.([]byte); isBytes {
		raw, ok = b, true
	}
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
