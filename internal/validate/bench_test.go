package validate_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/airwire/airwire/internal/validate"
)

// largeJournal writes n copies of the air-session conversation (each starts
// with initialize, which resets the conversation state) into one journal.
func largeJournal(b *testing.B, n int) (path string, msgs int) {
	b.Helper()
	src, err := os.ReadFile("testdata/air-session.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	var lines [][]byte
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		lines = append(lines, append([]byte(nil), sc.Bytes()...))
	}
	path = filepath.Join(b.TempDir(), "large.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.Write(lines[0])
	w.WriteByte('\n')
	seq := 0
	for i := 0; i < n; i++ {
		for _, l := range lines[1:] {
			seq++
			// Renumber: the journal is gapless and rising.
			fmt.Fprintf(w, `{"seq":%d%s`+"\n", seq, l[len(`{"seq":`)+digits(l):])
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return path, seq
}

func digits(l []byte) int {
	n := 0
	for _, c := range l[len(`{"seq":`):] {
		if c < '0' || c > '9' {
			break
		}
		n++
	}
	return n
}

// BenchmarkJournal measures messages validated per second over a journal of
// 19,000 client-lane messages (1,000 AIR conversations).
func BenchmarkJournal(b *testing.B) {
	a, s := schemas(b)
	path, n := largeJournal(b, 1000)
	var rep validate.Report
	for b.Loop() {
		var err error
		rep, err = validate.Journal(path, validate.New(a, s))
		if err != nil {
			b.Fatal(err)
		}
	}
	if rep.Stats.Messages != n || rep.Stats.Errors != 0 {
		b.Fatalf("stats %+v for %d messages", rep.Stats, n)
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(n)/sec, "msgs/s")
	b.ReportMetric(float64(rep.Stats.AIRPayloads)/sec, "air-payloads/s")
}
