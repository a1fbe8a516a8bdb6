package jsonrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// peer is the far side of a Conn under test: it writes lines to the Conn
// and reads the Conn's frames one line at a time.
type peer struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
}

func newPeer(t *testing.T, codec Codec, h Handler, opts ...Option) (*Conn, *peer) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &peer{t: t, in: inW, lines: make(chan string, 4096)}
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	c := NewConn(context.Background(), inR, outW, codec, h, opts...)
	t.Cleanup(func() { inW.Close(); <-c.Done(); outW.Close() })
	return c, p
}

func (p *peer) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

func (p *peer) next() map[string]any {
	p.t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			p.t.Fatal("connection output ended")
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			p.t.Fatalf("frame %q: %v", l, err)
		}
		return m
	case <-time.After(5 * time.Second):
		p.t.Fatal("no frame within 5s")
	}
	return nil
}

func echo(ctx context.Context, r *Request) (any, error) {
	switch r.Method {
	case "echo":
		return r.Params, nil
	case "fail":
		return nil, errors.New("secret /home/x token")
	case "bad":
		return nil, Errorf(ErrInvalidParams, "Invalid params")
	}
	return nil, &WireError{Code: ErrMethodNotFound.Code, Message: `"Method not found": ` + r.Method}
}

func TestConnAnswersWithTheRawID(t *testing.T) {
	_, p := newPeer(t, JSONRPC{}, HandlerFunc(echo))
	for _, id := range []string{`"1"`, `1`, `"abc"`, `0`} {
		p.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"echo","params":{"a":1}}`)
		got := p.next()
		raw, _ := json.Marshal(got["id"])
		if string(raw) != id {
			t.Errorf("id %s answered with %s", id, raw)
		}
		if fmt.Sprint(got["result"]) != "map[a:1]" {
			t.Errorf("result = %v", got["result"])
		}
	}
}

func TestConnErrors(t *testing.T) {
	_, p := newPeer(t, JSONRPC{}, HandlerFunc(echo))
	cases := []struct {
		line string
		code float64
		id   any
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"nope"}`, -32601, 1.0},
		{`{"jsonrpc":"2.0","id":2,"method":"bad"}`, -32602, 2.0},
		{`{"jsonrpc":"2.0","id":3,"method":"fail"}`, -32603, 3.0},
		{`{not json`, -32700, nil},
		{`[1,2]`, -32600, nil},
		{`42`, -32600, nil},
	}
	for _, c := range cases {
		p.send(c.line)
		got := p.next()
		e, _ := got["error"].(map[string]any)
		if e == nil || e["code"] != c.code || got["id"] != c.id {
			t.Errorf("%s → %v, want code %v id %v", c.line, got, c.code, c.id)
		}
		if strings.Contains(fmt.Sprint(e["message"]), "secret") {
			t.Errorf("%s: error text leaked: %v", c.line, e["message"])
		}
	}
	p.send(`{"jsonrpc":"2.0","id":9,"method":"echo","params":[]}`)
	if got := p.next(); got["id"] != 9.0 {
		t.Errorf("after bad input the connection does not serve: %v", got)
	}
}

func TestConnRepliesInAnyOrder(t *testing.T) {
	var c *Conn
	h := HandlerFunc(func(ctx context.Context, r *Request) (any, error) {
		if r.Method == "slow" {
			id := r.ID
			go func() { time.Sleep(50 * time.Millisecond); _ = c.Respond(id, "slow done", nil) }()
			return nil, ErrAsyncResponse
		}
		return "fast done", nil
	})
	c, p := newPeer(t, JSONRPC{}, h)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"slow"}`)
	p.send(`{"jsonrpc":"2.0","id":2,"method":"fast"}`)
	if a, b := p.next(), p.next(); a["id"] != 2.0 || b["id"] != 1.0 || b["result"] != "slow done" {
		t.Errorf("got %v then %v, want the fast reply first", a, b)
	}
}

func TestConnCallWaitsForTheReplyAndClosedPeerFailsPending(t *testing.T) {
	c, p := newPeer(t, JSONRPC{}, HandlerFunc(echo))
	var got struct{ OK bool }
	errc := make(chan error, 3)
	go func() {
		errc <- c.Call(context.Background(), "session/request_permission", map[string]int{"x": 1}, &got)
	}()
	req := p.next()
	if req["method"] != "session/request_permission" || req["id"] != 0.0 {
		t.Fatalf("request = %v", req)
	}
	p.send(`{"jsonrpc":"2.0","id":0,"result":{"OK":true}}`)
	if err := <-errc; err != nil || !got.OK {
		t.Fatalf("Call = %v, %+v", err, got)
	}
	go func() { errc <- c.Call(context.Background(), "a", nil, nil) }()
	go func() { errc <- c.Call(context.Background(), "b", nil, nil) }()
	p.next()
	p.next()
	p.in.Close()
	for range 2 {
		if err := <-errc; !errors.Is(err, ErrClosed) {
			t.Errorf("pending call after close = %v, want ErrClosed", err)
		}
	}
}

func TestConnFramesNeverInterleave(t *testing.T) {
	c, p := newPeer(t, JSONRPC{}, HandlerFunc(echo))
	big := strings.Repeat("x", 100<<10)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() { defer wg.Done(); _ = c.Notify("n", map[string]any{"i": i, "s": big}) }()
	}
	wg.Wait()
	for range 50 {
		if m := p.next(); m["method"] != "n" {
			t.Fatalf("frame = %v", m)
		}
	}
}

func TestStreamJSONControlBothWays(t *testing.T) {
	got := make(chan *Request, 8)
	var c *Conn
	h := HandlerFunc(func(ctx context.Context, r *Request) (any, error) {
		got <- r
		switch r.Method {
		case "can_use_tool":
			return map[string]string{"behavior": "allow"}, nil
		case "hook_callback":
			id := r.ID
			go func() { <-ctx.Done(); got <- &Request{Method: "cancelled " + string(id)} }()
			return nil, ErrAsyncResponse
		}
		if r.IsCall() {
			return nil, Errorf(ErrMethodNotFound, "unsupported control request: %s", r.Method)
		}
		return nil, nil
	})
	c, p := newPeer(t, StreamJSON{}, h)
	p.send(`{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Bash"}}`)
	if r := <-got; r.Method != "can_use_tool" || string(r.ID) != `"r1"` {
		t.Fatalf("request = %+v", r)
	}
	resp := p.next()["response"].(map[string]any)
	if resp["subtype"] != "success" || resp["request_id"] != "r1" || fmt.Sprint(resp["response"]) != "map[behavior:allow]" {
		t.Errorf("control_response = %v", resp)
	}
	p.send(`garbage from the CLI`)
	p.send(`{"type":"control_request","request_id":"r2","request":{"subtype":"teleport"}}`)
	<-got
	if resp := p.next()["response"].(map[string]any); resp["subtype"] != "error" || resp["request_id"] != "r2" {
		t.Errorf("unknown subtype answered %v", resp)
	}
	p.send(`{"type":"control_request","request_id":"r3","request":{"subtype":"hook_callback"}}`)
	<-got
	p.send(`{"type":"control_cancel_request","request_id":"r3"}`)
	seen := map[string]bool{(<-got).Method: true, (<-got).Method: true}
	if !seen[`cancelled "r3"`] || !seen["control_cancel_request"] {
		t.Errorf("cancel did not end the request's context: %v", seen)
	}
	p.send(`{"type":"assistant","message":{"id":"m"}}`)
	if r := <-got; r.Method != "assistant" || !strings.Contains(string(r.Params), `"id":"m"`) || r.IsCall() {
		t.Errorf("message = %+v", r)
	}

	errc := make(chan error, 1)
	var usage map[string]any
	go func() {
		errc <- c.Call(context.Background(), "get_context_usage", map[string]string{"detail": "summary"}, &usage)
	}()
	req := p.next()
	body := req["request"].(map[string]any)
	if req["type"] != "control_request" || body["subtype"] != "get_context_usage" || body["detail"] != "summary" {
		t.Fatalf("request = %v", req)
	}
	p.send(fmt.Sprintf(`{"type":"control_response","response":{"subtype":"success","request_id":%q,"response":{"total":5}}}`, req["request_id"]))
	if err := <-errc; err != nil || usage["total"] != 5.0 {
		t.Fatalf("Call = %v %v", err, usage)
	}
	go func() { errc <- c.Call(context.Background(), "interrupt", nil, nil) }()
	req = p.next()
	p.send(fmt.Sprintf(`{"type":"control_response","response":{"subtype":"error","request_id":%q,"error":"no turn"}}`, req["request_id"]))
	var we *WireError
	if err := <-errc; !errors.As(err, &we) || we.Message != "no turn" {
		t.Errorf("error reply = %v", err)
	}
}

func TestCallCancelledTellsThePeer(t *testing.T) {
	c, p := newPeer(t, JSONRPC{}, HandlerFunc(echo))
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- c.Call(ctx, "session/request_permission", nil, nil) }()
	req := p.next()
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Call = %v", err)
	}
	got := p.next()
	params, _ := got["params"].(map[string]any)
	if got["method"] != "$/cancel_request" || params["requestId"] != req["id"] {
		t.Errorf("cancel frame = %v, want $/cancel_request for %v", got, req["id"])
	}
}

// TestNotifyWritesWhatEncodingJSONWrites checks the one-pass notification
// frame against json.Marshal of the wire message, for params the Conn
// marshals itself, params given raw (compacted and escaped by the codec),
// and Encoded params.
func TestNotifyWritesWhatEncodingJSONWrites(t *testing.T) {
	type update struct {
		Text string `json:"text"`
		N    int    `json:"n,omitempty"`
	}
	params := []any{
		map[string]any{"sessionId": "s<1>", "update": map[string]any{"text": "a & b\u2028\n\"q\"", "n": 1.5}},
		update{Text: "<b>\xff</b>"},
		[]int{1, 2},
		map[string]any(nil),
		json.RawMessage(` { "a" : "<x>" , "b" : [ 1 , 2 ] } `),
		"plain string",
	}
	for _, method := range []string{"session/update", "", "m<&>"} {
		for _, p := range params {
			var buf strings.Builder
			c := NewConn(context.Background(), strings.NewReader(""), &buf, JSONRPC{}, HandlerFunc(echo))
			<-c.Done()
			if err := c.Notify(method, p); err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(p)
			if r, ok := p.(json.RawMessage); ok {
				raw = r
			}
			want, _ := json.Marshal(wireMsg{JSONRPC: "2.0", Method: method, Params: raw})
			if buf.String() != string(want)+"\n" {
				t.Errorf("Notify(%q, %v)\n got %s\nwant %s", method, p, buf.String(), want)
			}
			if canonical, _ := json.Marshal(p); p != nil {
				buf.Reset()
				_ = c.Notify(method, Encoded(canonical))
				if buf.String() != string(want)+"\n" {
					t.Errorf("Notify(%q, Encoded %s)\n got %s\nwant %s", method, canonical, buf.String(), want)
				}
			}
		}
	}
}

// A reply read before the waiter's ctx ended wins over the ctx, even when
// Wait runs only after both: the answer is not thrown away, and the peer
// gets no cancel for a request it answered. Arrived tells it beforehand.
func TestReplyThatArrivedWinsOverCancel(t *testing.T) {
	for i := range 50 {
		c, p := newPeer(t, JSONRPC{}, HandlerFunc(echo))
		out, err := c.Start("session/request_permission", nil)
		if err != nil {
			t.Fatal(err)
		}
		req := p.next()
		if out.Arrived() {
			t.Fatal("Arrived before the peer answered")
		}
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":{"outcome":"cancelled"}}`, req["id"]))
		for deadline := time.Now().Add(5 * time.Second); !out.Arrived(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the reply never arrived")
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var got struct{ Outcome string }
		if err := out.Wait(ctx, &got); err != nil || got.Outcome != "cancelled" {
			t.Fatalf("run %d: Wait = %v, %+v; want the reply", i, err, got)
		}
	}
}

// A message read before a reply is previewed before the reply is handed
// over, however busy the Handler is: the editor's session/close is seen
// before its answer to a permission request sent with it.
func TestPreviewSeesAMessageBeforeALaterReply(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	var mu sync.Mutex
	var seen []string
	busy := HandlerFunc(func(context.Context, *Request) (any, error) { <-release; return nil, nil })
	c, p := newPeer(t, JSONRPC{}, busy, WithPreview(func(r *Request) {
		mu.Lock()
		seen = append(seen, r.Method)
		mu.Unlock()
	}))
	out, err := c.Start("session/request_permission", nil)
	if err != nil {
		t.Fatal(err)
	}
	req := p.next()
	p.send(`{"jsonrpc":"2.0","id":7,"method":"session/prompt"}`) // holds the Handler
	p.send(`{"jsonrpc":"2.0","id":8,"method":"session/close"}`)
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":{}}`, req["id"]))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := out.Wait(ctx, nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"session/prompt", "session/close"}; fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Fatalf("previewed %q before the reply; want %q", seen, want)
	}
}

// Arrived is false for a request whose waiter gave up.
func TestArrivedIsFalseOnceAbandoned(t *testing.T) {
	c, p := newPeer(t, JSONRPC{}, HandlerFunc(echo))
	out, err := c.Start("session/request_permission", nil)
	if err != nil {
		t.Fatal(err)
	}
	p.next()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := out.Wait(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait = %v", err)
	}
	if out.Arrived() {
		t.Error("Arrived after Wait gave up")
	}
}
