package journal_test

import (
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airwire/airwire/cmd/factory"
	cmdjournal "github.com/airwire/airwire/cmd/journal"
	"github.com/airwire/airwire/internal/journal"

	"github.com/airwire/airwire/internal/testmem"
)

// bigJournal writes a journal holding one message of n bytes and one
// stderr line of n bytes.
func bigJournal(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "big.jsonl")
	w, err := journal.Create(path, journal.Header{Airwire: "test"})
	if err != nil {
		t.Fatal(err)
	}
	msg := `{"jsonrpc":"2.0","method":"session/update","params":{"image":"` + strings.Repeat("é", n/2) + `"}}`
	text := strings.Repeat("x", n)
	w.Append(&journal.Entry{Kind: journal.KindMsg, Lane: journal.LaneClient, Dir: journal.DirAgent, Method: "session/update", Msg: json.RawMessage(msg), Bytes: len(msg)})
	w.Append(&journal.Entry{Kind: journal.KindStderr, Lane: journal.LaneClient, Proc: "agent", Text: &text})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// Item 10 of issue 11: the memory bounds of the journal verbs stated in
// docs/journal.md ("Memory"), as multiples of the longest journal line L:
// live heap, and bytes allocated per line of L, reading a journal with two
// lines of L = 32 MiB (a message and a stderr line). Today's main peaks at
// 7 L and allocates 6.5 L per line in cat, 3 L per line in stats.
func TestJournalVerbsMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 64 MiB journal")
	}
	const n = 32 << 20
	path := bigJournal(t, n)
	for _, c := range []struct {
		args          []string
		peak, perLine float64 // in L
	}{
		{[]string{"cat", path}, 5, 3.5},
		{[]string{"cat", path, "--width", "0"}, 5, 3.5},
		{[]string{"cat", path, "--raw"}, 5, 3.5},
		{[]string{"stats", path}, 4, 2.5},
	} {
		var err error
		peak, alloc := testmem.HeapUse(func() {
			f := factory.New("test", factory.WithIO(strings.NewReader(""), io.Discard, io.Discard))
			cmd := cmdjournal.NewCmdJournal(f)
			cmd.SetArgs(c.args)
			err = cmd.Execute()
		})
		if err != nil {
			t.Fatal(err)
		}
		name := c.args[0] + " " + strings.Join(c.args[2:], " ")
		p, a := float64(peak)/n, float64(alloc)/n/2
		t.Logf("%s: peak heap %.1f L, allocated %.1f L per line (L = %d MiB)", name, p, a, n>>20)
		if p > c.peak || a > c.perLine {
			t.Errorf("%s: peak heap %.1f L (bound %.1f L), allocated %.1f L per line (bound %.1f L)", name, p, c.peak, a, c.perLine)
		}
	}
}
