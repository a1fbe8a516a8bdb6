package providers

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// fakeSession records the routing each restart found.
type fakeSession struct {
	r        *Router
	mu       sync.Mutex
	busy     bool
	restarts []string
}

func (f *fakeSession) Busy() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.busy }

func (f *fakeSession) Restart(context.Context) {
	route := "own"
	if c := f.r.Resolved(); c != nil {
		route = c.BaseURL
	}
	f.mu.Lock()
	f.restarts = append(f.restarts, route)
	f.mu.Unlock()
}

// Updates run in the order Begin queued them, whatever order their
// goroutines reach Update in, and each restarts the sessions under its
// own routing.
func TestUpdatesRunInArrivalOrder(t *testing.T) {
	r := &Router{}
	s := &fakeSession{r: r}
	sessions := func() []Session { return []Session{s} }
	vertex := func(url string) *Config {
		return &Config{APIType: "vertex", BaseURL: url, VertexProject: "p", VertexRegion: "r"}
	}
	t1, t2, t3 := r.Begin(), r.Begin(), r.Begin()
	var wg sync.WaitGroup
	for _, u := range []struct {
		t   Ticket
		cfg *Config
	}{{t3, nil}, {t2, vertex("https://b")}, {t1, vertex("https://a")}} {
		wg.Add(1)
		go func() { defer wg.Done(); _ = r.Update(context.Background(), u.t, u.cfg, sessions) }()
	}
	wg.Wait()
	if got := s.restarts; len(got) != 3 || got[0] != "https://a" || got[1] != "https://b" || got[2] != "own" {
		t.Errorf("restarts = %q, want a, b, then Claude Code's own", got)
	}
	if r.Clear() {
		t.Error("Clear after the updates ended reports a routing in force")
	}
}

// A listing that fails leaves the routing as it was and restarts nothing.
func TestFailedListingKeepsTheRouting(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	r := &Router{HTTP: srv.Client()}
	s := &fakeSession{r: r}
	err := r.Update(context.Background(), r.Begin(), &Config{APIType: "anthropic", BaseURL: srv.URL}, func() []Session { return []Session{s} })
	var de *DiscoveryError
	if !errors.As(err, &de) || r.Resolved() != nil || len(s.restarts) != 0 {
		t.Errorf("Update = %v (routing %v, restarts %q), want a DiscoveryError and nothing changed", err, r.Resolved(), s.restarts)
	}
}

// A gateway login routes only with a payload; Clear ends it.
func TestGatewayLogin(t *testing.T) {
	r := &Router{}
	if host := r.SetGateway(nil); host != "" || !r.GatewayActive() || r.Resolved() != nil {
		t.Errorf("a login without payload: host %q, active %v, routing %v", host, r.GatewayActive(), r.Resolved())
	}
	if host := r.SetGateway(&Config{APIType: "anthropic", BaseURL: "https://gw.example.com:8443/x"}); host != "gw.example.com:8443" {
		t.Errorf("host = %q", host)
	}
	if !r.Clear() || r.GatewayActive() || r.Resolved() != nil {
		t.Error("Clear left the gateway login")
	}
}
