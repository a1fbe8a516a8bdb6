package validate_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/schemas/validate"
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

	// Baseline, same run: read the journal and decode every message into
	// Go values, the least any JSON checker does. The ratio is
	// validation time over that.
	t0 := time.Now()
	const reps = 3
	for i := 0; i < reps; i++ {
		_, entries, err := journal.ReadAll(path)
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range entries {
			var v any
			if err := json.Unmarshal(e.Msg, &v); err != nil {
				b.Fatal(err)
			}
		}
	}
	base := time.Since(t0).Seconds() / reps
	b.ReportMetric(float64(n)/base, "baseline-decode-msgs/s")
	b.ReportMetric(sec/base, "x-baseline-time")
}
