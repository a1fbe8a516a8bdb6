package journal_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/factory"
	cmdjournal "github.com/airwire/airwire/cmd/journal"
	"github.com/airwire/airwire/internal/journal"
)

// runErr is run with stderr returned too.
func runErr(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	f := factory.New("test", factory.WithIO(strings.NewReader(""), &out, &errOut))
	cmd := cmdjournal.NewCmdJournal(f)
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	err := cmd.Execute()
	return out.String(), errOut.String(), err
}

// tornCopy writes the journal of writeJournal with its last line cut in
// half (kill -9 mid-write), or with a line in the middle cut.
func tornCopy(t *testing.T, middle bool) (path string, lines []string) {
	t.Helper()
	raw, err := os.ReadFile(writeJournal(t))
	if err != nil {
		t.Fatal(err)
	}
	lines = strings.SplitAfter(string(raw), "\n")
	lines = lines[:len(lines)-1] // the empty string after the last newline
	i := len(lines) - 1
	if middle {
		i = 4
	}
	torn := append([]string(nil), lines...)
	torn[i] = lines[i][:len(lines[i])/2]
	if middle {
		torn[i] += "\n"
	}
	path = filepath.Join(t.TempDir(), "torn.jsonl")
	os.WriteFile(path, []byte(strings.Join(torn, "")), 0o600)
	return path, lines
}

// Item 9 of issue 11: a torn last line is a warning; the rest is read.
func TestReadersSurviveATornTail(t *testing.T) {
	path, _ := tornCopy(t, false)
	out, errOut, err := runErr(t, "cat", path)
	if err != nil {
		t.Fatalf("cat refused a journal with a torn tail: %v", err)
	}
	if n := strings.Count(out, "\n"); n != 1+11 {
		t.Fatalf("cat listed %d lines, want the header and 11 entries:\n%s", n, out)
	}
	if !strings.Contains(errOut, "line 13") || !strings.Contains(errOut, "torn") {
		t.Fatalf("no warning naming the torn line on stderr: %q", errOut)
	}
	out, errOut, err = runErr(t, "stats", path, "--json")
	if err != nil {
		t.Fatalf("stats refused a journal with a torn tail: %v", err)
	}
	var s struct{ Entries int }
	if json.Unmarshal([]byte(out), &s); s.Entries != 11 || !strings.Contains(errOut, "line 13") {
		t.Fatalf("stats counted %d entries, stderr %q", s.Entries, errOut)
	}
	page := filepath.Join(t.TempDir(), "p.html")
	if _, errOut, err = runErr(t, "view", path, "-o", page, "--no-validate"); err != nil || !strings.Contains(errOut, "line 13") {
		t.Fatalf("view: %v, stderr %q", err, errOut)
	}
	if b, _ := os.ReadFile(page); !strings.Contains(string(b), "11 entries in") {
		t.Fatalf("the view of a journal with a torn tail does not draw its 11 entries")
	}
}

// Item 9 of issue 11: a torn line in the middle is an error naming its line.
func TestReadersRejectATornMiddleLine(t *testing.T) {
	path, _ := tornCopy(t, true)
	for _, args := range [][]string{{"cat", path}, {"stats", path}, {"view", path, "-o", filepath.Join(t.TempDir(), "p.html"), "--no-validate"}} {
		if _, _, err := runErr(t, args...); err == nil || !strings.Contains(err.Error(), "line 5") {
			t.Errorf("%s: %v, want an error naming line 5", args[0], err)
		}
	}
}

// Item 11 of issue 11: --raw prints the journal's lines byte for byte,
// header included.
func TestCatRawPrintsTheBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	w, err := journal.Create(path, journal.Header{Airwire: "test"})
	if err != nil {
		t.Fatal(err)
	}
	text := "<b>bold</b> & \u2028"
	w.Append(&journal.Entry{Kind: journal.KindStderr, Lane: journal.LaneClient, Proc: "agent", Text: &text})
	w.Append(&journal.Entry{Kind: journal.KindMsg, Lane: journal.LaneClient, Dir: journal.DirEditor, Msg: json.RawMessage(`{ "z" : "<b>",  "a":1 }`)})
	w.Close()
	raw, _ := os.ReadFile(path)
	out, _, err := runErr(t, "cat", path, "--raw")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(raw) {
		t.Fatalf("--raw differs from the journal:\n got %.300q\nwant %.300q", out, raw)
	}
	lines := strings.SplitAfter(string(raw), "\n")
	out, _, _ = runErr(t, "cat", path, "--raw", "--kind", "msg")
	if out != lines[0]+lines[2] {
		t.Fatalf("--raw --kind msg: %.300q", out)
	}
}

// Item 11 of issue 11: the listing never passes terminal escapes through.
func TestCatEscapesControlCharacters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	w, _ := journal.Create(path, journal.Header{Airwire: "test"})
	title, clear := "\x1b]0;pwned\x07title", "\x1b[2J\x1b[Hcleared\r\u009b"
	w.Append(&journal.Entry{Kind: journal.KindStderr, Lane: journal.LaneClient, Proc: "agent", Text: &title})
	w.Append(&journal.Entry{Kind: journal.KindNonJSON, Lane: journal.LaneClient, Dir: journal.DirAgent, Reason: "x", Text: &clear})
	w.Close()
	out, _, err := runErr(t, "cat", path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(out, "\x1b\x07\r\u009b") {
		t.Fatalf("control characters reach the terminal: %q", out)
	}
	if !strings.Contains(out, `\x1b]0;pwned\x07title`) || !strings.Contains(out, `\x1b[2J\x1b[Hcleared\r\u009b`) {
		t.Fatalf("escapes not shown readably: %q", out)
	}
}
