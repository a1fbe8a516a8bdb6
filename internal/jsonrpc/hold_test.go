package jsonrpc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// writes records each Write a Conn makes, as one string.
type writes struct {
	mu    sync.Mutex
	got   []string
	fail  error
	wrote chan struct{}
}

func newWrites() *writes { return &writes{wrote: make(chan struct{}, 100)} }

func (w *writes) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.got = append(w.got, string(b))
	select {
	case w.wrote <- struct{}{}:
	default:
	}
	if err := w.fail; err != nil {
		w.fail = nil
		return 0, err
	}
	return len(b), nil
}

func (w *writes) all() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.got...)
}

// heldConn is a Conn that reads nothing until the test ends and writes to
// w; its held frames wait for their Release (an hour's HoldLimit), so that
// a loaded machine never flushes them early.
func heldConn(t *testing.T, w io.Writer) *Conn {
	t.Helper()
	r, pw := io.Pipe()
	c := NewConn(context.Background(), r, w, JSONRPC{}, HandlerFunc(func(context.Context, *Request) (any, error) { return nil, nil }))
	c.holdLimit = time.Hour
	t.Cleanup(func() { pw.Close(); <-c.Done() })
	return c
}

func TestHeldFramesGoOutInOneWriteOnTheLastRelease(t *testing.T) {
	w := newWrites()
	c := heldConn(t, w)
	c.Hold()
	c.Hold()
	for i := range 3 {
		if err := c.Notify("n", map[string]int{"i": i}); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Respond([]byte(`7`), "ok", nil); err != nil {
		t.Fatal(err)
	}
	c.Release()
	if got := w.all(); len(got) != 0 {
		t.Fatalf("wrote %q while one Hold was still open", got)
	}
	c.Release()
	want := `{"jsonrpc":"2.0","method":"n","params":{"i":0}}` + "\n" +
		`{"jsonrpc":"2.0","method":"n","params":{"i":1}}` + "\n" +
		`{"jsonrpc":"2.0","method":"n","params":{"i":2}}` + "\n" +
		`{"id":7,"jsonrpc":"2.0","result":"ok"}` + "\n"
	if got := w.all(); len(got) != 1 || got[0] != want {
		t.Fatalf("writes = %q, want the four frames in one write:\n%s", got, want)
	}
	if err := c.Notify("after", nil); err != nil {
		t.Fatal(err)
	}
	if got := w.all(); len(got) != 2 {
		t.Fatalf("a frame after the release waited: writes = %q", got)
	}
}

func TestHeldFramesGoOutWithinHoldLimit(t *testing.T) {
	w := newWrites()
	c := heldConn(t, w)
	c.holdLimit = HoldLimit
	c.Hold()
	defer c.Release()
	if err := c.Notify("n", nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.wrote:
	case <-time.After(5 * time.Second): // a bound on a hang, not a speed check
		t.Fatal("a held frame was never written without its Release")
	}
	if got := w.all(); len(got) != 1 || !strings.Contains(got[0], `"method":"n"`) {
		t.Fatalf("writes = %q", got)
	}
}

func TestARequestTakesTheHeldFramesWithIt(t *testing.T) {
	w := newWrites()
	c := heldConn(t, w)
	c.Hold()
	defer c.Release()
	_ = c.Notify("before", nil)
	if _, err := c.Start("ask", nil); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(w.all(), "")
	if !strings.Contains(got, `"method":"before"`) || !strings.Contains(got, `"method":"ask"`) ||
		strings.Index(got, "before") > strings.Index(got, "ask") {
		t.Fatalf("a held Conn's request did not go out at once after what it held: %q", got)
	}
}

func TestABufferedWriteErrorIsReturnedLater(t *testing.T) {
	w := newWrites()
	w.fail = errors.New("broken pipe")
	c := heldConn(t, w)
	c.Hold()
	if err := c.Notify("n", nil); err != nil {
		t.Fatalf("a held frame failed before it was written: %v", err)
	}
	c.Release()
	if err := c.Notify("m", nil); err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Fatalf("the write after a failed flush = %v, want the flush's error (the writer is broken)", err)
	}
}

func TestAHeldBufferPastItsBoundIsWritten(t *testing.T) {
	w := newWrites()
	c := heldConn(t, w)
	c.Hold()
	defer c.Release()
	big := strings.Repeat("x", maxHeld/4)
	for range 4 {
		_ = c.Notify("n", big)
	}
	if got := w.all(); len(got) != 1 {
		t.Fatalf("a held buffer of %d bytes made %d writes, want 1", 4*len(big), len(got))
	}
}

// TestBacklogSpansTheQueuedMessages: a Conn given lines faster than its
// handler takes them reports the backlog once it starts, and its end once
// every line was handled; the handler saw every line.
func TestBacklogSpansTheQueuedMessages(t *testing.T) {
	var lines bytes.Buffer
	for i := range 50 {
		fmt.Fprintf(&lines, `{"jsonrpc":"2.0","method":"n","params":{"i":%d}}`+"\n", i)
	}
	var mu sync.Mutex
	var events []string
	handled := 0
	release := make(chan struct{})
	h := HandlerFunc(func(context.Context, *Request) (any, error) {
		if handled == 0 {
			<-release // the reader queues the other lines meanwhile
		}
		mu.Lock()
		handled++
		mu.Unlock()
		return nil, nil
	})
	c := NewConn(context.Background(), &gated{r: &lines, after: release}, io.Discard, JSONRPC{}, h,
		WithBacklog(func(busy bool) { mu.Lock(); events = append(events, fmt.Sprint(busy)); mu.Unlock() }))
	<-c.Done()
	mu.Lock()
	defer mu.Unlock()
	if handled != 50 {
		t.Fatalf("handled %d of 50 lines", handled)
	}
	if len(events) == 0 || events[0] != "true" || events[len(events)-1] != "false" {
		t.Fatalf("backlog events = %v, want true first and false last", events)
	}
	for i, e := range events {
		if want := fmt.Sprint(i%2 == 0); e != want {
			t.Fatalf("backlog events = %v: not alternating", events)
		}
	}
}

// gated reads r whole, then closes after (so that the first message's
// handler goes on only once every line was read and queued).
type gated struct {
	r     io.Reader
	after chan struct{}
	once  sync.Once
}

func (g *gated) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err == io.EOF {
		g.once.Do(func() { close(g.after) })
	}
	return n, err
}
