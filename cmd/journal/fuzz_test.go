package journal_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/factory"
	cmdjournal "github.com/airwire/airwire/cmd/journal"
	"github.com/airwire/airwire/internal/journal"
)

// clearError is what every reader's error must say: which line, or that the
// file is not a journal it can read.
var clearError = regexp.MustCompile(`journal line \d+|not an airwire journal|unsupported journal version`)

// FuzzJournalReaders feeds random journals to every reader: journal.Reader
// (which validate, conform and the cassette builder read through),
// `journal cat` (listing and --raw) and `journal stats`. None may panic,
// each error must name its line or say the file is no journal, and what a
// reader allocates stays within a fixed multiple of the input (item 10 and
// the acceptance of issue 11). `make fuzz` runs it.
func FuzzJournalReaders(f *testing.F) {
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "j.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		_, entries, rerr := journal.ReadAll(path)
		checkError(t, "ReadAll", rerr)
		for _, args := range [][]string{{"cat", path}, {"cat", path, "--raw"}, {"cat", path, "--width", "0"}, {"stats", path, "--json"}} {
			fc := factory.New("test", factory.WithIO(strings.NewReader(""), io.Discard, io.Discard))
			cmd := cmdjournal.NewCmdJournal(fc)
			cmd.SetArgs(args)
			cmd.SetOut(io.Discard)
			cmd.SetErr(io.Discard)
			err := cmd.Execute()
			checkError(t, strings.Join(args[:1], " "), err)
			if (err == nil) != (rerr == nil || isTorn(rerr)) {
				t.Fatalf("%s and ReadAll disagree: %v / %v", args[0], err, rerr)
			}
		}
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if got, bound := after.TotalAlloc-before.TotalAlloc, uint64(64*len(data)+8<<20); got > bound {
			t.Fatalf("the readers allocated %d bytes for %d bytes of journal (%d entries)", got, len(data), len(entries))
		}
	})
}

func isTorn(err error) bool {
	var torn *journal.TornError
	return errors.As(err, &torn)
}

func checkError(t *testing.T, who string, err error) {
	t.Helper()
	if err != nil && !isTorn(err) && !clearError.MatchString(err.Error()) {
		t.Fatalf("%s: unclear error %q", who, err)
	}
}

// fuzzSeeds are real journals and broken ones: torn tails, a torn middle,
// a message at the deepest nesting, a header alone, no header.
func fuzzSeeds(f *testing.F) [][]byte {
	raw, err := os.ReadFile(writeJournalTB(f))
	if err != nil {
		f.Fatal(err)
	}
	lines := strings.SplitAfter(string(raw), "\n")
	header := strings.TrimRight(lines[0], " \n") + "\n"
	body := strings.Join(lines[1:], "")
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	return [][]byte{
		[]byte(header + body),
		[]byte(header + body[:len(body)-7]),
		[]byte(header + lines[1][:20] + "\n" + body),
		[]byte(header + `{"seq":1,"t_ns":1,"kind":"msg","lane":"client","dir":"editor","msg":` + deep + "}\n"),
		[]byte(header + `{"seq":1,"kind":"msg","msg":{"a":1},"msg":[1,"x\"y"],"text":"\u001b[2J","b64":"AAE="}` + "\n"),
		[]byte(header),
		[]byte(body),
		[]byte(header + "null\n" + `{"seq":"x"}` + "\n"),
		{},
	}
}
