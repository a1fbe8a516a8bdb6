package history

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/conform/goldentest"
	"github.com/airwire/airwire/internal/testroot"

	"github.com/airwire/airwire/adapter/toolcall"
)

// reference, when set, is the reference adapter's dist directory: the test
// then renders testdata/replay-tools with the reference's own replay
// (testdata/replay-tools/reference.mjs, run by node) and rewrites the
// expected files before comparing.
var reference = flag.String("reference", "", "reference adapter dist dir: refresh testdata/replay-tools/*.golden")

// TestReplayMatchesReference replays a transcript that uses every Claude
// tool once (and the plan tools in sequence) and compares the updates with
// what the reference's replay renders for the same messages, for the
// client capabilities of the plain and zed goldens.
func TestReplayMatchesReference(t *testing.T) {
	dir := filepath.Join("testdata", "replay-tools")
	msgs, err := ReadMessages(filepath.Join(dir, "transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 54 {
		t.Fatalf("%d messages, want all 54 rows", len(msgs))
	}
	root := testroot.Root(t)
	for _, profile := range []string{"plain", "zed"} {
		t.Run(profile, func(t *testing.T) {
			c := clientCaps(readGolden(t, root, "session-load-replay", profile))
			want := filepath.Join(dir, profile+".golden")
			if *reference != "" {
				refresh(t, want, c.Raw, msgs)
			}
			data, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, u := range Replay(msgs, toolcall.Renderer{Caps: c, Cwd: "/w"}, toolcall.NewSession(c, "/w")) {
				got = append(got, canonical(t, string(u)))
			}
			goldentest.CompareLines(t, "update", got, strings.Split(strings.TrimSpace(string(data)), "\n"))
		})
	}
}

// refresh writes what the reference renders for msgs into path.
func refresh(t *testing.T, path string, c json.RawMessage, msgs []Message) {
	t.Helper()
	type msg struct {
		Type    string          `json:"type"`
		UUID    string          `json:"uuid"`
		Message json.RawMessage `json:"message"`
	}
	in := struct {
		Caps     json.RawMessage `json:"caps"`
		Cwd      string          `json:"cwd"`
		Messages []msg           `json:"messages"`
	}{Caps: c, Cwd: "/w"}
	for _, m := range msgs {
		in.Messages = append(in.Messages, msg{m.Type, m.UUID, m.Message})
	}
	cmd := exec.Command("node", filepath.Join(filepath.Dir(path), "reference.mjs"), *reference)
	cmd.Stdin = bytes.NewReader(marshal(in))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("reference: %v\n%s", err, stderr.String())
	}
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		b.WriteString(canonical(t, l) + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
