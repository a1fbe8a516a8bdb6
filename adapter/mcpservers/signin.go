package mcpservers

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/airwire/airwire/internal/uuid"
)

// The sign-in of an editor's MCP server: Claude Code owns the OAuth flow and
// its localhost callback; the editor only shows the authorization URL. For
// each requested server that Claude Code reports `needs-auth`, the agent
// asks `mcp_authenticate`, shows the URL it returns as a URL elicitation
// (id `mcp-oauth-<uuid>`), and watches the server's status each second,
// up to ten minutes, while the elicitation is open. Once the server is no
// longer signing in, or once the user accepted and the watch ended, the
// elicitation is reported complete; a user who declines or cancels ends
// the sign-in.

const (
	pollEvery   = time.Second
	pollTimeout = 10 * time.Minute
)

// Editor is the client side of a sign-in.
type Editor interface {
	// ElicitURL asks the user through a URL elicitation and returns the
	// answer's action; it gives up when ctx ends.
	ElicitURL(ctx context.Context, params URLElicitation) (action string, err error)
	// Complete reports the elicitation id complete (`elicitation/complete`).
	Complete(elicitationID string)
}

// URLElicitation is the params of the sign-in's `elicitation/create`, in the
// reference's key order.
type URLElicitation struct {
	Mode          string `json:"mode"`
	SessionID     string `json:"sessionId"`
	Message       string `json:"message"`
	URL           string `json:"url"`
	ElicitationID string `json:"elicitationId"`
}

// SignIn runs the sign-ins of one session, one run at a time.
type SignIn struct {
	SessionID string
	Editor    Editor
	Log       *slog.Logger
	// Current reports whether c is still the session's Claude Code; a
	// watch of a replaced or ended one stops.
	Current func(c Control) bool
	// Wait waits d unless ctx ends first (false then); nil: a timer.
	Wait func(ctx context.Context, d time.Duration) bool

	mu      sync.Mutex
	running bool
	stopped bool
	ctx     context.Context // ends at Stop
	stop    context.CancelFunc
}

// Start signs in, in the background, the servers among requested that c
// reports `needs-auth`; nothing while another run of the session is under
// way, or once the session stopped.
func (s *SignIn) Start(c Control, requested []string) {
	if len(requested) == 0 {
		return
	}
	s.mu.Lock()
	if s.running || s.stopped {
		s.mu.Unlock()
		return
	}
	s.running = true
	if s.ctx == nil {
		s.ctx, s.stop = context.WithCancel(context.Background())
	}
	ctx := s.ctx
	s.mu.Unlock()
	go func() {
		defer func() {
			s.mu.Lock()
			s.running = false
			s.mu.Unlock()
		}()
		if err := s.run(ctx, c, requested); err != nil && ctx.Err() == nil {
			s.Log.Error("failed to inspect MCP servers for OAuth", "session", s.SessionID, "err", err)
		}
	}()
}

// Stop ends the sign-in under way, with the session: its elicitation is
// withdrawn and none is reported complete.
func (s *SignIn) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	if s.stop != nil {
		s.stop()
	}
}

func (s *SignIn) run(ctx context.Context, c Control, requested []string) error {
	statuses, err := c.Status(ctx)
	if err != nil {
		return err
	}
	for _, st := range statuses {
		if st.Status != "needs-auth" || !slices.Contains(requested, st.Name) {
			continue
		}
		if err := s.server(ctx, c, st.Name); err != nil && ctx.Err() == nil {
			s.Log.Error("failed to authenticate an MCP server", "session", s.SessionID, "server", st.Name, "err", err)
		}
	}
	return nil
}

// server bridges one server's `mcp_authenticate` to a URL elicitation.
func (s *SignIn) server(ctx context.Context, c Control, name string) error {
	login, err := c.Authenticate(ctx, name)
	if err != nil || !login.RequiresUserAction {
		return err
	}
	if login.AuthURL == "" {
		return fmt.Errorf("Claude Code requested user action without returning an authorization URL")
	}
	id := "mcp-oauth-" + uuid.New()
	flow, stop := context.WithCancel(ctx)
	defer stop()
	completed := make(chan bool, 1)
	go func() { completed <- s.watch(flow, c, name) }()
	answered := make(chan elicitAnswer, 1)
	go func() {
		action, err := s.Editor.ElicitURL(flow, URLElicitation{Mode: "url", SessionID: s.SessionID,
			Message: "Authenticate with MCP server " + name, URL: login.AuthURL, ElicitationID: id})
		answered <- elicitAnswer{action, err}
	}()
	select {
	case <-completed:
	case a := <-answered:
		if a.err != nil {
			return a.err
		}
		if a.action != "accept" {
			return nil
		}
		<-completed
	}
	if flow.Err() == nil {
		s.Editor.Complete(id)
	}
	return nil
}

type elicitAnswer struct {
	action string
	err    error
}

// watch polls the server's status until it connects (true), fails, is
// disabled or gone, the session's Claude Code changes, the time is up, or
// ctx ends (false).
func (s *SignIn) watch(ctx context.Context, c Control, name string) bool {
	deadline := time.Now().Add(pollTimeout)
	for ctx.Err() == nil && time.Now().Before(deadline) {
		if s.Current != nil && !s.Current(c) {
			return false
		}
		statuses, err := c.Status(ctx)
		if err != nil {
			return false
		}
		i := slices.IndexFunc(statuses, func(st Status) bool { return st.Name == name })
		if i < 0 || statuses[i].Status == "failed" || statuses[i].Status == "disabled" {
			return false
		}
		if statuses[i].Status == "connected" {
			return true
		}
		if !s.wait(ctx, pollEvery) {
			return false
		}
	}
	return false
}

func (s *SignIn) wait(ctx context.Context, d time.Duration) bool {
	if s.Wait != nil {
		return s.Wait(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
