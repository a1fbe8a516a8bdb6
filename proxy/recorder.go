package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/airwire/airwire/internal/journal"
	"github.com/airwire/airwire/internal/jsonrpc"
	"github.com/airwire/airwire/proxy/redact"
)

const (
	chunkSize = 64 << 10
	// chunksPerStream bounds what a stream may have queued for the journal.
	chunksPerStream = 8
	// DefaultMaxLine is the largest frame journaled whole (256 MiB); a longer
	// one is still forwarded byte for byte and journaled as non_json with its
	// first bytes and length.
	DefaultMaxLine = jsonrpc.DefaultMaxLine
)

// Recorder turns the chunks that pumps hand it into journal entries, in one
// goroutine, in the order the chunks were handed over.
type Recorder struct {
	w       *journal.Writer
	red     *redact.Redactor
	maxLine int
	queue   chan item
	done    chan struct{}
	mu      sync.Mutex
	closed  bool
	procs   int
	onCLI   sync.Once
	// spawned holds, per CLI process name, a channel closed once its spawn
	// entry is queued (model-lane requests wait for it).
	spawned map[string]chan struct{}
	// routes holds, per CLI process name, the model API its shim reported
	// (shimroute.go), for the model lane.
	routes map[string]*procRoute
}

type itemKind uint8

const (
	itemChunk itemKind = iota
	itemEOF
	itemEntry // a prepared entry (spawn, exit, note)
	itemSync  // a barrier: close ack when everything before it is written
	itemStop  // the last item: Close
	// Model-lane entries; entry.Msg holds the raw bytes to finish (model.go).
	itemModelHead  // msg or note as prepared: only redacted
	itemModelBody  // an HTTP body
	itemModelEvent // an SSE event block
)

type item struct {
	kind  itemKind
	s     *Stream
	buf   *[]byte
	n     int
	t     int64
	entry *journal.Entry
	ack   chan struct{}
}

// RecorderOption configures NewRecorder.
type RecorderOption func(*Recorder)

// WithRedactor sets the before-save redaction; nil turns it off.
func WithRedactor(r *redact.Redactor) RecorderOption { return func(rc *Recorder) { rc.red = r } }

// WithMaxLine sets the largest frame journaled whole.
func WithMaxLine(n int) RecorderOption { return func(rc *Recorder) { rc.maxLine = n } }

// NewRecorder starts a Recorder appending to w. Close stops it; the caller
// closes w afterwards.
func NewRecorder(w *journal.Writer, opts ...RecorderOption) *Recorder {
	r := &Recorder{w: w, maxLine: DefaultMaxLine, queue: make(chan item, 64), done: make(chan struct{})}
	for _, o := range opts {
		o(r)
	}
	go r.loop()
	return r
}

// Journal returns the writer the Recorder appends to.
func (r *Recorder) Journal() *journal.Writer { return r.w }

// Stream is one direction of one lane (or one process's stderr). Its chunks
// are cut into frames independently of every other stream's.
type Stream struct {
	r      *Recorder
	lane   journal.Lane
	dir    journal.Dir
	proc   string
	stderr bool
	// whole marks the stdio of a CLI run that does not speak stream-json
	// (auth status --json, --version): its output is one document, often
	// pretty-printed JSON, journaled as one entry when it ends.
	whole bool
	label string // method of a whole document: "auth status", "--version"
	side  jsonrpc.Side
	corr  *jsonrpc.Correlator
	pool  chan *[]byte

	// owned by the journal goroutine
	pending lineBuf
	skipped int64 // >0 while discarding an oversized line
	prefix  []byte
}

// Conn is a pair of streams that share request/response correlation.
type Conn struct {
	Up   *Stream // from the side that starts the connection (editor; agent on the cli lane)
	Down *Stream // from the other side (agent; the CLI)
}

// NewConn returns the two streams of one connection on lane. up and down
// name who sends on each.
func (r *Recorder) NewConn(lane journal.Lane, proc string, up, down journal.Dir) Conn {
	corr := jsonrpc.NewCorrelator()
	return Conn{
		Up:   r.newStream(lane, up, proc, jsonrpc.SideA, corr, false),
		Down: r.newStream(lane, down, proc, jsonrpc.SideB, corr, false),
	}
}

// NewStderr returns a stream for a process's stderr lines.
func (r *Recorder) NewStderr(lane journal.Lane, proc string) *Stream {
	return r.newStream(lane, "", proc, 0, nil, true)
}

func (r *Recorder) newStream(lane journal.Lane, dir journal.Dir, proc string, side jsonrpc.Side, corr *jsonrpc.Correlator, stderr bool) *Stream {
	s := &Stream{r: r, lane: lane, dir: dir, proc: proc, side: side, corr: corr, stderr: stderr, pool: make(chan *[]byte, chunksPerStream)}
	for i := 0; i < chunksPerStream; i++ {
		b := make([]byte, chunkSize)
		s.pool <- &b
	}
	return s
}

// NextProc returns a fresh process name for a CLI spawn: cli-1, cli-2, … .
func (r *Recorder) NextProc() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.procs++
	p := fmt.Sprintf("cli-%d", r.procs)
	if r.spawned == nil {
		r.spawned = map[string]chan struct{}{}
	}
	r.spawned[p] = make(chan struct{})
	return p
}

// Buffer takes a free chunk buffer of s, waiting while all are queued (this
// is the backpressure). After Close it returns a throwaway buffer.
func (s *Stream) Buffer() *[]byte {
	select {
	case b := <-s.pool:
		return b
	case <-s.r.done:
		b := make([]byte, chunkSize)
		return &b
	}
}

// release gives an unused buffer back without blocking.
func (s *Stream) release(buf *[]byte) {
	select {
	case s.pool <- buf:
	default:
	}
}

// Submit queues buf[:n] for the journal. The buffer returns to the pool once
// it is journaled; the caller may still read it until then (to forward it).
// After Close, Submit drops the chunk.
func (s *Stream) Submit(buf *[]byte, n int) {
	s.r.send(item{kind: itemChunk, s: s, buf: buf, n: n, t: s.r.w.Now()})
}

// send queues it unless the Recorder has stopped.
func (r *Recorder) send(it item) bool {
	select {
	case r.queue <- it:
		return true
	case <-r.done:
		return false
	}
}

// Write copies p into chunks and submits them. It implements io.Writer for
// callers that already hold their bytes (tests, in-process drivers).
func (s *Stream) Write(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		b := s.Buffer()
		n := copy(*b, p)
		s.Submit(b, n)
		p = p[n:]
	}
	return total, nil
}

// Close marks the end of the stream: a partial last line is journaled as
// truncated.
func (s *Stream) Close() { s.r.send(item{kind: itemEOF, s: s, t: s.r.w.Now()}) }

// Event queues a prepared entry (spawn, exit, note) in order with the traffic.
func (r *Recorder) Event(e journal.Entry) {
	if e.TNs == 0 {
		e.TNs = r.w.Now()
	}
	if e.Kind == journal.KindSpawn && r.red != nil {
		e.Argv, e.Redacted = r.red.Argv(e.Argv)
	}
	r.send(item{kind: itemEntry, entry: &e})
	if e.Kind == journal.KindSpawn && e.Lane == journal.LaneCLI {
		r.markSpawned(e.Proc)
	}
}

// Sync waits until everything queued before it is written to the journal file.
func (r *Recorder) Sync() {
	ack := make(chan struct{})
	if r.send(item{kind: itemSync, ack: ack}) {
		<-ack
	}
}

// Close writes everything queued and stops the Recorder. Streams must not be
// used afterwards.
func (r *Recorder) Close() {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.closed = true
	r.mu.Unlock()
	r.send(item{kind: itemStop})
	<-r.done
}

func (r *Recorder) loop() {
	defer close(r.done)
	for it := range r.queue {
		switch it.kind {
		case itemStop:
			_ = r.w.Flush()
			return
		case itemChunk:
			it.s.feed((*it.buf)[:it.n], it.t)
			it.s.release(it.buf)
		case itemEOF:
			it.s.finish(it.t)
		case itemEntry:
			_ = r.w.AppendBuffered(it.entry)
			if it.entry.Kind == journal.KindSpawn && jsonrpc.ArgvSpeaksStreamJSON(it.entry.Argv) {
				argv := it.entry.Argv
				r.onCLI.Do(func() { _ = r.w.SetCLICmd(argv) })
			}
		case itemModelHead, itemModelBody, itemModelEvent:
			r.finishModel(it.kind, it.entry)
			_ = r.w.AppendBuffered(it.entry)
		case itemSync:
			_ = r.w.Flush()
			close(it.ack)
			continue
		}
		if len(r.queue) == 0 {
			_ = r.w.Flush()
		}
	}
}

// feed cuts a chunk into frames; runs on the journal goroutine.
func (s *Stream) feed(chunk []byte, t int64) {
	if s.whole {
		if s.pending.n+len(chunk) > s.r.maxLine {
			s.whole = false // too big to be a document: fall back to lines
		} else {
			s.pending.add(chunk)
			return
		}
	}
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '\n')
		if s.skipped > 0 { // inside an oversized line
			if i < 0 {
				s.skipped += int64(len(chunk))
				return
			}
			s.skipped += int64(i)
			s.tooLong(t)
			chunk = chunk[i+1:]
			continue
		}
		if i < 0 {
			s.hold(chunk)
			return
		}
		s.line(chunk[:i+1], t)
		chunk = chunk[i+1:]
	}
}

// hold keeps the start of a line until its newline comes; past the limit it
// keeps only its first bytes and counts the rest.
func (s *Stream) hold(part []byte) {
	if s.pending.n+len(part) <= s.r.maxLine {
		s.pending.add(part)
		return
	}
	s.prefix = s.pending.head(part)
	s.skipped = int64(s.pending.n + len(part))
	s.pending.reset()
}

// line journals the line that ends with end (its newline included).
func (s *Stream) line(end []byte, t int64) {
	switch {
	case s.pending.n+len(end)-1 > s.r.maxLine:
		s.prefix = s.pending.head(end[:len(end)-1])
		s.skipped = int64(s.pending.n + len(end) - 1)
		s.tooLong(t)
	case s.pending.n == 0:
		s.frame(end, t, false)
	default:
		s.frame(s.pending.join(end), t, false)
	}
	s.pending.reset()
}

func (s *Stream) finish(t int64) {
	if s.skipped > 0 {
		s.tooLong(t)
	}
	if s.pending.n > 0 {
		if s.whole {
			s.document(s.pending.join(nil), t)
		} else {
			s.frame(s.pending.join(nil), t, true)
		}
		s.pending.reset()
	}
}

// lineBlock is the size of the blocks a long line is gathered in.
const lineBlock = 1 << 20

// lineBuf gathers the start of a line across chunks. A long line is kept as
// full blocks and joined once at its end: one copy of the line, where a
// growing buffer copies it again at every growth and holds the old and the
// new buffer together.
type lineBuf struct {
	blocks [][]byte
	cur    []byte
	n      int
}

func (b *lineBuf) add(p []byte) {
	b.n += len(p)
	for len(p) > 0 {
		if len(b.cur) == lineBlock {
			b.blocks = append(b.blocks, b.cur)
			b.cur = make([]byte, 0, lineBlock)
		}
		k := min(lineBlock-len(b.cur), len(p))
		b.cur = append(b.cur, p[:k]...)
		p = p[k:]
	}
}

// join returns the gathered bytes followed by tail.
func (b *lineBuf) join(tail []byte) []byte {
	if len(b.blocks) == 0 {
		b.cur = append(b.cur, tail...)
		return b.cur
	}
	out := make([]byte, 0, b.n+len(tail))
	for _, blk := range b.blocks {
		out = append(out, blk...)
	}
	return append(append(out, b.cur...), tail...)
}

// head copies the first 256 bytes of the gathered bytes followed by more.
func (b *lineBuf) head(more []byte) []byte {
	first := b.cur
	if len(b.blocks) > 0 {
		first = b.blocks[0]
	}
	h := append([]byte(nil), first[:min(256, len(first))]...)
	return append(h, more[:min(256-len(h), len(more))]...)
}

// reset empties the buffer; blocks of a long line are released, not kept
// for the life of the stream.
func (b *lineBuf) reset() {
	b.blocks, b.n = nil, 0
	b.cur = b.cur[:0]
	if cap(b.cur) > 4*chunkSize {
		b.cur = nil
	}
}

// document journals the whole output of a non-stream-json run: msg holds it
// compacted when it is JSON, text holds the exact bytes.
func (s *Stream) document(doc []byte, t int64) {
	e := journal.Entry{TNs: t, Lane: s.lane, Dir: s.dir, Proc: s.proc, Bytes: len(doc), Kind: journal.KindNonJSON, Reason: journal.ReasonDocument, Method: s.label}
	var err error
	if s.r.red != nil {
		_, doc, e.Redacted, err = s.r.red.Frame(doc) // JSON members too, not only text
	} else {
		_, err = jsonrpc.Scan(doc, nil)
	}
	if err != nil {
		s.setText(&e, doc)
		_ = s.r.w.AppendBuffered(&e)
		return
	}
	text := string(doc)
	var buf bytes.Buffer
	_ = json.Compact(&buf, doc)
	e.Kind, e.Reason, e.Msg, e.Text = journal.KindMsg, "", buf.Bytes(), &text
	_ = s.r.w.AppendBuffered(&e)
}

func (s *Stream) tooLong(t int64) {
	text := string(s.prefix)
	e := journal.Entry{TNs: t, Kind: journal.KindNonJSON, Lane: s.lane, Dir: s.dir, Proc: s.proc,
		Reason: journal.ReasonTooLong, Bytes: int(s.skipped) + 1}
	s.setText(&e, []byte(text))
	s.skipped, s.prefix = 0, nil
	_ = s.r.w.AppendBuffered(&e)
}

// frame journals one frame. truncated marks a last line with no newline.
func (s *Stream) frame(frame []byte, t int64, truncated bool) {
	e := journal.Entry{TNs: t, Lane: s.lane, Dir: s.dir, Proc: s.proc, Bytes: len(frame)}
	if s.stderr {
		e.Kind = journal.KindStderr
		s.setText(&e, bytes.TrimSuffix(bytes.TrimSuffix(frame, []byte("\n")), []byte("\r")))
		_ = s.r.w.AppendBuffered(&e)
		return
	}
	if truncated {
		e.Kind, e.Reason = journal.KindNonJSON, journal.ReasonTruncated
		s.setText(&e, frame)
		_ = s.r.w.AppendBuffered(&e)
		return
	}
	var (
		m   jsonrpc.Message
		out = frame
		n   int
		err error
	)
	if s.r.red != nil {
		m, out, n, err = s.r.red.Frame(frame)
	} else {
		m, err = jsonrpc.Scan(frame, nil)
	}
	if err != nil {
		e.Kind, e.Reason = journal.KindNonJSON, "not JSON: "+err.Error()
		s.setText(&e, bytes.TrimSuffix(frame, []byte("\n")))
		_ = s.r.w.AppendBuffered(&e)
		return
	}
	e.Kind, e.Redacted = journal.KindMsg, n
	body := bytes.TrimSuffix(out, []byte("\n"))
	lead := len(body) - len(bytes.TrimLeft(body, " \t\r"))
	trimmed := bytes.TrimRight(body[lead:], " \t\r")
	e.Lead, e.Trail = string(body[:lead]), string(body[lead+len(trimmed):])
	e.Msg = trimmed
	e.Session = m.Session
	s.describe(&e, &m)
	_ = s.r.w.AppendBuffered(&e)
}

// describe fills method and id, pairing replies with their requests.
func (s *Stream) describe(e *journal.Entry, m *jsonrpc.Message) {
	switch {
	case m.IsCall():
		e.Method, e.ID = m.Method, m.ID
		if m.Kind == jsonrpc.KindRequest {
			s.corr.Request(s.side, m.ID, jsonrpc.Pending{Method: m.Method, Session: m.Session})
		}
	case m.IsReply():
		e.ID = m.ID
		if p, ok := s.corr.Reply(s.side, m.ID); ok {
			e.Method = p.Method
			if e.Session == "" {
				e.Session = p.Session
			}
		}
	case m.Type != "":
		e.Method = m.Type
		id := []byte(m.RequestID)
		switch m.Type {
		case "control_request":
			e.Method += "/" + m.Subtype
			s.corr.Request(s.side, id, jsonrpc.Pending{Method: m.Subtype, Session: m.Session})
		case "control_response":
			if p, ok := s.corr.Reply(s.side, id); ok {
				e.Method += "/" + p.Method
				if e.Session == "" {
					e.Session = p.Session
				}
			}
		default:
			if m.Subtype != "" {
				e.Method += "/" + m.Subtype
			}
		}
	}
}

// setText stores b as text (redacted) or, when it is not UTF-8, as b64.
func (s *Stream) setText(e *journal.Entry, b []byte) { s.r.setText(e, b) }

func (r *Recorder) setText(e *journal.Entry, b []byte) {
	if r.red != nil {
		var n int
		b, n = r.red.Text(b)
		e.Redacted += n
	}
	if utf8.Valid(b) {
		t := string(b)
		e.Text = &t
		return
	}
	e.B64 = append([]byte(nil), b...)
}
