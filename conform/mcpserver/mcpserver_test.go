package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// session runs a server with its input and output as pipes.
type session struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error
}

func start(t *testing.T, tool Tool) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, out: bufio.NewScanner(outR), done: make(chan error, 1)}
	go func() {
		s.done <- Serve(context.Background(), tool, inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close() })
	return s
}

func (s *session) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatal(err)
	}
}

// end closes the server's input and fails with hung unless Serve returns
// without an error soon.
func (s *session) end(hung string) {
	s.t.Helper()
	s.in.Close()
	select {
	case err := <-s.done:
		if err != nil {
			s.t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		s.t.Fatal(hung)
	}
}

func (s *session) read() map[string]any {
	s.t.Helper()
	if !s.out.Scan() {
		s.t.Fatalf("no answer: %v", s.out.Err())
	}
	var m map[string]any
	if err := json.Unmarshal(s.out.Bytes(), &m); err != nil {
		s.t.Fatalf("answer %q: %v", s.out.Text(), err)
	}
	return m
}

func errCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

var search = Tool{Server: "github", Name: "search_issues", Reply: "#12 Crash on start", Delay: 50 * time.Millisecond}

func TestInitializeAndList(t *testing.T) {
	s := start(t, search)
	s.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}`)
	res := s.read()["result"].(map[string]any)
	if res["protocolVersion"] != "2025-11-25" || res["serverInfo"].(map[string]any)["name"] != "github" {
		t.Fatalf("initialize: %v", res)
	}
	s.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01"}}`)
	if v := s.read()["result"].(map[string]any)["protocolVersion"]; v != ProtocolVersion {
		t.Fatalf("an unknown version is answered %v, want %s", v, ProtocolVersion)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	s.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	tools := s.read()["result"].(map[string]any)["tools"].([]any)
	if len(tools) != 1 || tools[0].(map[string]any)["name"] != "search_issues" {
		t.Fatalf("tools/list: %v", tools)
	}
}

func TestCallAnswersAfterItsDelay(t *testing.T) {
	s := start(t, search)
	began := time.Now()
	s.send(`{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"search_issues","arguments":{"query":"crash"}}}`)
	m := s.read()
	if since := time.Since(began); since < search.Delay {
		t.Fatalf("answered after %s, before the delay %s", since, search.Delay)
	}
	if m["id"] != "c1" {
		t.Fatalf("id %v", m["id"])
	}
	text := m["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]
	if text != search.Reply {
		t.Fatalf("result text %v", text)
	}
}

func TestCancelledCallGetsNoAnswer(t *testing.T) {
	s := start(t, Tool{Server: "s", Name: "slow", Reply: "late", Delay: 100 * time.Millisecond})
	s.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow"}}`)
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
	time.Sleep(300 * time.Millisecond) // past the call's delay
	s.send(`{"jsonrpc":"2.0","id":8,"method":"ping"}`)
	if m := s.read(); m["id"] != float64(8) {
		t.Fatalf("the cancelled call answered: %v", m)
	}
	s.end("the server waits on a cancelled call after its input ended")
}

func TestBadInputGetsItsError(t *testing.T) {
	s := start(t, search)
	for _, c := range []struct {
		line string
		code float64
	}{
		{`not json`, codeParse},
		{`{"jsonrpc":"2.0","id":1,"method":"resources/list"}`, codeNoMethod},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"other"}}`, codeInvalidParams},
		{`{"jsonrpc":"2.0","id":3}`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":4,"method":"x","params":"` + strings.Repeat("a", maxLine) + `"}`, codeParse},
	} {
		s.send(c.line)
		if got := errCode(s.read()); got != c.code {
			t.Errorf("%.40s: code %v, want %v", c.line, got, c.code)
		}
	}
	s.send(`{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	if m := s.read(); m["id"] != float64(5) || m["error"] != nil {
		t.Fatalf("after bad input, ping: %v", m)
	}
}

func TestEndOfInputEndsTheServer(t *testing.T) {
	s := start(t, Tool{Server: "s", Name: "slow", Reply: "late", Delay: time.Hour})
	s.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`)
	s.end("the server outlives its input while a call is under way")
	if s.out.Scan() {
		t.Fatalf("a call under way at the end of input answered: %s", s.out.Text())
	}
}

func TestFormElicitationComesBeforeTheResult(t *testing.T) {
	s := start(t, Tool{Server: "deploy", Name: "create", Reply: "Created.", Elicit: ElicitForm, Message: "Where to?"})
	s.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create"}}`)
	ask := s.read()
	params, _ := ask["params"].(map[string]any)
	if ask["method"] != "elicitation/create" || params["mode"] != "form" || params["message"] != "Where to?" || params["requestedSchema"] == nil {
		t.Fatalf("first message of the call: %v", ask)
	}
	s.send(`{"jsonrpc":"2.0","id":"nobody-asked","result":{"action":"accept"}}`) // dropped
	s.send(`{"jsonrpc":"2.0","id":` + mustJSON(t, ask["id"]) + `,"result":{"action":"decline"}}`)
	m := s.read()
	if text := m["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]; text != "Created. (decline)" {
		t.Fatalf("result after the answer: %v", m)
	}
}

func TestURLElicitationCompletesOnAccept(t *testing.T) {
	s := start(t, Tool{Server: "auth", Name: "login", Reply: "Signed in.", Elicit: ElicitURL, Message: "Sign in", URL: "https://example.com/login"})
	s.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"login"}}`)
	ask := s.read()
	params, _ := ask["params"].(map[string]any)
	if params["mode"] != "url" || params["url"] != "https://example.com/login" || params["elicitationId"] != ask["id"] {
		t.Fatalf("URL elicitation: %v", ask)
	}
	s.send(`{"jsonrpc":"2.0","id":` + mustJSON(t, ask["id"]) + `,"result":{"action":"accept"}}`)
	done := s.read()
	if done["method"] != "notifications/elicitation/complete" || done["params"].(map[string]any)["elicitationId"] != ask["id"] {
		t.Fatalf("after the accept: %v", done)
	}
	if m := s.read(); m["id"] != float64(1) || m["result"] == nil {
		t.Fatalf("the call's result: %v", m)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
