package jsonrpc

import "time"

// Paused replies: a Node client of the CLI (the reference adapter) runs
// the continuation of a request it awaited before it handles the next line
// it reads, so what that continuation writes goes out before any answer to
// a later line. A Go caller that waits for a reply runs concurrently with
// the Conn's handling of later messages instead, and either can write
// first.
//
// StartPaused gives a caller Node's order for one request: its reply is
// handed over in order with the messages read before it (they are handled
// first), and the Conn handles no message read after it until the caller
// calls Resume, so the frames the caller writes in between come first.
// Reading goes on meanwhile, into the bounded queue. The pause lasts at
// most ResumeLimit, so a caller that never resumes (or that waits for
// another paused reply before it resumes) costs that long once, not a
// stall.

// ResumeLimit bounds how long a paused reply holds the Conn's handling.
const ResumeLimit = 250 * time.Millisecond

// StartPaused is Start for a request whose reply pauses the handling of
// later messages until Resume is called on the returned Outgoing. Call
// Resume on every path after Wait, before waiting for another paused
// reply of this Conn; never wait for one from a Handler of this Conn.
func (c *Conn) StartPaused(method string, params any) (*Outgoing, error) {
	return c.start(method, params, true)
}

// Resume lets the Conn go on after a paused reply (StartPaused); it is
// safe to call more than once, before the reply, or on any Outgoing.
func (p *Outgoing) Resume() {
	if p == nil || p.resume == nil {
		return
	}
	p.resumed.Do(func() { close(p.resume) })
}

// awaitResume holds the handling of messages after p's reply was handed
// over, until p is resumed or ResumeLimit passes.
func (c *Conn) awaitResume(p *Outgoing) {
	t := time.NewTimer(c.resumeLimit)
	defer t.Stop()
	select {
	case <-p.resume:
	case <-t.C:
		c.logf("jsonrpc: reply %s was not resumed within %v; reading on", p.id, c.resumeLimit)
	}
}
