package conform

import (
	"bytes"
	"encoding/json"
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

// StreamPace is the pause of a StreamWriter between two frames of a
// model's stream (see Pacer.StreamWriter).
const StreamPace = 2 * time.Millisecond

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
	read time.Time // last byte read
}

// NewPacer returns a Pacer with the given pause (DefaultPace when <= 0).
func NewPacer(pace time.Duration) *Pacer {
	if pace <= 0 {
		pace = DefaultPace
	}
	return &Pacer{pace: pace, last: time.Now()}
}

func (p *Pacer) touch(read bool) {
	p.mu.Lock()
	p.last = time.Now()
	if read {
		p.read = p.last
	}
	p.mu.Unlock()
}

// readSince reports whether a byte was read after t.
func (p *Pacer) readSince(t time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.read.After(t)
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

// StreamWriter is Writer for a replayed CLI, whose recording holds a model's
// answer as it streamed (a stream_event per delta, then the assistant and
// user messages). A line that continues such a stream waits only StreamPace:
// when it and the line before it are streamed messages (see streamed) and
// nothing was read from the adapter since that line went out. The adapter
// handles these messages one after the other in its message loop, so their
// order on the editor's side does not depend on the pause. Every other line
// (a control request or response, a system message, a result, the first
// line after the adapter wrote) waits for quiet as with Writer.
func (p *Pacer) StreamWriter(w io.Writer) io.Writer { return &pacedWriter{p: p, w: w, stream: true} }

type pacedReader struct {
	p *Pacer
	r io.Reader
}

func (r pacedReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	if n > 0 {
		r.p.touch(true)
	}
	return n, err
}

type pacedWriter struct {
	p   *Pacer
	w   io.Writer
	mu  sync.Mutex
	buf []byte
	// stream is set for a StreamWriter; prevStreamed says whether the
	// previous line was a streamed message, and prevAt when it went out.
	stream       bool
	prevStreamed bool
	prevAt       time.Time
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
		line := w.buf[:i+1]
		s := w.stream && streamed(line)
		if s && w.prevStreamed {
			w.streamWait()
		} else {
			w.p.wait()
		}
		if _, err := w.w.Write(line); err != nil {
			return len(b), err
		}
		w.p.touch(false)
		w.prevStreamed, w.prevAt = s, time.Now()
		w.buf = w.buf[i+1:]
	}
}

// streamWait holds a line that continues a stream for StreamPace after the
// previous line, or for quiet if the adapter wrote in the meantime.
func (w *pacedWriter) streamWait() {
	if d := StreamPace - time.Since(w.prevAt); d > 0 {
		time.Sleep(d)
	}
	if w.p.readSince(w.prevAt) {
		w.p.wait()
	}
}

// streamed reports whether a CLI frame is a message of a model's stream: a
// stream_event, an assistant or a user message.
func streamed(line []byte) bool {
	var f struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(line, &f) != nil {
		return false
	}
	switch f.Type {
	case "stream_event", "assistant", "user":
		return true
	}
	return false
}
