package conform

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// agentMsg is one frame the agent wrote to the editor, in arrival order.
type agentMsg struct {
	index  int
	raw    json.RawMessage
	method string
	id     json.RawMessage // requests and responses
	hasID  bool
	params map[string]any
	result json.RawMessage
	err    *rpcError
	at     time.Time
}

func (m *agentMsg) isRequest() bool      { return m.hasID && m.method != "" }
func (m *agentMsg) isResponse() bool     { return m.hasID && m.method == "" }
func (m *agentMsg) isNotification() bool { return !m.hasID && m.method != "" }

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string {
	if len(e.Data) > 0 {
		return fmt.Sprintf("JSON-RPC error %d: %s (data %s)", e.Code, e.Message, e.Data)
	}
	return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message)
}

// client is the editor end of the ACP connection: it writes requests,
// notifications and answers as newline-delimited JSON, reads the agent's
// frames, and remembers, for every frame it writes, the anchor that places
// it in the canonical transcript (see canon.go).
type client struct {
	wmu    sync.Mutex // serializes writes and their anchors
	w      io.Writer
	nextID int
	// anchors[k] is the index of the agent frame the k-th written frame is
	// placed after (-1: before every agent frame).
	anchors []int
	// scripted[k] marks a frame whose content the scenario wrote (a step's
	// prompt, request or notification), as opposed to one the driver
	// generated (initialize, the session opening, answers).
	scripted []bool

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced on every arrival
	msgs     []*agentMsg
	byID     map[string]*agentMsg // responses by id
	closed   bool
	readErr  error
	last     time.Time
	problems []string
	// notJSON are the first MaxNotJSON stdout lines that were not JSON-RPC.
	notJSON []string

	// answer handles an agent → editor request; it runs on the reader
	// goroutine and writes its reply with reply().
	answer func(m *agentMsg)
}

func newClient(w io.Writer) *client {
	return &client{w: w, changed: make(chan struct{}), byID: map[string]*agentMsg{}}
}

// write sends one frame placed after anchor.
func (c *client) write(frame map[string]any, anchor int) error {
	return c.writeFrame(frame, anchor, false)
}

func (c *client) writeFrame(frame map[string]any, anchor int, scripted bool) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(frame); err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.anchors = append(c.anchors, anchor)
	c.scripted = append(c.scripted, scripted)
	_, err := c.w.Write(buf.Bytes())
	return err
}

// request sends a request and returns its id key; scripted marks a request
// of a scenario step.
func (c *client) request(method string, params any, anchor int, scripted bool) (string, error) {
	c.wmu.Lock()
	id := c.nextID
	c.nextID++
	c.wmu.Unlock()
	frame := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		frame["params"] = params
	}
	return fmt.Sprint(id), c.writeFrame(frame, anchor, scripted)
}

func (c *client) notify(method string, params any, anchor int, scripted bool) error {
	frame := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		frame["params"] = params
	}
	return c.writeFrame(frame, anchor, scripted)
}

// reply answers agent request m, placed right after it.
func (c *client) reply(m *agentMsg, result any, rerr *rpcError) error {
	frame := map[string]any{"jsonrpc": "2.0", "id": m.id}
	if rerr != nil {
		frame["error"] = rerr
	} else {
		frame["result"] = result
	}
	return c.write(frame, m.index)
}

// read consumes the agent's stdout until EOF.
func (c *client) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 64<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var env struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params map[string]any  `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *rpcError       `json:"error"`
		}
		m := &agentMsg{raw: append(json.RawMessage(nil), line...), at: time.Now()}
		if err := json.Unmarshal(line, &env); err != nil {
			c.mu.Lock()
			c.problems = append(c.problems, fmt.Sprintf("the agent wrote a line that is not JSON-RPC: %.200s", line))
			if len(c.notJSON) < MaxNotJSON {
				c.notJSON = append(c.notJSON, fmt.Sprintf("%.200q", line))
			}
			c.mu.Unlock()
			continue
		}
		m.method, m.params, m.result, m.err = env.Method, env.Params, env.Result, env.Error
		m.hasID = len(env.ID) > 0 && string(env.ID) != "null"
		m.id = env.ID
		c.mu.Lock()
		m.index = len(c.msgs)
		c.msgs = append(c.msgs, m)
		if m.isResponse() {
			c.byID[string(bytes.TrimSpace(env.ID))] = m
		}
		c.last = m.at
		close(c.changed)
		c.changed = make(chan struct{})
		c.mu.Unlock()
		if m.isRequest() && c.answer != nil {
			c.answer(m)
		}
	}
	c.mu.Lock()
	c.closed = true
	c.readErr = sc.Err()
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

// snapshot returns the frames so far and a channel closed on the next change.
func (c *client) snapshot() ([]*agentMsg, chan struct{}, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.msgs, c.changed, c.closed
}

func (c *client) lastArrival() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

func (c *client) response(id string) *agentMsg {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byID[id]
}

// MaxNotJSON bounds the non-JSON stdout lines a RunError quotes.
const MaxNotJSON = 10

// notJSONLines returns the stdout lines that were not JSON-RPC, quoted.
func (c *client) notJSONLines() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.notJSON...)
}

func (c *client) addProblem(format string, args ...any) {
	c.mu.Lock()
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
	c.mu.Unlock()
}

func (c *client) takeAnchors() ([]int, []bool) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return append([]int(nil), c.anchors...), append([]bool(nil), c.scripted...)
}
