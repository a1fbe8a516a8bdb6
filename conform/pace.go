package conform

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// EnvPace names the pause of the paced fake CLI (a Go duration, e.g.
// "10ms"); DefaultPace applies when it is unset.
const EnvPace = "AIRWIRE_CONFORM_PACE"

// DefaultPace is how long the paced fake CLI waits, before each frame it
// writes, for the adapter to have been silent on the CLI's stdin and for its
// own previous frame to be that old.
const DefaultPace = 10 * time.Millisecond

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
// answer as it streamed, a stream_event per text delta. A delta that
// continues a content block (see blockEvent) waits only StreamPace, when
// nothing was read from the adapter since the line before it went out: the
// adapter handles these one after the other in its message loop, and they
// only add text to the editor's message. Every other line (the end of the
// block, the assistant message, a control request or response, a result,
// the first line after the adapter wrote) waits for quiet as with Writer,
// so the adapter has caught up with the deltas before a frame it handles
// concurrently (a hook callback) arrives. Hurrying more than the deltas
// raced: a PostToolUse hook's update overtook the usage_update of the
// message_delta before it (notebook-edit, under load).
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
	// stream is set for a StreamWriter; inBlock says whether the previous
	// line was a content block's start or delta, and prevAt when it went out.
	stream  bool
	inBlock bool
	prevAt  time.Time
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
		ev := ""
		if w.stream {
			ev = blockEvent(line)
		}
		if ev == "content_block_delta" && w.inBlock {
			w.streamWait()
		} else {
			w.p.wait()
		}
		if _, err := w.w.Write(line); err != nil {
			return len(b), err
		}
		w.p.touch(false)
		w.inBlock, w.prevAt = ev != "", time.Now()
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

// blockEvent is the event type of a stream_event frame of a content block
// (content_block_start or content_block_delta), else "".
func blockEvent(line []byte) string {
	var f struct {
		Type  string `json:"type"`
		Event struct {
			Type string `json:"type"`
		} `json:"event"`
	}
	if json.Unmarshal(line, &f) != nil || f.Type != "stream_event" {
		return ""
	}
	switch f.Event.Type {
	case "content_block_start", "content_block_delta":
		return f.Event.Type
	}
	return ""
}
