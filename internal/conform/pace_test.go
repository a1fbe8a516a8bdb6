package conform

import (
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

type stampWriter struct {
	mu    sync.Mutex
	lines []string
	at    []time.Time
}

func (w *stampWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lines = append(w.lines, string(b))
	w.at = append(w.at, time.Now())
	return len(b), nil
}

func TestPacerSpacesLinesAndWaitsForQuietInput(t *testing.T) {
	const pace = 20 * time.Millisecond
	tests := []struct {
		name  string
		write []string // chunks written at once
		busy  time.Duration
		lines int
	}{
		{name: "one chunk with three lines goes out one line per pace", write: []string{"a\nb\nc\n"}, lines: 3},
		{name: "a line split across writes goes out whole", write: []string{"par", "tial\n"}, lines: 1},
		{name: "input activity holds output back", write: []string{"x\n"}, busy: 3 * pace, lines: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewPacer(pace)
			var out stampWriter
			w := p.Writer(&out)
			start := time.Now()
			var inMu sync.Mutex
			lastIn := start
			if tt.busy > 0 {
				// The adapter keeps writing to the CLI's stdin for a while.
				r, pw := io.Pipe()
				go func() {
					for time.Since(start) < tt.busy {
						pw.Write([]byte("{}\n"))
						inMu.Lock()
						lastIn = time.Now()
						inMu.Unlock()
						time.Sleep(pace / 4)
					}
					pw.Close()
				}()
				go io.Copy(io.Discard, p.Reader(r))
				time.Sleep(pace / 2)
			}
			for _, c := range tt.write {
				if _, err := w.Write([]byte(c)); err != nil {
					t.Fatal(err)
				}
			}
			if len(out.lines) != tt.lines {
				t.Fatalf("lines = %q, want %d", out.lines, tt.lines)
			}
			if got := strings.Join(out.lines, ""); got != strings.Join(tt.write, "") {
				t.Errorf("output %q, want %q", got, strings.Join(tt.write, ""))
			}
			inMu.Lock()
			prev := lastIn
			inMu.Unlock()
			for i, at := range out.at {
				if gap := at.Sub(prev); gap < pace-time.Millisecond {
					t.Errorf("line %d went out %s after the previous activity, want >= %s", i, gap, pace)
				}
				prev = at
			}
		})
	}
}
