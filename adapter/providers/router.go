package providers

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// Router is the agent's provider state: the routing the client set, the
// gateway login, and the updates that move the live sessions to a new
// routing. A routing is baked into a CLI's environment and `--settings`
// when it starts, so an update waits for the turns under way, then
// restarts every live session's CLI under the new routing.
type Router struct {
	mu       sync.Mutex
	override *Config // providers/set
	gateway  *Config // authenticate's gateway payload
	// gatewayLogin: a gateway method authenticated, with or without a
	// payload; the gateway then owns the credentials.
	gatewayLogin bool
	pending      int // updates queued or running
	// last is closed when the update queued last is done: each update
	// waits for the one before it, so they run in the order they arrived.
	last chan struct{}
	// gate is held by an update while it restarts the sessions; the
	// editor's messages take it for reading (RLock), so no prompt or new
	// session reaches a CLI being replaced.
	gate sync.RWMutex

	// HTTP lists a gateway's models (nil: http.DefaultClient, under the
	// listing's own timeout).
	HTTP *http.Client
	// Log gets what an update did (nil: discarded).
	Log *slog.Logger
}

// Session is a live session as an update sees it.
type Session interface {
	// Busy reports whether a turn is under way.
	Busy() bool
	// Restart replaces the session's CLI with one under the current
	// routing (Resolved).
	Restart(ctx context.Context)
}

// RLock and RUnlock hold off an update's restarts while one of the
// editor's messages is served.
func (r *Router) RLock()   { r.gate.RLock() }
func (r *Router) RUnlock() { r.gate.RUnlock() }

// Resolved is the routing the next CLI starts under (nil: Claude Code's
// own): the provider the client set, else the gateway login.
func (r *Router) Resolved() *Config {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.override != nil {
		return r.override
	}
	return r.gateway
}

// List is the providers/list answer: the one provider and its current
// routing, Claude Code's own (from lookup, the agent's environment) when
// none is set.
func (r *Router) List(lookup func(string) (string, bool)) map[string]any {
	c := r.Resolved()
	if c == nil {
		d := Default(lookup)
		c = &d
	}
	return map[string]any{"providers": []map[string]any{{
		"providerId": ID, "supported": Supported, "required": false, "current": c.Current(),
	}}}
}

// Ticket is an update's place in the queue.
type Ticket struct{ prev, done chan struct{} }

// Begin queues an update when its request arrives (in the order of the
// editor's messages), and counts it, so a logout that comes before it
// runs knows to restart the sessions. Update runs it.
func (r *Router) Begin() Ticket {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pending++
	t := Ticket{prev: r.last, done: make(chan struct{})}
	r.last = t.done
	return t
}

// DiscoveryError is a failed model listing of providers/set.
type DiscoveryError struct {
	Config Config
	Err    error
}

func (e *DiscoveryError) Error() string {
	return `Model discovery for provider "` + ID + `" failed: ` + e.Err.Error()
}

func (e *DiscoveryError) Unwrap() error { return e.Err }

// Update runs the update t queued once the ones before it are done: it
// lists cfg's models (nil: back to Claude Code's own routing), waits for
// the turns under way, makes cfg the routing and restarts every session
// sessions returns. A failed listing (*DiscoveryError) leaves the routing
// as it was.
func (r *Router) Update(ctx context.Context, t Ticket, cfg *Config, sessions func() []Session) error {
	if t.prev != nil {
		<-t.prev
	}
	defer func() {
		r.mu.Lock()
		r.pending--
		r.mu.Unlock()
		close(t.done)
	}()
	if cfg != nil {
		if err := r.list(ctx, cfg); err != nil {
			return err
		}
	}
	r.quiesce(sessions)
	defer r.gate.Unlock()
	r.mu.Lock()
	r.override = cfg
	r.mu.Unlock()
	for _, s := range sessions() {
		s.Restart(ctx)
	}
	return nil
}

// list fills cfg's listing, reusing the current one for the same gateway.
func (r *Router) list(ctx context.Context, cfg *Config) error {
	r.mu.Lock()
	cur := r.override
	r.mu.Unlock()
	if cur != nil && SameListing(*cur, *cfg) {
		cfg.Listed, cfg.Narrow, cfg.RegionPrefix = cur.Listed, cur.Narrow, cur.RegionPrefix
		return nil
	}
	client := r.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	if err := List(ctx, client, cfg); err != nil {
		r.logger().Error("provider model listing failed", "err", err)
		var le *ListingError
		if errors.As(err, &le) {
			return &DiscoveryError{Config: *cfg, Err: err}
		}
		return err
	}
	return nil
}

// quiesce returns, holding the gate, once no session has a turn under
// way: the turns end under the routing they started with. A turn ends
// when Claude Code's result arrives or its CLI exits; polling keeps the
// turns free of provider hooks.
func (r *Router) quiesce(sessions func() []Session) {
	for {
		if !anyBusy(sessions()) {
			r.gate.Lock()
			if !anyBusy(sessions()) {
				return
			}
			r.gate.Unlock()
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func anyBusy(sessions []Session) bool {
	for _, s := range sessions {
		if s.Busy() {
			return true
		}
	}
	return false
}

// SetGateway records a gateway login with cfg as its routing (nil: a
// login without a payload, which routes nothing) and returns the host the
// auth status names ("" for none).
func (r *Router) SetGateway(cfg *Config) string {
	r.mu.Lock()
	r.gateway, r.gatewayLogin = cfg, true
	r.mu.Unlock()
	if cfg == nil {
		return ""
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil {
		return cfg.BaseURL
	}
	return u.Host
}

// GatewayActive reports whether a gateway login owns the credentials.
func (r *Router) GatewayActive() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.gatewayLogin
}

// Clear drops the gateway login and the client's provider; it reports
// whether one was in force or an update was under way, so the sessions
// must restart under Claude Code's own routing (Update with nil).
func (r *Router) Clear() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	had := r.override != nil || r.gateway != nil || r.pending > 0
	r.override, r.gateway, r.gatewayLogin = nil, nil, false
	return had
}

func (r *Router) logger() *slog.Logger {
	if r.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return r.Log
}
