package conform

import (
	"bytes"
	"io"
	"sync"
	"time"
)

// EnvPace names the pause of the paced fake CLI (a Go duration, e.g.
// "15ms"); DefaultPace applies when it is unset.
const EnvPace = "AIRWIRE_CONFORM_PACE"

// DefaultPace is how long the paced fake CLI waits, before each frame it
// writes, for the adapter to have been silent on the CLI's stdin and for its
// own previous frame to be that old.
const DefaultPace = 15 * time.Millisecond

// Pacer paces the fake CLI like a real one. The real CLI streams a model's
// answer over seconds, so an adapter has long finished reacting to one
// frame (a control round trip, a file read, an update to the editor) when
// the next arrives. The fake writes a whole turn at once, and the adapter's
// reactions would then interleave with later frames by timing. A Pacer
// holds each frame the fake writes until the adapter has been quiet on the
// CLI's stdin, and the previous frame has been out, for the pace.
type Pacer struct {
	pace time.Duration

	mu   sync.Mutex
	last time.Time // last byte read or written
}

// NewPacer returns a Pacer with the given pause (DefaultPace when <= 0).
func NewPacer(pace time.Duration) *Pacer {
	if pace <= 0 {
		pace = DefaultPace
	}
	return &Pacer{pace: pace, last: time.Now()}
}

func (p *Pacer) touch() {
	p.mu.Lock()
	p.last = time.Now()
	p.mu.Unlock()
}

func (p *Pacer) wait() {
	for {
		p.mu.Lock()
		quiet := time.Since(p.last)
		p.mu.Unlock()
		if quiet >= p.pace {
			return
		}
		time.Sleep(p.pace - quiet)
	}
}

// Reader wraps the CLI's stdin: every read marks activity.
func (p *Pacer) Reader(r io.Reader) io.Reader { return pacedReader{p, r} }

// Writer wraps the CLI's stdout: each line waits for quiet, then goes out.
func (p *Pacer) Writer(w io.Writer) io.Writer { return &pacedWriter{p: p, w: w} }

type pacedReader struct {
	p *Pacer
	r io.Reader
}

func (r pacedReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	if n > 0 {
		r.p.touch()
	}
	return n, err
}

type pacedWriter struct {
	p   *Pacer
	w   io.Writer
	mu  sync.Mutex
	buf []byte
}

// Write forwards complete lines one at a time, each after the pause; a
// partial line waits for its end.
func (w *pacedWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, b...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		w.p.wait()
		if _, err := w.w.Write(w.buf[:i+1]); err != nil {
			return len(b), err
		}
		w.p.touch()
		w.buf = w.buf[i+1:]
	}
}
