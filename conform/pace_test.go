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

func TestStreamWriterHurriesOnlyTextDeltas(t *testing.T) {
	// The CLI frames notebook-edit's real CLI wrote, through a StreamWriter:
	// a delta after its block's start or another delta goes out after
	// StreamPace; every other frame (the end of the block, the assistant
	// message, the message_delta whose usage_update must come before the
	// PostToolUse hook's update) after the full pace.
	c := loadGoldenCassette(t, "notebook-edit/plain.cassette")
	var frames []string
	for _, e := range c.Processes[0].Events {
		if e.Dir == "cli" {
			frames = append(frames, string(e.Msg)+"\n")
		}
	}
	p := NewPacer(DefaultPace)
	var out stampWriter
	w := p.StreamWriter(&out)
	start := time.Now()
	for _, f := range frames {
		if _, err := w.Write([]byte(f)); err != nil {
			t.Fatal(err)
		}
	}
	if strings.Join(out.lines, "") != strings.Join(frames, "") {
		t.Fatal("the frames did not go out whole and in order")
	}
	var hurried, full int
	var hurriedFor time.Duration
	prev := start
	for i, at := range out.at {
		gap := at.Sub(prev)
		prev = at
		if i > 0 && blockEvent([]byte(frames[i])) == "content_block_delta" && blockEvent([]byte(frames[i-1])) != "" {
			hurried++
			hurriedFor += gap
			if gap < StreamPace-time.Millisecond/2 {
				t.Errorf("frame %d went out %s after the previous one, want >= %s", i, gap, StreamPace)
			}
			continue
		}
		full++
		if gap < DefaultPace-time.Millisecond {
			t.Errorf("frame %d (%.60s) went out %s after the previous one, want the full pace %s", i, frames[i], gap, DefaultPace)
		}
	}
	if hurried < 5 || full < 20 {
		t.Fatalf("%d hurried and %d paced frames: not the recorded stream", hurried, full)
	}
	if avg := hurriedFor / time.Duration(hurried); avg >= DefaultPace/2 {
		t.Errorf("deltas went out %s apart on average, want about %s", avg, StreamPace)
	}
}

func TestStreamWriterWaitsForQuietAfterInput(t *testing.T) {
	// The adapter wrote to the CLI between two streamed frames: the second
	// waits for the full quiet, as a Writer's line does.
	const delta = `{"type":"stream_event","event":{"type":"content_block_delta"}}` + "\n"
	p := NewPacer(DefaultPace)
	var out stampWriter
	w := p.StreamWriter(&out)
	if _, err := w.Write([]byte(delta)); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Reader(strings.NewReader("{}\n")).Read(make([]byte, 8)); err != nil {
		t.Fatal(err)
	}
	read := time.Now()
	if _, err := w.Write([]byte(delta)); err != nil {
		t.Fatal(err)
	}
	if gap := out.at[1].Sub(read); gap < DefaultPace-time.Millisecond {
		t.Errorf("the frame after the adapter's input went out %s after it, want >= %s", gap, DefaultPace)
	}
}
