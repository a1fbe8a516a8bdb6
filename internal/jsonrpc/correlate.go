package jsonrpc

import "sync"

// Correlator pairs replies with the calls they answer, per direction: a
// request seen going one way is answered by a reply coming the other way.
// Ids are compared as raw bytes, so 1 and "1" are different ids, as the
// specification says. It is safe for concurrent use.
type Correlator struct {
	mu      sync.Mutex
	pending [2]map[string]Pending
}

// Pending is what is remembered about an unanswered request.
type Pending struct {
	Method  string
	Session string
}

// Side names one of the two peers of a connection.
type Side uint8

const (
	// SideA is the peer that starts the connection (the editor, or the agent on the CLI lane).
	SideA Side = iota
	// SideB is the other peer (the agent, or the CLI).
	SideB
)

// NewCorrelator returns an empty Correlator.
func NewCorrelator() *Correlator {
	return &Correlator{pending: [2]map[string]Pending{{}, {}}}
}

// Request notes that from sent a request with id.
func (c *Correlator) Request(from Side, id []byte, p Pending) {
	c.mu.Lock()
	c.pending[from][string(id)] = p
	c.mu.Unlock()
}

// Reply finds and forgets the request that a reply from `from` answers: one
// that the other side sent. ok is false for an unknown id.
func (c *Correlator) Reply(from Side, id []byte) (p Pending, ok bool) {
	c.mu.Lock()
	m := c.pending[1-from]
	p, ok = m[string(id)]
	if ok {
		delete(m, string(id))
	}
	c.mu.Unlock()
	return p, ok
}

// Len is the number of unanswered requests both ways.
func (c *Correlator) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending[0]) + len(c.pending[1])
}
