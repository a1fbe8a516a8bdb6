package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"time"
)

// Request is a call or notification from the peer, handed to a Handler.
type Request struct {
	// ID is the raw id, kept as sent ("1" is answered with "1"); nil for a
	// notification.
	ID     json.RawMessage
	Method string
	Params json.RawMessage
}

// IsCall reports whether the request wants a response.
func (r *Request) IsCall() bool { return r.ID != nil }

// Handler serves the peer's requests and notifications. Handle is called
// for one message at a time, in arrival order. It returns the result, or
// an error (a *WireError keeps its code; any other error is answered as
// -32603 "Internal error" without its text). Handle must not wait for a
// Call to this peer: work that waits returns ErrAsyncResponse and answers
// later with Conn.Respond. For a notification the result is ignored.
type Handler interface {
	Handle(ctx context.Context, req *Request) (result any, err error)
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(ctx context.Context, req *Request) (any, error)

// Handle implements Handler.
func (f HandlerFunc) Handle(ctx context.Context, req *Request) (any, error) { return f(ctx, req) }

var _ Handler = HandlerFunc(nil)

// ErrAsyncResponse, returned by Handle for a call, means the handler took
// the call over and answers it exactly once with Conn.Respond. The request's
// context stays live until then, or until the peer cancels it.
var ErrAsyncResponse = errors.New("jsonrpc: the response is sent later with Respond")

// ErrClosed fails every call pending when the connection ends.
var ErrClosed = errors.New("jsonrpc: connection closed")

// queueSize bounds the messages read but not yet handled; past it the
// reader waits, so a flooding peer meets back-pressure, not our memory.
const queueSize = 256

// Conn is one peer connection: it reads frames, hands calls and
// notifications to the Handler in order, pairs the peer's replies with
// this side's calls, and writes every frame through one writer so frames
// never interleave. NewConn starts it; it ends when the reader ends.
type Conn struct {
	codec   Codec
	handler Handler
	logf    func(format string, args ...any)
	backlog func(busy bool) // WithBacklog
	preview func(*Request)  // WithPreview

	wmu  sync.Mutex
	w    io.Writer
	wbuf []byte // the frame being written, reused under wmu
	// held writes (hold.go), under wmu: how many Holds are open, the
	// frames they keep, the timer that writes them at HoldLimit, and the
	// error of a buffered write
	held       int
	pend       []byte
	flushTimer *time.Timer
	werr       error
	holdLimit  time.Duration // HoldLimit; a test's own
	// resumeLimit bounds a paused reader (StartPaused); a test's own
	resumeLimit time.Duration

	mu       sync.Mutex
	nextID   int64
	pending  map[string]*Outgoing
	inflight map[string]context.CancelFunc
	mapped   map[string]ResponseMap // MapResponse
	closed   bool
	err      error

	done chan struct{}
}

// Option configures a Conn.
type Option func(*Conn)

// WithLogf sets where the Conn reports frames it cannot read.
func WithLogf(f func(string, ...any)) Option { return func(c *Conn) { c.logf = f } }

// WithBacklog has the Conn call f(true) when it starts handling a message
// while more were already read behind it, and f(false) once it has handled
// every message read: the span in which what the handler writes elsewhere
// may go out together (another Conn's Hold and Release).
func WithBacklog(f func(busy bool)) Option { return func(c *Conn) { c.backlog = f } }

// WithPreview has the Conn show f each call and notification on the
// reading goroutine, in the order read, before it is queued for the
// Handler: f sees a message before any reply read after it is handed
// over, as a Node peer's handler runs its first steps before it reads on.
// f must return at once and must not call the Conn.
func WithPreview(f func(req *Request)) Option { return func(c *Conn) { c.preview = f } }

// NewConn starts a Conn reading r and writing w.
func NewConn(ctx context.Context, r io.Reader, w io.Writer, codec Codec, h Handler, opts ...Option) *Conn {
	c := &Conn{codec: codec, handler: h, w: w, logf: func(string, ...any) {}, holdLimit: HoldLimit,
		resumeLimit: ResumeLimit,
		pending:     map[string]*Outgoing{}, inflight: map[string]context.CancelFunc{}, done: make(chan struct{})}
	for _, o := range opts {
		o(c)
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	queue := make(chan queued, queueSize)
	go c.dispatch(ctx, queue)
	go func() {
		err := c.read(ctx, r, queue)
		cancel()
		c.shutdown(err)
		close(queue)
	}()
	return c
}

// Done is closed when the input has ended, every pending call has failed
// and every message read has been handled.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err is why the connection ended (nil at a clean end of input).
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// queued is a call or notification waiting for the Handler, with the
// context of a call (cancelled by the peer, the reply or the end).
type queued struct {
	in  Incoming
	ctx context.Context
	// reply is the paused call (StartPaused) that in answers: it is
	// delivered in order with the messages read before it.
	reply *Outgoing
}

func (c *Conn) read(ctx context.Context, r io.Reader, queue chan<- queued) error {
	fr := NewFramer(r)
	for {
		frame, err := fr.Next()
		if err != nil && !errors.Is(err, ErrTruncated) {
			var long *LineTooLongError
			if errors.As(err, &long) {
				c.logf("jsonrpc: %v", err)
				continue
			}
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		c.receive(ctx, frame, queue)
		if err != nil {
			return nil
		}
	}
}

func (c *Conn) receive(ctx context.Context, frame []byte, queue chan<- queued) {
	if firstByte(frame) == 0 {
		return
	}
	in, reply, err := c.codec.Decode(frame)
	if err != nil {
		c.logf("jsonrpc: unreadable frame: %v", err)
		if reply != nil {
			_ = c.writeFrame(reply)
		}
		return
	}
	switch in.Kind {
	case KindResponse, KindError:
		if p := c.claim(in.ID); p != nil && p.resume != nil {
			queue <- queued{in: in, reply: p}
		} else if p != nil {
			p.ch <- in
		}
	default:
		if in.Cancels != nil {
			c.cancelInflight(in.Cancels)
		}
		if c.preview != nil {
			c.preview(&Request{ID: in.ID, Method: in.Method, Params: in.Params})
		}
		q := queued{in: in, ctx: ctx}
		if in.Kind == KindRequest {
			var cancel context.CancelFunc
			q.ctx, cancel = context.WithCancel(ctx)
			c.mu.Lock()
			c.inflight[string(in.ID)] = cancel
			c.mu.Unlock()
		}
		queue <- q
	}
}

// claim takes the call a reply answers off the pending calls (nil for an
// unknown id).
func (c *Conn) claim(id json.RawMessage) *Outgoing {
	c.mu.Lock()
	p, ok := c.pending[string(id)]
	delete(c.pending, string(id))
	c.mu.Unlock()
	if !ok {
		c.logf("jsonrpc: reply to unknown id %s", id)
		return nil
	}
	return p
}

func (c *Conn) cancelInflight(id json.RawMessage) {
	c.mu.Lock()
	cancel := c.inflight[string(id)]
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (c *Conn) dispatch(ctx context.Context, queue <-chan queued) {
	busy := false
	for q := range queue {
		if !busy && len(queue) > 0 && c.backlog != nil {
			busy = true
			c.backlog(true)
		}
		if q.reply != nil {
			q.reply.ch <- q.in
			c.awaitResume(q.reply)
		} else {
			c.handle(q)
		}
		if busy && len(queue) == 0 {
			busy = false
			c.backlog(false)
		}
	}
	if busy {
		c.backlog(false)
	}
	close(c.done)
}

// handle passes one message read to the Handler and answers a call that
// the Handler did not take over.
func (c *Conn) handle(q queued) {
	req := &Request{ID: q.in.ID, Method: q.in.Method, Params: q.in.Params}
	result, err := c.handler.Handle(q.ctx, req)
	if req.IsCall() && !errors.Is(err, ErrAsyncResponse) {
		_ = c.Respond(req.ID, result, err)
	}
}

// Respond answers the peer's call id with result, or with err when it is
// not nil. It must be called exactly once per call that Handle passed on
// with ErrAsyncResponse, and never for one Handle answered.
func (c *Conn) Respond(id json.RawMessage, result any, err error) error {
	c.mu.Lock()
	cancel := c.inflight[string(id)]
	delete(c.inflight, string(id))
	remap := c.mapped[string(id)]
	delete(c.mapped, string(id))
	c.mu.Unlock()
	if cancel != nil {
		defer cancel()
	}
	if remap != nil {
		result, err = mapResponse(remap, result, err)
	}
	var frame []byte
	if err != nil {
		frame, err = c.codec.EncodeResponse(id, nil, toWireError(err))
	} else {
		var raw json.RawMessage
		if raw, _, err = marshal(result); err != nil {
			frame, err = c.codec.EncodeResponse(id, nil, ErrInternal)
		} else {
			frame, err = c.codec.EncodeResponse(id, raw, nil)
		}
	}
	if err != nil {
		return err
	}
	return c.writeFrame(frame)
}

func toWireError(err error) *WireError {
	var we *WireError
	if errors.As(err, &we) {
		return we
	}
	return ErrInternal
}

// Call sends a request and waits for its reply, decoding the result into
// result (unless it is nil). A reply with an error returns it as a
// *WireError; a connection that ends first returns ErrClosed. When ctx ends
// first, the peer is told (a Canceler codec's cancel frame) and Call
// returns ctx.Err().
func (c *Conn) Call(ctx context.Context, method string, params any, result any) error {
	p, err := c.Start(method, params)
	if err != nil {
		return err
	}
	return p.Wait(ctx, result)
}

// Outgoing is a request that was written and awaits its reply.
type Outgoing struct {
	c  *Conn
	id json.RawMessage
	ch chan Incoming
	// abandoned: Wait gave up on its ctx (guarded by c.mu).
	abandoned bool
	// resume, for StartPaused, is closed by Resume (once, by resumed).
	resume  chan struct{}
	resumed sync.Once
}

// Start writes a request now and returns it to be waited for: the request
// keeps its place among the frames the caller writes next, whenever the
// reply comes.
func (c *Conn) Start(method string, params any) (*Outgoing, error) {
	return c.start(method, params, false)
}

func (c *Conn) start(method string, params any, paused bool) (*Outgoing, error) {
	raw, _, err := marshal(params)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, ErrClosed
	}
	id := c.codec.NewID(c.nextID)
	c.nextID++
	p := &Outgoing{c: c, id: id, ch: make(chan Incoming, 1)}
	if paused {
		p.resume = make(chan struct{})
	}
	c.pending[string(id)] = p
	c.mu.Unlock()
	frame, err := c.codec.EncodeRequest(id, method, raw)
	if err == nil {
		err = c.writeRequest(frame)
	}
	if err != nil {
		c.forget(id)
		return nil, err
	}
	return p, nil
}

// Wait waits for the reply of p as Call does. A reply that arrived before
// ctx ended wins over ctx, also when Wait runs only after both.
func (p *Outgoing) Wait(ctx context.Context, result any) error {
	select {
	case in, ok := <-p.ch:
		return in.decode(ok, result)
	case <-ctx.Done():
		p.c.mu.Lock()
		_, waiting := p.c.pending[string(p.id)]
		if waiting {
			p.abandoned = true
			delete(p.c.pending, string(p.id))
		}
		p.c.mu.Unlock()
		if !waiting { // the reply arrived (or the connection ended): it is in p.ch or on its way
			in, ok := <-p.ch
			return in.decode(ok, result)
		}
		if cc, ok := p.c.codec.(Canceler); ok {
			if frame, err := cc.EncodeCancel(p.id); err == nil {
				_ = p.c.writeFrame(frame)
			}
		}
		return ctx.Err()
	}
}

// decode is what Wait returns for the reply in (ok: the channel was open).
func (in Incoming) decode(ok bool, result any) error {
	if !ok {
		return ErrClosed
	}
	if in.Err != nil {
		return in.Err
	}
	if result == nil || len(in.Result) == 0 {
		return nil
	}
	return json.Unmarshal(in.Result, result)
}

// Arrived reports whether the reply of p was read from the peer, or the
// connection ended, whether or not Wait returned it yet. It is false once
// Wait gave up on its ctx.
func (p *Outgoing) Arrived() bool {
	p.c.mu.Lock()
	defer p.c.mu.Unlock()
	_, waiting := p.c.pending[string(p.id)]
	return !waiting && !p.abandoned
}

func (c *Conn) forget(id json.RawMessage) {
	c.mu.Lock()
	delete(c.pending, string(id))
	c.mu.Unlock()
}

// Notify sends a notification. Params are marshalled once: params that
// are already what json.Marshal writes (json.Marshal's own output, or an
// Encoded value) go into the frame as they are.
func (c *Conn) Notify(method string, params any) error {
	raw, canonical, err := marshal(params)
	if err != nil {
		return err
	}
	if a, ok := c.codec.(notificationAppender); ok && canonical {
		c.wmu.Lock()
		defer c.wmu.Unlock()
		c.wbuf = append(a.appendNotification(c.wbuf[:0], method, raw), '\n')
		return c.writeLocked()
	}
	frame, err := c.codec.EncodeNotification(method, raw)
	if err != nil {
		return err
	}
	return c.writeFrame(frame)
}

// notificationAppender is a Codec that writes a notification frame
// straight into a buffer, for params already in json.Marshal's form.
type notificationAppender interface {
	appendNotification(dst []byte, method string, params []byte) []byte
}

// writeFrame writes one frame whole. Writing goes on after the input ended:
// calls read before the end are still answered.
func (c *Conn) writeFrame(frame []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if len(frame) > 0 && frame[len(frame)-1] == '\n' {
		return c.emitLocked(frame)
	}
	c.wbuf = append(append(c.wbuf[:0], frame...), '\n')
	return c.writeLocked()
}

// maxKeptBuffer bounds the write buffer kept between frames.
const maxKeptBuffer = 64 << 10

// writeLocked writes wbuf, one Write per frame unless the Conn is held
// (hold.go); wmu is held.
func (c *Conn) writeLocked() error {
	err := c.emitLocked(c.wbuf)
	if cap(c.wbuf) > maxKeptBuffer {
		c.wbuf = nil
	}
	return err
}

// shutdown fails every pending call at once and marks the Conn closed.
func (c *Conn) shutdown(err error) {
	c.mu.Lock()
	c.closed, c.err = true, err
	pending := c.pending
	c.pending = map[string]*Outgoing{}
	c.mu.Unlock()
	for _, p := range pending {
		close(p.ch)
	}
}

// Encoded is a value already encoded exactly as json.Marshal would
// encode it (compact, with <, >, & and U+2028/U+2029 escaped): Notify puts
// it in the frame without encoding it again.
type Encoded []byte

// marshal encodes v; canonical says the bytes are what json.Marshal
// writes, so a codec may use them as they are.
func marshal(v any) (raw json.RawMessage, canonical bool, err error) {
	switch v := v.(type) {
	case nil:
		return nil, false, nil
	case Encoded:
		return json.RawMessage(v), true, nil
	case json.RawMessage:
		return v, false, nil
	case []byte:
		return v, false, nil
	}
	raw, err = json.Marshal(v)
	return raw, err == nil, err
}

// ResponseMap turns the answer built for a call (its result, nil when err
// is set) into the answer written.
type ResponseMap func(result json.RawMessage, err error) (any, error)

// MapResponse makes the answer to the peer's call id go through f before
// it is written, whoever answers it and when: a protocol version answers
// with its own shape what the handler of another version built. It must
// be called before the call is answered.
func (c *Conn) MapResponse(id json.RawMessage, f ResponseMap) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mapped == nil {
		c.mapped = map[string]ResponseMap{}
	}
	c.mapped[string(id)] = f
}

func mapResponse(f ResponseMap, result any, err error) (any, error) {
	if err != nil {
		return f(nil, err)
	}
	raw, _, merr := marshal(result)
	if merr != nil {
		return f(nil, merr)
	}
	return f(raw, nil)
}
