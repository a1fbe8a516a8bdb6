package jsonrpc_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/internal/jsonrpc"
)

// TestArgvSpeaksStreamJSON takes the CLI spawns of real goldens: the
// session CLIs (cli:N spawn) speak stream-json, the one-shot commands
// (cli:run spawn, e.g. auth status) do not.
func TestArgvSpeaksStreamJSON(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "goldens", "*", "plain.golden"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no goldens: %v", err)
	}
	var session, oneShot int
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			tag, body, ok := strings.Cut(sc.Text(), " spawn ")
			if !ok || !strings.HasPrefix(tag, "cli:") {
				continue
			}
			var v struct{ Argv []string }
			if err := json.Unmarshal([]byte(body), &v); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			want := tag != "cli:run"
			if got := jsonrpc.ArgvSpeaksStreamJSON(v.Argv); got != want {
				t.Errorf("%s: %s argv %q: got %v", file, tag, v.Argv, got)
			}
			if want {
				session++
			} else {
				oneShot++
			}
		}
		f.Close()
	}
	if session == 0 || oneShot == 0 {
		t.Fatalf("%d session spawns, %d one-shot spawns", session, oneShot)
	}
	if !jsonrpc.ArgvSpeaksStreamJSON([]string{"claude", "--output-format=stream-json"}) {
		t.Error("--output-format=stream-json")
	}
}
