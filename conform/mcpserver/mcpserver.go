// Package mcpserver is the user MCP server a scenario gives its session
// (`session/new` params.mcpServers): a stdio MCP server with one tool,
// which the real Claude CLI starts and calls like any other, so that a
// recorded run holds what the CLI does with an MCP tool call: its
// permission, its result, and the backgrounding of a call that runs long
// (Claude Code's auto-background of MCP calls, an `mcp_task`).
//
// It speaks the MCP base protocol over stdio: newline-delimited JSON-RPC
// 2.0, `initialize`, `ping`, `tools/list` and `tools/call`. A call first
// asks the user through the client when Elicit says so (MCP
// `elicitation/create`, form or URL mode; after an accepted URL
// elicitation, `notifications/elicitation/complete`), waits Delay, then
// answers Reply as text content, followed by the user's action when it
// asked; `notifications/cancelled`
// drops a waiting call without an answer, as MCP asks. Other requests get
// -32601, a line that is no JSON object -32700, a call of another tool
// -32602. It ends when its input ends, dropping the calls under way:
// the client that would read their answers is gone.
package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// ProtocolVersion is the MCP version answered to a client that asks for
// one this server does not know.
const ProtocolVersion = "2025-06-18"

// known reports whether this server speaks the base protocol of MCP
// version v.
func known(v string) bool {
	switch v {
	case "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25":
		return true
	}
	return false
}

// maxLine bounds one request line: a longer one is answered -32700 and
// skipped.
const maxLine = 1 << 20

// Tool is the one tool a server offers.
type Tool struct {
	Server string        // the server's name in serverInfo
	Name   string        // the tool's name
	Reply  string        // the text of every result
	Delay  time.Duration // how long a call runs before its result
	// Elicit is "form" or "url" for a tool that asks the user first
	// ("" asks nothing), with Message and, for a URL, URL.
	Elicit, Message, URL string
}

// Elicitation modes.
const (
	ElicitForm = "form"
	ElicitURL  = "url"
)

// JSON-RPC error codes.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeNoMethod       = -32601
	codeInvalidParams  = -32602
)

type request struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
	// Result and Error make a response to a request of the server.
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

type server struct {
	tool    Tool
	mu      sync.Mutex
	out     *bufio.Writer
	calls   sync.WaitGroup
	pending map[string]context.CancelFunc
	asked   map[string]chan request // elicitations awaiting the client, by request id
	asks    int
}

// Serve answers the requests read from in on out until in ends or ctx is
// done, then drops the calls under way and returns once they are gone.
func Serve(ctx context.Context, t Tool, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &server{tool: t, out: bufio.NewWriter(out), pending: map[string]context.CancelFunc{}, asked: map[string]chan request{}}
	r := bufio.NewReaderSize(in, 64<<10)
	var err error
	for ctx.Err() == nil {
		var line []byte
		line, err = readLine(r)
		if len(line) > 0 {
			s.handle(ctx, line)
		}
		if err != nil {
			break
		}
	}
	cancel()
	s.calls.Wait()
	if err == io.EOF {
		return nil
	}
	return err
}

// readLine reads one line without its end. A line over maxLine is read
// to its end and returned as "{" so that it is answered -32700.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) <= maxLine {
			line = append(line, chunk...)
		} else {
			line = []byte("{")
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if len(line) > 0 && line[len(line)-1] == '\n' {
			line = line[:len(line)-1]
		}
		return line, err
	}
}

func (s *server) handle(ctx context.Context, line []byte) {
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		s.fail(nil, codeParse, "parse error: each line must be one JSON-RPC object")
		return
	}
	if req.Method == "" {
		if req.Result != nil || req.Error != nil {
			s.answered(req)
		} else if req.ID != nil {
			s.fail(req.ID, codeInvalidRequest, "invalid request: no method")
		}
		return
	}
	if req.ID == nil {
		if req.Method == "notifications/cancelled" {
			s.cancel(req.Params)
		}
		return
	}
	switch req.Method {
	case "initialize":
		s.answer(req.ID, s.initialize(req.Params))
	case "ping":
		s.answer(req.ID, map[string]any{})
	case "tools/list":
		s.answer(req.ID, map[string]any{"tools": []any{s.toolSchema()}})
	case "tools/call":
		s.call(ctx, req)
	default:
		s.fail(req.ID, codeNoMethod, "method not found: "+req.Method)
	}
}

func (s *server) initialize(params json.RawMessage) map[string]any {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(params, &p)
	version := ProtocolVersion
	if known(p.ProtocolVersion) {
		version = p.ProtocolVersion
	}
	return map[string]any{
		"protocolVersion": version,
		"capabilities":    map[string]any{"tools": map[string]any{}},
		"serverInfo":      map[string]any{"name": s.tool.Server, "version": "1.0.0"},
	}
}

func (s *server) toolSchema() map[string]any {
	return map[string]any{
		"name":        s.tool.Name,
		"description": "The scenario's " + s.tool.Name + " tool.",
		"inputSchema": map[string]any{"type": "object", "additionalProperties": true},
	}
}

// call answers a tools/call after the tool's delay, unless the client
// cancels it first.
func (s *server) call(ctx context.Context, req request) {
	var p struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(req.Params, &p); err != nil || p.Name != s.tool.Name {
		s.fail(req.ID, codeInvalidParams, fmt.Sprintf("unknown tool %q: this server has %q", p.Name, s.tool.Name))
		return
	}
	cctx, cancel := context.WithCancel(ctx)
	key := string(req.ID)
	s.mu.Lock()
	s.pending[key] = cancel
	s.mu.Unlock()
	s.calls.Add(1)
	go func() {
		defer s.calls.Done()
		defer s.forget(key)
		text := s.tool.Reply
		if s.tool.Elicit != "" {
			action, ok := s.elicit(cctx)
			if !ok {
				return
			}
			text += " (" + action + ")"
		}
		t := time.NewTimer(s.tool.Delay)
		defer t.Stop()
		select {
		case <-cctx.Done():
			return
		case <-t.C:
		}
		s.answer(req.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
	}()
}

// elicit asks the user through the client and returns the action of the
// answer ("error" for an error answer); false when ctx ends first.
func (s *server) elicit(ctx context.Context) (string, bool) {
	s.mu.Lock()
	s.asks++
	id := fmt.Sprintf("elicit-%d", s.asks)
	wait := make(chan request, 1)
	s.asked[`"`+id+`"`] = wait
	s.mu.Unlock()
	params := map[string]any{"mode": s.tool.Elicit, "message": s.tool.Message}
	if s.tool.Elicit == ElicitURL {
		params["url"], params["elicitationId"] = s.tool.URL, id
	} else {
		params["requestedSchema"] = formSchema()
	}
	s.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": "elicitation/create", "params": params})
	var resp request
	select {
	case <-ctx.Done():
		return "", false
	case resp = <-wait:
	}
	var r struct {
		Action string `json:"action"`
	}
	if resp.Error != nil || json.Unmarshal(resp.Result, &r) != nil || r.Action == "" {
		return "error", true
	}
	if s.tool.Elicit == ElicitURL && r.Action == "accept" {
		s.write(map[string]any{"jsonrpc": "2.0", "method": "notifications/elicitation/complete",
			"params": map[string]any{"elicitationId": id}})
	}
	return r.Action, true
}

// formSchema is what a form elicitation asks for.
func formSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"environment": map[string]any{"type": "string", "title": "Environment", "enum": []any{"staging", "production"}},
		},
		"required": []any{"environment"},
	}
}

// answered hands the client's response to the elicitation that waits for
// it; a response to nothing asked is dropped.
func (s *server) answered(resp request) {
	s.mu.Lock()
	wait := s.asked[string(resp.ID)]
	delete(s.asked, string(resp.ID))
	s.mu.Unlock()
	if wait != nil {
		wait <- resp
	}
}

func (s *server) cancel(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	s.mu.Lock()
	cancel := s.pending[string(p.RequestID)]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (s *server) forget(key string) {
	s.mu.Lock()
	cancel := s.pending[key]
	delete(s.pending, key)
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (s *server) answer(id json.RawMessage, result any) {
	s.write(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func (s *server) fail(id json.RawMessage, code int, msg string) {
	var rid any // a parse error answers id null
	if id != nil {
		rid = id
	}
	s.write(map[string]any{"jsonrpc": "2.0", "id": rid, "error": map[string]any{"code": code, "message": msg}})
}

func (s *server) write(msg map[string]any) {
	b, err := json.Marshal(msg)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out.Write(append(b, '\n'))
	s.out.Flush()
}
