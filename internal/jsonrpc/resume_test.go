package jsonrpc

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// pausedCall starts a paused call on c and has the peer answer it with a
// call of its own right behind the answer, in one write.
func pausedCall(t *testing.T, c *Conn, p *peer) *Outgoing {
	t.Helper()
	o, err := c.StartPaused("ask", nil)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := json.Marshal(p.next()["id"])
	p.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":1}` + "\n" +
		`{"jsonrpc":"2.0","id":"late","method":"echo","params":"late"}`)
	return o
}

func TestAPausedReplyHoldsTheNextLineUntilResume(t *testing.T) {
	c, p := newPeer(t, JSONRPC{}, HandlerFunc(echo))
	c.resumeLimit = time.Hour
	o := pausedCall(t, c, p)
	if err := o.Wait(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // the continuation takes its time
	if err := c.Notify("continuation", nil); err != nil {
		t.Fatal(err)
	}
	o.Resume()
	o.Resume() // a second Resume is harmless
	if m := p.next(); m["method"] != "continuation" {
		t.Fatalf("first frame after the reply = %v, want the continuation's", m)
	}
	if m := p.next(); m["id"] != "late" {
		t.Fatalf("second frame = %v, want the answer to the later line", m)
	}
}

func TestAPausedReplyNeverResumedHoldsTheReaderOnlyResumeLimit(t *testing.T) {
	c, p := newPeer(t, JSONRPC{}, HandlerFunc(echo))
	c.resumeLimit = 10 * time.Millisecond
	o := pausedCall(t, c, p)
	if err := o.Wait(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if m := p.next(); m["id"] != "late" {
		t.Fatalf("frame = %v, want the answer to the later line", m)
	}
}

func TestResumeBeforeTheReplyLeavesTheReaderFree(t *testing.T) {
	c, p := newPeer(t, JSONRPC{}, HandlerFunc(echo))
	c.resumeLimit = time.Hour
	o, err := c.StartPaused("ask", nil)
	if err != nil {
		t.Fatal(err)
	}
	o.Resume()
	id, _ := json.Marshal(p.next()["id"])
	p.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":1}` + "\n" +
		`{"jsonrpc":"2.0","id":"late","method":"echo","params":"late"}`)
	if m := p.next(); m["id"] != "late" {
		t.Fatalf("frame = %v, want the answer to the later line", m)
	}
	if err := o.Wait(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	(&Outgoing{}).Resume() // an unpaused call has nothing to resume
}

func TestAPausedReplyWaitsForTheMessagesReadBeforeIt(t *testing.T) {
	slow := HandlerFunc(func(ctx context.Context, r *Request) (any, error) {
		time.Sleep(20 * time.Millisecond) // a handler that takes its time
		return echo(ctx, r)
	})
	c, p := newPeer(t, JSONRPC{}, slow)
	c.resumeLimit = time.Hour
	o, err := c.StartPaused("ask", nil)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := json.Marshal(p.next()["id"])
	p.send(`{"jsonrpc":"2.0","id":"early","method":"echo","params":"early"}` + "\n" +
		`{"jsonrpc":"2.0","id":` + string(id) + `,"result":1}`)
	if err := o.Wait(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Notify("continuation", nil); err != nil {
		t.Fatal(err)
	}
	o.Resume()
	if m := p.next(); m["id"] != "early" {
		t.Fatalf("first frame = %v, want the answer to the line read before the reply", m)
	}
	if m := p.next(); m["method"] != "continuation" {
		t.Fatalf("second frame = %v, want the continuation's", m)
	}
}

func TestAPausedReplyReadBeforeTheEndIsDelivered(t *testing.T) {
	c, p := newPeer(t, JSONRPC{}, HandlerFunc(echo))
	o, err := c.StartPaused("ask", nil)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := json.Marshal(p.next()["id"])
	p.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":7}`)
	p.in.Close()
	<-c.Done()
	var got int
	if err := o.Wait(context.Background(), &got); err != nil || got != 7 {
		t.Fatalf("Wait = %d, %v; want the reply read before the end", got, err)
	}
	o.Resume()
}
