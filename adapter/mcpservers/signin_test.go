package mcpservers

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// authCLI is a Claude Code whose servers sign in: each status read takes
// the next answer of reads (the last repeats).
type authCLI struct {
	mu     sync.Mutex
	reads  [][]Status
	n      int
	login  Login
	authed []string
}

func (c *authCLI) Status(ctx context.Context) ([]Status, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.reads[min(c.n, len(c.reads)-1)]
	c.n++
	return s, nil
}

func (c *authCLI) Authenticate(ctx context.Context, server string) (Login, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.authed = append(c.authed, server)
	return c.login, nil
}

func (c *authCLI) Reconnect(context.Context, string) error    { return errors.New("unused") }
func (c *authCLI) Toggle(context.Context, string, bool) error { return errors.New("unused") }

func (c *authCLI) state() (reads int, authed []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n, append([]string(nil), c.authed...)
}

// editor answers each URL elicitation with action ("" waits for ctx) and
// records what it was asked and what was completed.
type editor struct {
	action    string
	mu        sync.Mutex
	asked     []URLElicitation
	withdrawn bool
	completed []string
}

func (e *editor) ElicitURL(ctx context.Context, p URLElicitation) (string, error) {
	e.mu.Lock()
	e.asked = append(e.asked, p)
	e.mu.Unlock()
	if e.action != "" {
		return e.action, nil
	}
	<-ctx.Done()
	e.mu.Lock()
	e.withdrawn = true
	e.mu.Unlock()
	return "", ctx.Err()
}

func (e *editor) Complete(id string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.completed = append(e.completed, id)
}

func newSignIn(e *editor) *SignIn {
	return &SignIn{SessionID: "s1", Editor: e, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Wait: func(ctx context.Context, d time.Duration) bool {
			if d != pollEvery {
				panic("poll interval")
			}
			return ctx.Err() == nil
		}}
}

// idle waits for the run of s to end.
func idle(t *testing.T, s *SignIn) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		s.mu.Lock()
		running := s.running
		s.mu.Unlock()
		if !running {
			return
		}
	}
	t.Fatal("the sign-in did not end")
}

// withdrawn waits for the editor's elicitation to be withdrawn.
func withdrawn(t *testing.T, e *editor) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		e.mu.Lock()
		w := e.withdrawn
		e.mu.Unlock()
		if w {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the elicitation was not withdrawn")
		}
	}
}

var (
	needsAuth = []Status{{Name: "gh", Status: "needs-auth"}, {Name: "mine", Status: "needs-auth"}, {Name: "fs", Status: "connected"}}
	connected = []Status{{Name: "gh", Status: "connected"}}
)

// A requested server that needs OAuth is signed in: Claude Code's URL goes
// to the editor as a URL elicitation, the status is watched until it
// connects, then the elicitation is reported complete. A server the editor
// did not give (mine) is left alone.
func TestSignInAcceptedThenConnected(t *testing.T) {
	cli := &authCLI{reads: [][]Status{needsAuth, needsAuth, needsAuth, connected}, login: Login{RequiresUserAction: true, AuthURL: "https://auth.example/x"}}
	e := &editor{action: "accept"}
	s := newSignIn(e)
	s.Start(cli, []string{"gh", "fs"})
	idle(t, s)
	reads, authed := cli.state()
	if strings.Join(authed, ",") != "gh" || reads != 4 {
		t.Fatalf("authenticated %q with %d status reads, want gh and 4", authed, reads)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.asked) != 1 {
		t.Fatalf("asked %d times", len(e.asked))
	}
	a := e.asked[0]
	if a.Mode != "url" || a.SessionID != "s1" || a.Message != "Authenticate with MCP server gh" || a.URL != "https://auth.example/x" || !strings.HasPrefix(a.ElicitationID, "mcp-oauth-") || len(a.ElicitationID) != len("mcp-oauth-")+36 {
		t.Fatalf("elicitation %+v", a)
	}
	if len(e.completed) != 1 || e.completed[0] != a.ElicitationID {
		t.Fatalf("completed %q, want the elicitation's id", e.completed)
	}
}

// A user who declines ends the sign-in: the watch stops and nothing is
// reported complete.
func TestSignInDeclined(t *testing.T) {
	cli := &authCLI{reads: [][]Status{needsAuth}, login: Login{RequiresUserAction: true, AuthURL: "u"}}
	e := &editor{action: "decline"}
	s := newSignIn(e)
	s.Start(cli, []string{"gh"})
	idle(t, s)
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.asked) != 1 || len(e.completed) != 0 {
		t.Fatalf("asked %d, completed %q", len(e.asked), e.completed)
	}
}

// A server that connects while the elicitation is open ends it: the
// request is withdrawn and reported complete.
func TestSignInConnectedBeforeTheAnswer(t *testing.T) {
	cli := &authCLI{reads: [][]Status{needsAuth, connected}, login: Login{RequiresUserAction: true, AuthURL: "u"}}
	e := &editor{}
	s := newSignIn(e)
	s.Start(cli, []string{"gh"})
	idle(t, s)
	withdrawn(t, e)
	if len(e.completed) != 1 {
		t.Fatalf("completed %q", e.completed)
	}
}

// A login that needs no user action asks nothing; a session that stops
// withdraws its elicitation and completes nothing; one run at a time.
func TestSignInNoActionAndStop(t *testing.T) {
	cli := &authCLI{reads: [][]Status{needsAuth}, login: Login{}}
	e := &editor{}
	s := newSignIn(e)
	s.Start(cli, []string{"gh"})
	idle(t, s)
	if len(e.asked) != 0 {
		t.Fatalf("asked %+v for a login that needs no action", e.asked)
	}

	cli = &authCLI{reads: [][]Status{needsAuth}, login: Login{RequiresUserAction: true, AuthURL: "u"}}
	s.Start(cli, []string{"gh"})
	s.Start(cli, []string{"gh"}) // under way: nothing more
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		e.mu.Lock()
		n := len(e.asked)
		e.mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no elicitation")
		}
	}
	s.Stop()
	idle(t, s)
	withdrawn(t, e)
	if _, authed := cli.state(); len(authed) != 1 || len(e.completed) != 0 {
		t.Fatalf("authenticated %q, completed %q", authed, e.completed)
	}
	s.Start(cli, []string{"gh"}) // stopped: nothing
	idle(t, s)
	if _, authed := cli.state(); len(authed) != 1 {
		t.Fatalf("a stopped session signed in again: %q", authed)
	}
}
