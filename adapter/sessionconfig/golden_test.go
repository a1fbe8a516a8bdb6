package sessionconfig

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

// goldenMsgs returns the JSON of each agent->editor line of a golden.
func goldenMsgs(t *testing.T, path string) []json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []json.RawMessage
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	const tag = "client agent->editor "
	for sc.Scan() {
		if s, ok := strings.CutPrefix(sc.Text(), tag); ok {
			out = append(out, json.RawMessage(s))
		}
	}
	return out
}

// canon renders raw JSON with sorted keys and numbers as written.
func canon(t *testing.T, raw json.RawMessage) string {
	t.Helper()
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

// cassetteGoldens maps scenario names to the profile's golden files that
// sit next to a cassette.
func cassetteGoldens(t *testing.T, profile string) map[string]string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(repoRoot(t), "goldens", "*", profile+".golden"))
	out := map[string]string{}
	for _, p := range paths {
		if _, err := os.Stat(strings.TrimSuffix(p, ".golden") + ".cassette"); err == nil {
			out[filepath.Base(filepath.Dir(p))] = p
		}
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
