package jsonrpc

import "time"

// Held writes: a Conn writes each frame with one Write, which on a pipe is
// one system call per frame. When the agent has a backlog of Claude Code
// lines to turn into editor frames (a text stream arrives faster than it is
// handled), the frames of that backlog can go out together: Hold keeps the
// frames written from then on in a buffer, and Release writes them with one
// Write once nothing holds the Conn any more. The bytes and their order are
// the same; only the number of Writes changes.
//
// Nothing waits on a held frame for long: a request goes out at once with
// what was held before it (its reply is awaited), and the buffer is written
// at the latest HoldLimit after its first frame (a handler that blocks while the
// Conn is held, or a Hold without its Release), or once it reaches
// maxHeld bytes.

// HoldLimit bounds how long a held frame waits in the buffer.
const HoldLimit = 2 * time.Millisecond

// maxHeld is the buffered bytes past which a held Conn writes at once.
const maxHeld = 64 << 10

// Hold makes the Conn keep the frames written from now on until as many
// Releases as Holds were called (or HoldLimit passed). Holds nest.
func (c *Conn) Hold() {
	c.wmu.Lock()
	c.held++
	c.wmu.Unlock()
}

// Release ends one Hold; the last one writes what the buffer holds.
func (c *Conn) Release() {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.held > 0 {
		c.held--
	}
	if c.held == 0 {
		_ = c.flushLocked()
	}
}

// emitLocked writes frame (a whole frame, newline included), or buffers it
// while the Conn is held; wmu is held. A write error of a buffered frame is
// returned by the next write.
func (c *Conn) emitLocked(frame []byte) error {
	if c.held == 0 && len(c.pend) == 0 {
		if c.werr != nil {
			return c.werr
		}
		_, err := c.w.Write(frame)
		return err
	}
	first := len(c.pend) == 0
	c.pend = append(c.pend, frame...)
	if c.held == 0 || len(c.pend) >= maxHeld {
		return c.flushLocked()
	}
	if first {
		c.armFlush()
	}
	return c.werr
}

// armFlush makes sure the buffer is written within HoldLimit; wmu is held.
func (c *Conn) armFlush() {
	if c.flushTimer == nil {
		c.flushTimer = time.AfterFunc(c.holdLimit, func() {
			c.wmu.Lock()
			defer c.wmu.Unlock()
			_ = c.flushLocked()
		})
		return
	}
	c.flushTimer.Reset(c.holdLimit)
}

// flushLocked writes the buffered frames with one Write; wmu is held.
func (c *Conn) flushLocked() error {
	if len(c.pend) == 0 {
		return c.werr
	}
	if c.flushTimer != nil {
		c.flushTimer.Stop()
	}
	if c.werr == nil {
		_, c.werr = c.w.Write(c.pend)
	}
	if cap(c.pend) > maxKeptBuffer {
		c.pend = nil
	} else {
		c.pend = c.pend[:0]
	}
	return c.werr
}

// writeRequest writes a request frame and, on a held Conn, what was held
// before it: the caller waits for the reply.
func (c *Conn) writeRequest(frame []byte) error {
	if err := c.writeFrame(frame); err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.flushLocked()
}
